package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.core.work.Redelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Regression (#11 §4, found by the simulator's chaos mix): a record that failed once (one API error) came back after
 * the queue's visibility timeout, 3 minutes for interruptions and 6 for terminations: a spot warning's drain then
 * started after EC2 had reclaimed the node. Failed records now come back after a short backed-off delay, and a batch
 * is held only for its invocation's remaining time.
 */
class SqsRecordsTest {
    private final List<String> redelivered = new ArrayList<>();
    private final Redelivery recording = (receipt, after) -> redelivered.add(receipt + " " + after);

    private static SQSEvent batch(int receives, String... ids) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (String id : ids) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId(id);
            m.setReceiptHandle("r-" + id);
            m.setBody(id);
            m.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(receives)));
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    private static Context remaining(int millis) {
        return (Context) java.lang.reflect.Proxy.newProxyInstance(SqsRecordsTest.class.getClassLoader(),
                new Class<?>[] {Context.class},
                (proxy, method, args) -> method.getName().equals("getRemainingTimeInMillis") ? millis : null);
    }

    @Test
    void aRecordWhoseWorkFailedComesBackInSecondsBackingOffPerReceive() {
        SQSBatchResponse first = SqsRecords.eachIndependently("interruption", batch(1, "a", "b"), null, recording, m -> {
            if (m.getBody().equals("b")) {
                throw new IllegalStateException("the API server answered 503");
            }
        });
        assertThat(first.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier).containsExactly("b");
        assertThat(redelivered).containsExactly("r-b PT10S");

        redelivered.clear();
        SqsRecords.eachIndependently("interruption", batch(3, "b"), null, recording, m -> {
            throw new IllegalStateException("still down");
        });
        assertThat(redelivered).containsExactly("r-b PT40S");
    }

    @Test
    void aBatchIsHeldOnlyForTheInvocationsRemainingTimeAndAMalformedRecordIsNotRetriedEarly() {
        SQSBatchResponse r = SqsRecords.eachIndependently("termination", batch(1, "a", "b"), remaining(29_100), recording, m -> {
            if (m.getBody().equals("b")) {
                throw new IllegalArgumentException("not a termination request");
            }
        });
        assertThat(r.getBatchItemFailures()).hasSize(1);
        assertThat(redelivered).containsExactly("r-a PT45S", "r-b PT45S"); // 29.1 s + 15 s, rounded up
    }

    @Test
    void withoutRedeliveryNothingChangesTheVisibility() {
        SqsRecords.eachIndependently("termination", batch(1, "a"), remaining(1_000), Redelivery.NONE, m -> {
            throw new IllegalStateException("boom");
        });
        assertThat(redelivered).isEmpty();
    }
}
