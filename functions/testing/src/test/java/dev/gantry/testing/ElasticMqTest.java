package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** ElasticMQ in-process, answering the real SqsClient over the JSON protocol. */
class ElasticMqTest {
    private static ElasticMq sqs;

    @BeforeAll
    static void start() {
        long started = System.nanoTime();
        sqs = ElasticMq.start();
        System.out.println("ElasticMQ start-up: " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    @AfterAll
    static void stop() {
        sqs.close();
    }

    private static String fifo(SqsClient client, String name, Map<QueueAttributeName, String> extra) {
        var attributes = new java.util.HashMap<>(extra);
        attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
        return client.createQueue(r -> r.queueName(name).attributes(attributes)).queueUrl();
    }

    @Test
    void fifoQueueDropsADuplicateDedupIdAndKeepsGroupOrder() {
        SqsClient client = sqs.sqsClient();
        String url = fifo(client, "hints-dedup.fifo", Map.of());

        client.sendMessage(r -> r.queueUrl(url).messageBody("first").messageGroupId("cluster-a")
                .messageDeduplicationId("pod-1/bucket-7"));
        client.sendMessage(r -> r.queueUrl(url).messageBody("duplicate").messageGroupId("cluster-a")
                .messageDeduplicationId("pod-1/bucket-7"));
        client.sendMessage(r -> r.queueUrl(url).messageBody("second").messageGroupId("cluster-a")
                .messageDeduplicationId("pod-2/bucket-7"));

        List<Message> received = client.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)
                .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages();
        assertThat(received).extracting(Message::body).containsExactly("first", "second");
        assertThat(received.getFirst().attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "cluster-a");
    }

    @Test
    void messageReceivedTwiceWithoutDeleteMovesToTheDeadLetterQueue() {
        SqsClient client = sqs.sqsClient();
        String dlqUrl = fifo(client, "hints-dlq.fifo", Map.of());
        String dlqArn = client.getQueueAttributes(r -> r.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String url = fifo(client, "hints-redrive.fifo", Map.of(
                QueueAttributeName.REDRIVE_POLICY, "{\"maxReceiveCount\":\"2\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}",
                QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
        client.sendMessage(r -> r.queueUrl(url).messageBody("poison").messageGroupId("g").messageDeduplicationId("p"));

        for (int attempt = 0; attempt < 2; attempt++) {
            var got = client.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(3)).messages();
            assertThat(got).extracting(Message::body).containsExactly("poison");
            // Not deleting it: a failed handler. Make it visible again at once instead of waiting out the timeout.
            client.changeMessageVisibility(r -> r.queueUrl(url).receiptHandle(got.getFirst().receiptHandle())
                    .visibilityTimeout(0));
        }

        assertThat(client.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(1)).messages()).isEmpty();
        assertThat(client.receiveMessage(r -> r.queueUrl(dlqUrl).waitTimeSeconds(2)).messages())
                .extracting(Message::body).containsExactly("poison");
    }
}
