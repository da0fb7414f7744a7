package dev.gantry.handlers.webhook;

import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.Environment;
import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The webhook's composition root: only SQS and Secrets Manager clients, so its package carries no EC2 SDK, no
 * fabric8 and no YAML. Its own class (not the shared {@code Composition}) so that loading it cannot pull those in.
 */
public final class WebhookComposition {
    /** The API server waits 2 s (timeoutSeconds) for the reply; the SQS call must finish well inside it. */
    static final Duration SEND_BUDGET = Duration.ofMillis(1500);

    private WebhookComposition() {
    }

    /** The parts the handler needs, from the environment: cluster name, queue, token (read once, here). */
    public record Parts(String clusterName, WorkQueue queue, PathToken token) {
    }

    public static Parts fromEnvironment(Environment env) {
        Region region = Region.of(env.require(Environment.REGION));
        SqsClient sqs = SqsClient.builder().region(region)
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofMillis(500))
                        .socketTimeout(Duration.ofMillis(1000)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(SEND_BUDGET)
                        .apiCallAttemptTimeout(Duration.ofMillis(700)).retryStrategy(RetryMode.STANDARD).build())
                .build();
        String token;
        try (SecretsManagerClient secrets = SecretsManagerClient.builder().region(region)
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            token = secrets.getSecretValue(r -> r.secretId(env.require(Environment.WEBHOOK_SECRET_ARN))).secretString();
        }
        return new Parts(env.require(Environment.CLUSTER_NAME),
                new SqsWorkQueue(sqs, env.require(Environment.PROVISIONING_QUEUE_URL)), PathToken.of(token));
    }
}
