package dev.gantry.core.work;

import java.time.Duration;

/**
 * Sends work to a queue: provisioning hints to the FIFO queue, "continue draining" to the termination queue.
 * Implemented over SQS and in memory for the simulator.
 *
 * <p>Delivery is at least once. {@code deduplicationId} collapses duplicates on a FIFO queue (ignored elsewhere);
 * {@code delay} defers delivery (standard queues; at most 15 minutes). Failures are unchecked and retryable.
 */
public interface WorkQueue {
    void send(String body, String groupId, String deduplicationId, Duration delay);
}
