package dev.gantry.config.deployment;

import java.time.Duration;
import java.util.Objects;

/**
 * One work queue, its dead-letter queue and the event source that feeds its consumer.
 *
 * @param name                the short name ({@code provisioning}); infra's construct id is derived from it
 * @param fifo                FIFO (one message group per cluster, explicit deduplication ids) or standard
 * @param visibility          how long a received message stays hidden; at least 6x the consumer's timeout plus the
 *                            batching window (Lambda's SQS guidance), so a slow or throttled batch is not redelivered
 *                            while it is still running
 * @param retention           how long an unprocessed message is kept; must exceed {@code maxReceiveCount x
 *                            visibility} (plus the delay and a margin), or a failing message expires before it can
 *                            reach the dead-letter queue and is lost without an alarm
 * @param deliveryDelay       queue-level delay (the only delay a FIFO queue supports)
 * @param maxReceiveCount     receives before a message is dead-lettered: enough to ride out throttling and a
 *                            transient API outage, few enough to surface a bug
 * @param deadLetterRetention how long a dead letter waits for someone to inspect and redrive it
 * @param consumer            the name of the {@link FunctionSettings function} the event source invokes
 * @param eventSource         how that event source batches and how many consumers it runs at once
 */
public record QueueSettings(String name, boolean fifo, Duration visibility, Duration retention, Duration deliveryDelay,
                            int maxReceiveCount, Duration deadLetterRetention, String consumer,
                            EventSourceSettings eventSource) {
    public QueueSettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(visibility, "visibility");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(deliveryDelay, "deliveryDelay");
        Objects.requireNonNull(deadLetterRetention, "deadLetterRetention");
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(eventSource, "eventSource");
        if (maxReceiveCount < 1) {
            throw new IllegalArgumentException(name + ": maxReceiveCount must be at least 1");
        }
    }

    /**
     * How long a message that fails every receive needs before it is dead-lettered: the delivery delay, then
     * {@code maxReceiveCount} visibility timeouts.
     */
    public Duration timeToDeadLetter() {
        return deliveryDelay.plus(visibility.multipliedBy(maxReceiveCount));
    }
}
