package dev.gantry.handlers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.AwsStub;
import dev.gantry.testing.ElasticMq;
import dev.gantry.testing.RecordedRequest;
import dev.gantry.testing.StubResponse;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * What one webhook child talks to: a new FIFO queue in the shared ElasticMQ, and an AWS stub answering Secrets
 * Manager's GetSecretValue with the path token (the webhook's one init-time read). Checks that priming sent nothing
 * and that the timed invocation sent its hint.
 */
final class WebhookWorld implements AutoCloseable {
    static final String TOKEN = "s3cr3t-hook-token-0123456789abcdef";
    private final ElasticMq mq;
    private final AwsStub aws;
    private final String queueUrl;

    private WebhookWorld(ElasticMq mq, String queue) {
        this.mq = mq;
        this.queueUrl = mq.sqsClient().createQueue(r -> r.queueName(queue + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        this.aws = AwsStub.start();
        aws.onTarget("secretsmanager.GetSecretValue", r -> StubResponse.awsJson("{\"ARN\":\"" + WebhookChild.TOKEN_SECRET_ARN
                + "\",\"Name\":\"gantry-token\",\"SecretString\":\"" + TOKEN + "\"}"));
    }

    static WebhookWorld start(ElasticMq mq, String queue) {
        return new WebhookWorld(mq, queue);
    }

    /** The child's arguments after the mode and the priming flag. */
    List<String> childArgs(String bodyFile, String rawPath) {
        return List.of(mq.endpoint().toString(), queueUrl, bodyFile, rawPath, aws.endpoint().toString());
    }

    /** Priming sent nothing (and init made only its token read). */
    void assertUntouched() {
        assertThat(aws.requests()).extracting(RecordedRequest::action).containsExactly("secretsmanager.GetSecretValue");
        assertThat(messages()).isZero();
    }

    /** The timed invocation sent its hint. */
    void assertSent() {
        assertThat(messages()).isPositive();
    }

    private int messages() {
        return Integer.parseInt(mq.sqsClient().getQueueAttributes(r -> r.queueUrl(queueUrl)
                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    @Override
    public void close() {
        aws.close();
        mq.sqsClient().deleteQueue(r -> r.queueUrl(queueUrl));
    }
}
