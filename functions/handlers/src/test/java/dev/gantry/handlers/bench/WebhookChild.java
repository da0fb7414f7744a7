package dev.gantry.handlers.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.handlers.PendingPodWebhookHandler;
import dev.gantry.handlers.webhook.PathToken;
import dev.gantry.handlers.webhook.WebhookComposition;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The webhook side of {@link PrimingChild}; its own class so the webhook jar never loads provisioner types. */
final class WebhookChild {
    private static final String CLUSTER = PrimingChild.CLUSTER;
    /** Signed as the webhook function, as the IAM contract expects of a call to the parent's AWS stub. */
    private static final AwsCredentialsProvider CREDS = software.amazon.awssdk.auth.credentials.StaticCredentialsProvider
            .create(software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("webhook", "test"));
    /** The token secret's full ARN, as the stack passes it in GANTRY_WEBHOOK_SECRET_ARN. */
    static final String TOKEN_SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token-AbCdEf";

    private WebhookChild() {
    }

    /** The webhook as {@code WebhookComposition.build} builds it: SQS client, token read once from Secrets Manager. */
    static PrimingChild.Handler build(String[] a) throws Exception {
        SqsClient sqs = SqsClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create(a[2])).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofMillis(500))
                        .socketTimeout(Duration.ofMillis(1000)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(Duration.ofMillis(1500))
                        .apiCallAttemptTimeout(Duration.ofMillis(700)).retryStrategy(RetryMode.STANDARD).build())
                .build();
        String token;
        try (SecretsManagerClient secrets = SecretsManagerClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create(a[6]))
                .credentialsProvider(CREDS).httpClient(UrlConnectionHttpClient.create()).build()) {
            token = secrets.getSecretValue(r -> r.secretId(TOKEN_SECRET_ARN)).secretString();
        }
        PendingPodWebhookHandler h = new PendingPodWebhookHandler(new WebhookComposition.Parts(CLUSTER,
                new SqsWorkQueue(sqs, a[3]), PathToken.of(token)), Clock.systemUTC());
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRawPath(a[5])
                .withRawQueryString("timeout=10s").withBody(Files.readString(Path.of(a[4]))).withIsBase64Encoded(false).build();
        // "extended" adds a read-only SQS call after the hook (a proposal measured here, not production code).
        boolean extended = a[1].equals("extended");
        return new PrimingChild.Handler(() -> {
            h.beforeCheckpoint(null);
            if (extended) {
                sqs.getQueueAttributes(r -> r.queueUrl(a[3]).attributeNames(QueueAttributeName.QUEUE_ARN));
            }
        }, () -> h.afterRestore(null),
                () -> h.handleRequest(event, null).getStatusCode());
    }

}
