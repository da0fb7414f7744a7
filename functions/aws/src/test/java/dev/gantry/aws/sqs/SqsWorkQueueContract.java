package dev.gantry.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@link SqsWorkQueue} and the SQS behaviour the handlers rely on (FIFO order, deduplication, redrive, partial batch
 * failure, delays), against a real SQS implementation supplied by the subclass: ElasticMQ here, LocalStack where Docker
 * exists. Each test makes its own queues.
 */
public abstract class SqsWorkQueueContract {
    protected abstract SqsClient sqs();

    private String createQueue(String name, Map<QueueAttributeName, String> attributes) {
        String unique = name.replace(".fifo", "") + "-" + UUID.randomUUID().toString().substring(0, 8)
                + (name.endsWith(".fifo") ? ".fifo" : "");
        return sqs().createQueue(b -> b.queueName(unique).attributes(attributes)).queueUrl();
    }

    private String fifoQueue() {
        return createQueue("hints.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
    }

    private List<Message> receive(String queueUrl) {
        return sqs().receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0)
                .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID,
                        MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
    }

    /** Receives until {@code count} messages arrived or {@code timeout} passed, deleting none. */
    private List<Message> receiveAtLeast(String queueUrl, int count, Duration timeout) throws InterruptedException {
        List<Message> got = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (got.size() < count && System.nanoTime() < deadline) {
            got.addAll(receive(queueUrl));
            if (got.size() < count) {
                Thread.sleep(100);
            }
        }
        return got;
    }

    private void delete(String queueUrl, Message m) {
        sqs().deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
    }

    @Test
    void redeliverAfterMakesAFailedFifoMessageVisibleLongBeforeTheQueuesVisibilityTimeout() throws InterruptedException {
        String url = createQueue("hints.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true",
                QueueAttributeName.VISIBILITY_TIMEOUT, "360")); // production's six minutes
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);
        queue.send("hint-1", "cluster-a", "d1", Duration.ZERO);
        queue.send("hint-2", "cluster-a", "d2", Duration.ZERO);
        List<Message> first = receiveAtLeast(url, 2, Duration.ofSeconds(5));
        assertThat(first).extracting(Message::body).containsExactly("hint-1", "hint-2");
        delete(url, first.get(0)); // the run acked one, failed the other

        queue.redeliverAfter(first.get(1).receiptHandle(), Duration.ofSeconds(1));

        List<Message> again = receiveAtLeast(url, 1, Duration.ofSeconds(5));
        assertThat(again).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("hint-2");
            assertThat(m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).isEqualTo("2");
        });
    }

    @Test
    void redeliverAllAfterMakesAWholeFifoBatchVisibleAgainInOneRequest() throws InterruptedException {
        String url = createQueue("hints.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true",
                QueueAttributeName.VISIBILITY_TIMEOUT, "360"));
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);
        for (int i = 1; i <= 12; i++) { // more than one batch request's 10 entries
            queue.send("hint-" + i, "cluster-" + i, "d" + i, Duration.ZERO); // one group each: a FIFO group hides its later messages while one is in flight
        }
        List<Message> first = receiveAtLeast(url, 12, Duration.ofSeconds(5));
        assertThat(first).hasSize(12);

        queue.redeliverAllAfter(first.stream().map(Message::receiptHandle).toList(), Duration.ofSeconds(1));

        assertThat(receiveAtLeast(url, 12, Duration.ofSeconds(8))).extracting(Message::body)
                .containsExactlyInAnyOrderElementsOf(first.stream().map(Message::body).toList());
    }

    @Test
    void redeliverAllAfterReportsAnEntryItCouldNotChangeAndStillChangesTheOthers() throws InterruptedException {
        String url = createQueue("hints.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true",
                QueueAttributeName.VISIBILITY_TIMEOUT, "360"));
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);
        queue.send("hint-1", "cluster-a", "d1", Duration.ZERO);
        queue.send("hint-2", "cluster-a", "d2", Duration.ZERO);
        List<Message> first = receiveAtLeast(url, 2, Duration.ofSeconds(5));
        delete(url, first.get(0)); // its handle is no longer in flight

        assertThatThrownBy(() -> queue.redeliverAllAfter(first.stream().map(Message::receiptHandle).toList(),
                Duration.ofSeconds(1))).hasMessageContaining("ChangeMessageVisibilityBatch failed");

        assertThat(receiveAtLeast(url, 1, Duration.ofSeconds(5))).extracting(Message::body).containsExactly("hint-2");
    }

    @Test
    void deliversEachGroupInTheOrderSent() throws InterruptedException {
        String url = fifoQueue();
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);
        for (int i = 0; i < 6; i++) {
            String group = i % 2 == 0 ? "cluster-a" : "cluster-b";
            queue.send(group + "-" + i, group, "dedup-" + i, Duration.ZERO);
        }

        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (a.size() + b.size() < 6 && System.nanoTime() < deadline) {
            for (Message m : receive(url)) {
                String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
                (group.equals("cluster-a") ? a : b).add(m.body());
                delete(url, m);
            }
        }

        assertThat(a).containsExactly("cluster-a-0", "cluster-a-2", "cluster-a-4");
        assertThat(b).containsExactly("cluster-b-1", "cluster-b-3", "cluster-b-5");
    }

    @Test
    void dropsADuplicateSentWithinTheDeduplicationWindow() throws InterruptedException {
        String url = fifoQueue();
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);

        queue.send("{\"reason\":\"pod-created\"}", "cluster-a", "uid-1-bucket-7", Duration.ZERO);
        queue.send("{\"reason\":\"pod-created\",\"again\":true}", "cluster-a", "uid-1-bucket-7", Duration.ZERO);
        queue.send("{\"reason\":\"pod-unschedulable\"}", "cluster-a", "uid-1-bucket-8", Duration.ZERO);

        List<Message> got = receiveAtLeast(url, 2, Duration.ofSeconds(2));
        got.forEach(m -> delete(url, m));

        assertThat(got).extracting(Message::body)
                .containsExactly("{\"reason\":\"pod-created\"}", "{\"reason\":\"pod-unschedulable\"}");
        assertThat(receive(url)).as("the duplicate was dropped, not delayed").isEmpty();
    }

    @Test
    void ignoresTheDelayOnAFifoQueue() throws InterruptedException {
        String url = fifoQueue();

        new SqsWorkQueue(sqs(), url).send("now", "cluster-a", "d-1", Duration.ofMinutes(10));

        assertThat(receiveAtLeast(url, 1, Duration.ofSeconds(2))).extracting(Message::body).containsExactly("now");
    }

    @Test
    void rejectsAFifoSendWithoutAGroup() {
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), fifoQueue());

        assertThatThrownBy(() -> queue.send("x", null, "d-1", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void movesAMessageToTheDeadLetterQueueAfterMaxReceiveCount() throws InterruptedException {
        String dlq = createQueue("termination-dlq", Map.of());
        String dlqArn = sqs().getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String url = createQueue("termination", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1",
                QueueAttributeName.REDRIVE_POLICY, "{\"maxReceiveCount\":\"2\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}"));
        new SqsWorkQueue(sqs(), url).send("{\"claim\":\"default-abc12\",\"step\":1}", null, null, Duration.ZERO);

        int receives = 0;
        List<Message> dead = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (dead.isEmpty() && System.nanoTime() < deadline) {
            receives += receive(url).size(); // received and never deleted: a handler that keeps failing
            dead = receive(dlq);
            Thread.sleep(200);
        }

        assertThat(receives).isEqualTo(2);
        assertThat(dead).extracting(Message::body).containsExactly("{\"claim\":\"default-abc12\",\"step\":1}");
    }

    @Test
    void redeliversOnlyTheMessageNotDeletedAfterItsVisibilityTimeout() throws InterruptedException {
        String url = createQueue("termination", Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
        SqsWorkQueue queue = new SqsWorkQueue(sqs(), url);
        for (String claim : List.of("a", "b", "c")) {
            queue.send(claim, null, null, Duration.ZERO);
        }

        List<Message> batch = receiveAtLeast(url, 3, Duration.ofSeconds(2));
        assertThat(batch).hasSize(3);
        Message failed = batch.stream().filter(m -> m.body().equals("c")).findFirst().orElseThrow();
        batch.stream().filter(m -> m != failed).forEach(m -> delete(url, m)); // the handler reports "c" as failed

        assertThat(receive(url)).as("invisible until the timeout runs out").isEmpty();
        List<Message> again = receiveAtLeast(url, 1, Duration.ofSeconds(5));
        assertThat(again).extracting(Message::body).containsExactly("c");
        assertThat(again.getFirst().attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).isEqualTo("2");
    }

    @Test
    void delaysAMessageOnAStandardQueue() throws InterruptedException {
        String url = createQueue("termination", Map.of());
        long sent = System.nanoTime();

        new SqsWorkQueue(sqs(), url).send("later", null, null, Duration.ofSeconds(2));

        assertThat(receive(url)).isEmpty();
        List<Message> got = receiveAtLeast(url, 1, Duration.ofSeconds(6));
        assertThat(got).extracting(Message::body).containsExactly("later");
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void acceptsADelayBeyondFifteenMinutesByCappingIt() {
        String url = createQueue("termination", Map.of());

        new SqsWorkQueue(sqs(), url).send("much later", null, null, Duration.ofHours(2));

        assertThat(receive(url)).isEmpty();
        assertThat(sqs().getQueueAttributes(b -> b.queueUrl(url)
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).isEqualTo("1");
    }
}
