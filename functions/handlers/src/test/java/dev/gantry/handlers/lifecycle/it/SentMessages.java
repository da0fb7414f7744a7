package dev.gantry.handlers.lifecycle.it;

import dev.gantry.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Every SendMessage the SQS adapters make, as the SDK was asked to send it (so a test sees the requested
 * DelaySeconds, group and deduplication ids even where the queue would hide a duplicate). The delay is then taken off
 * the request: ElasticMQ keeps real time, and the test moves its {@link MutableClock} by the recorded delay instead.
 */
final class SentMessages implements ExecutionInterceptor {
    record Sent(String queueUrl, String body, Duration delay, String groupId, String deduplicationId) {
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        if (context.request() instanceof SendMessageRequest r) {
            sent.add(new Sent(r.queueUrl(), r.messageBody(),
                    Duration.ofSeconds(r.delaySeconds() == null ? 0 : r.delaySeconds()), r.messageGroupId(), r.messageDeduplicationId()));
            return r.toBuilder().delaySeconds(null).build();
        }
        return context.request();
    }

    List<Sent> to(String queueUrl) {
        return sent.stream().filter(s -> s.queueUrl().equals(queueUrl)).toList();
    }

    List<Sent> all() {
        return List.copyOf(sent);
    }

    /** The delay the adapter asked for when it sent {@code body} last. */
    Duration delayOf(String queueUrl, String body) {
        return to(queueUrl).stream().filter(s -> s.body().equals(body)).reduce((a, b) -> b)
                .map(Sent::delay).orElseThrow(() -> new AssertionError("nothing sent with body " + body));
    }
}
