package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.MalformedMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Partial batch failure for SQS handlers whose records are independent: each record is handled on its own, and one
 * that fails (malformed, or its work threw) is reported alone, so SQS retries it and then dead-letters it while the
 * rest of the batch succeeds. Log lines name the message, never echo its body.
 */
final class SqsRecords {
    private SqsRecords() {
    }

    /**
     * Whether less than {@code reserve} of the invocation's time is left, so a record started now might not finish
     * before the Lambda timeout kills it. A null context (a direct call, a test) is never short of time.
     */
    static boolean shortOfTime(com.amazonaws.services.lambda.runtime.Context context, java.time.Duration reserve) {
        return context != null && context.getRemainingTimeInMillis() < reserve.toMillis();
    }

    static SQSBatchResponse eachIndependently(String function, SQSEvent event, Consumer<SQSEvent.SQSMessage> handle) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords() == null ? List.<SQSEvent.SQSMessage>of() : event.getRecords()) {
            try {
                handle.accept(m);
            } catch (MalformedMessage | IllegalArgumentException e) {
                System.err.println(function + ": message " + m.getMessageId() + " is malformed (" + e.getMessage() + ")");
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            } catch (RuntimeException e) {
                System.err.println(function + ": message " + m.getMessageId() + " failed, will be retried: " + e.getClass().getSimpleName());
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }
}
