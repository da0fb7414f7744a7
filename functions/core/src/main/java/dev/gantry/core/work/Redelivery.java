package dev.gantry.core.work;

import java.time.Duration;

/**
 * Makes a message a handler received, and is about to report failed, visible again after {@code after} instead of
 * after the queue's whole visibility timeout (SQS ChangeMessageVisibility), so one transient error costs seconds, not
 * minutes. The message's receive count still rises with every delivery, so the queue's redrive policy still applies.
 * Failures are unchecked; the caller logs them and the message keeps the queue's timeout.
 */
@FunctionalInterface
public interface Redelivery {
    /** No early redelivery: the queue's visibility timeout applies (in-memory queues, tests). */
    Redelivery NONE = (receiptHandle, after) -> { };

    /** @param after from now; SQS takes whole seconds, 0 to 12 hours */
    void redeliverAfter(String receiptHandle, Duration after);
}
