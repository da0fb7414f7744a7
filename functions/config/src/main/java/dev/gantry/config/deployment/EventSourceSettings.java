package dev.gantry.config.deployment;

import java.time.Duration;
import java.util.Objects;

/**
 * The SQS event source mapping of one queue.
 *
 * @param batchSize          messages per invocation at most
 * @param maxBatchingWindow  how long the poller may wait to fill a batch; zero for none (FIFO sources support none)
 * @param maxConcurrency     the poller's cap on concurrent invocations (2 to 1000), or null for none. Unlike
 *                           reserved concurrency it never throttles, so capped messages do not burn receive counts
 */
public record EventSourceSettings(int batchSize, Duration maxBatchingWindow, Integer maxConcurrency) {
    public EventSourceSettings {
        Objects.requireNonNull(maxBatchingWindow, "maxBatchingWindow");
        if (batchSize < 1 || batchSize > 10_000) {
            throw new IllegalArgumentException("batchSize must be 1 to 10000");
        }
        if (maxConcurrency != null && (maxConcurrency < 2 || maxConcurrency > 1000)) {
            throw new IllegalArgumentException("maxConcurrency must be 2 to 1000 (SQS event sources' range)");
        }
    }
}
