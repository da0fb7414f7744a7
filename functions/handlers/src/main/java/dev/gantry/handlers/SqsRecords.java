package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.core.work.Redelivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Partial batch failure for SQS handlers whose records are independent: each record is handled on its own, and one
 * that fails (malformed, or its work threw) is reported alone, so SQS retries it and then dead-letters it while the
 * rest of the batch succeeds. Log lines name the message, never echo its body.
 *
 * <p>With a {@link Redelivery} (the queue's ChangeMessageVisibility), a record whose work failed comes back after a
 * short, backed-off delay ({@link #retryDelay}) instead of the queue's whole visibility timeout (3 and 6 minutes here:
 * longer than a spot warning's two minutes), and a batch is held only for the invocation's remaining time plus
 * {@link #HOLD_MARGIN} ({@link #holdForThisInvocation}), so a batch whose invocation died (a timeout, a crash) comes
 * back within seconds of its deadline too. The receive count still rises with each delivery, so the queue's redrive
 * policy still dead-letters a record that keeps failing, sooner than with the full visibility timeout.
 */
final class SqsRecords {
    private SqsRecords() {
    }

    /** The first retry after a failed record or run; each further receive doubles it, up to {@link #MAX_RETRY_DELAY}. */
    static final Duration RETRY_DELAY = Duration.ofSeconds(10);
    static final Duration MAX_RETRY_DELAY = Duration.ofMinutes(2);
    /** How long after the invocation's deadline its batch comes back if it could not answer (a timeout, a crash). */
    static final Duration HOLD_MARGIN = Duration.ofSeconds(15);

    static SQSBatchResponse eachIndependently(String function, SQSEvent event, Consumer<SQSEvent.SQSMessage> handle) {
        return eachIndependently(function, event, null, Redelivery.NONE, handle);
    }

    /** As above; failed records come back after {@link #retryDelay}, and the batch is held only for this invocation. */
    static SQSBatchResponse eachIndependently(String function, SQSEvent event, com.amazonaws.services.lambda.runtime.Context context,
                                              Redelivery redelivery, Consumer<SQSEvent.SQSMessage> handle) {
        holdForThisInvocation(function, event, context, redelivery);
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords() == null ? List.<SQSEvent.SQSMessage>of() : event.getRecords()) {
            try {
                handle.accept(m);
            } catch (MalformedMessage | IllegalArgumentException e) {
                System.err.println(function + ": message " + m.getMessageId() + " is malformed (" + e.getMessage() + ")");
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            } catch (RuntimeException e) {
                System.err.println(function + ": message " + m.getMessageId() + " failed, will be retried: " + e.getClass().getSimpleName());
                retrySoon(function, m, redelivery);
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    private static void retrySoon(String function, SQSEvent.SQSMessage m, Redelivery redelivery) {
        if (redelivery == Redelivery.NONE || m.getReceiptHandle() == null) {
            return;
        }
        try {
            redelivery.redeliverAfter(m.getReceiptHandle(), retryDelay(RETRY_DELAY, receiveCount(m)));
        } catch (RuntimeException e) {
            System.err.println(function + ": could not shorten message " + m.getMessageId()
                    + "'s retry (the queue's visibility timeout applies): " + e.getClass().getSimpleName());
        }
    }

    /**
     * Every record stays hidden only while this invocation can still answer for it: its remaining time plus
     * {@link #HOLD_MARGIN}, in whole seconds (SQS's unit). A null context (a direct call, not an invocation) has no
     * deadline. Best effort: a record whose visibility could not be changed keeps the queue's timeout.
     */
    static void holdForThisInvocation(String function, SQSEvent event, com.amazonaws.services.lambda.runtime.Context context,
                                      Redelivery redelivery) {
        if (context == null || redelivery == Redelivery.NONE || event.getRecords() == null) {
            return;
        }
        long millis = Math.max(0, context.getRemainingTimeInMillis()) + HOLD_MARGIN.toMillis();
        Duration hold = Duration.ofSeconds((millis + 999) / 1000);
        // One request for the whole batch: a run that dies between per-message calls would leave the rest at the
        // queue's timeout, and on the provisioning queue one such message holds the cluster's FIFO group for minutes.
        try {
            redelivery.redeliverAllAfter(event.getRecords().stream().map(SQSEvent.SQSMessage::getReceiptHandle).toList(), hold);
        } catch (RuntimeException e) {
            System.err.println(function + ": could not limit every message's visibility to this invocation: "
                    + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** {@code first} doubled for every earlier receive, capped at {@link #MAX_RETRY_DELAY}. */
    static Duration retryDelay(Duration first, int receiveCount) {
        return retryDelay(first, MAX_RETRY_DELAY, receiveCount);
    }

    /** {@code first} doubled for every earlier receive, capped at {@code max}. */
    static Duration retryDelay(Duration first, Duration max, int receiveCount) {
        Duration d = first;
        for (int i = 1; i < receiveCount && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }

    static int receiveCount(SQSEvent.SQSMessage m) {
        String n = m.getAttributes() == null ? null : m.getAttributes().get("ApproximateReceiveCount");
        try {
            return n == null ? 1 : Math.max(1, Integer.parseInt(n));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
