package dev.gantry.aws.sqs;

import dev.gantry.core.work.Redelivery;
import dev.gantry.core.work.WorkQueue;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * {@link WorkQueue} over one SQS queue; a URL ending in {@code .fifo} is a FIFO queue. Also the queue's
 * {@link Redelivery}: ChangeMessageVisibility on a received message, whole seconds, capped at SQS's 12 hours.
 *
 * <p>FIFO: {@code groupId} becomes MessageGroupId (required) and {@code deduplicationId} MessageDeduplicationId (when
 * null, the queue must have content-based deduplication). The {@code delay} is ignored: SQS rejects a per-message
 * DelaySeconds on FIFO queues, and nothing sends delayed work to one (hints want to be seen at once; the Lambda
 * batching window already gathers them).
 *
 * <p>Standard: groupId and deduplicationId are ignored, and the delay becomes DelaySeconds, rounded up to a whole
 * second and capped at SQS's maximum of 15 minutes. A caller that needs to wait longer gets the message early and
 * sends it again.
 */
public final class SqsWorkQueue implements WorkQueue, Redelivery {
    /** SQS's limit on DelaySeconds. */
    public static final Duration MAX_DELAY = Duration.ofMinutes(15);
    /** SQS's limit on a message's visibility timeout. */
    public static final Duration MAX_VISIBILITY = Duration.ofHours(12);

    private final SqsClient sqs;
    private final String queueUrl;
    private final boolean fifo;

    public SqsWorkQueue(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        if (queueUrl == null || queueUrl.isBlank()) {
            throw new IllegalArgumentException("queueUrl must not be blank");
        }
        this.queueUrl = queueUrl;
        this.fifo = queueUrl.endsWith(".fifo");
    }

    /** A production client: URL-connection HTTP with {@code CallTimeouts.DEFAULT.sqs()}, the given region, the default credentials chain. */
    public static SqsClient client(Region region) {
        dev.gantry.config.deployment.CallTimeouts.Budget b = dev.gantry.config.deployment.CallTimeouts.DEFAULT.sqs();
        return SqsClient.builder().region(region).httpClient(dev.gantry.aws.client.ClientTimeouts.http(b))
                .overrideConfiguration(dev.gantry.aws.client.ClientTimeouts.override(b)).build();
    }

    /** A client for an emulator or LocalStack at {@code endpoint}, with explicit credentials. */
    public static SqsClient client(Region region, URI endpoint, AwsCredentialsProvider credentials) {
        return SqsClient.builder().region(region).endpointOverride(endpoint).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    public boolean isFifo() {
        return fifo;
    }

    /** @throws IllegalArgumentException on a FIFO queue without a group id */
    @Override
    public void send(String body, String groupId, String deduplicationId, Duration delay) {
        SendMessageRequest.Builder request = SendMessageRequest.builder().queueUrl(queueUrl).messageBody(body);
        if (fifo) {
            if (groupId == null || groupId.isBlank()) {
                throw new IllegalArgumentException("a FIFO queue needs a message group id");
            }
            request.messageGroupId(groupId).messageDeduplicationId(deduplicationId);
        } else if (delay != null && delay.isPositive()) {
            request.delaySeconds(delaySeconds(delay));
        }
        sqs.sendMessage(request.build());
    }

    @Override
    public void redeliverAfter(String receiptHandle, Duration after) {
        if (receiptHandle == null || receiptHandle.isBlank()) {
            throw new IllegalArgumentException("receiptHandle must not be blank");
        }
        Duration capped = after.isNegative() ? Duration.ZERO : after.compareTo(MAX_VISIBILITY) > 0 ? MAX_VISIBILITY : after;
        int seconds = (int) (capped.getSeconds() + (capped.getNano() > 0 ? 1 : 0));
        sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(receiptHandle)
                .visibilityTimeout(Math.min(seconds, (int) MAX_VISIBILITY.getSeconds())));
    }

    /** SQS's limit on entries per batch request. */
    static final int MAX_BATCH = 10;

    /** ChangeMessageVisibilityBatch, 10 entries a request; entries SQS reports failed are thrown together at the end. */
    @Override
    public void redeliverAllAfter(java.util.List<String> receiptHandles, Duration after) {
        Duration capped = after.isNegative() ? Duration.ZERO : after.compareTo(MAX_VISIBILITY) > 0 ? MAX_VISIBILITY : after;
        int seconds = (int) Math.min(capped.getSeconds() + (capped.getNano() > 0 ? 1 : 0), MAX_VISIBILITY.getSeconds());
        java.util.List<String> failures = new java.util.ArrayList<>();
        for (int from = 0; from < receiptHandles.size(); from += MAX_BATCH) {
            java.util.List<String> chunk = receiptHandles.subList(from, Math.min(receiptHandles.size(), from + MAX_BATCH));
            java.util.List<software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry> entries =
                    new java.util.ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                if (chunk.get(i) == null || chunk.get(i).isBlank()) {
                    throw new IllegalArgumentException("receiptHandle must not be blank");
                }
                int id = from + i;
                entries.add(software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry.builder()
                        .id("m" + id).receiptHandle(chunk.get(i)).visibilityTimeout(seconds).build());
            }
            var response = sqs.changeMessageVisibilityBatch(b -> b.queueUrl(queueUrl).entries(entries));
            response.failed().forEach(f -> failures.add(f.id() + ": " + f.code() + " " + f.message()));
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("ChangeMessageVisibilityBatch failed for " + failures);
        }
    }

    static int delaySeconds(Duration delay) {
        Duration capped = delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
        long seconds = capped.getSeconds() + (capped.getNano() > 0 ? 1 : 0);
        return (int) Math.min(seconds, MAX_DELAY.getSeconds());
    }
}
