package dev.gantry.core.work;

import java.time.Duration;
import java.util.List;

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

    /**
     * The same for several messages, in as few requests as the queue allows (SQS: ChangeMessageVisibilityBatch, 10
     * entries a request), so an invocation that dies part-way through is less likely to leave some of them at the
     * queue's whole timeout. Every handle is attempted; the failures are then thrown together. This default makes one
     * call per message.
     */
    default void redeliverAllAfter(List<String> receiptHandles, Duration after) {
        RuntimeException failed = null;
        for (String handle : receiptHandles) {
            try {
                redeliverAfter(handle, after);
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
