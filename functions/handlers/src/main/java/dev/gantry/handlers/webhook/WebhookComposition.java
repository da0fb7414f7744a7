package dev.gantry.handlers.webhook;

import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.Environment;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The webhook's composition root: only SQS and Secrets Manager clients (the latter kept, to re-read the token after a
 * rotation), so its package carries no EC2 SDK, no
 * fabric8 and no YAML. Its own class (not the shared {@code Composition}) so that loading it cannot pull those in.
 */
public final class WebhookComposition {
    /** The API server waits 2 s (timeoutSeconds) for the reply; the SQS call must finish well inside it. */
    static final Duration SEND_BUDGET = Duration.ofMillis(1500);

    private WebhookComposition() {
    }

    /**
     * The parts the handler needs, from the environment.
     *
     * @param hintBucket the deduplication bucket of the hints (whole seconds; the provisioning queue's delay)
     */
    public record Parts(String clusterName, WorkQueue queue, WebhookToken token, Duration hintBucket) {
        /** A token that never rotates and a 1 s bucket (tests and benchmarks). */
        public Parts(String clusterName, WorkQueue queue, PathToken token) {
            this(clusterName, queue, WebhookToken.fixed(token), Duration.ofSeconds(1));
        }
    }

    public static Parts fromEnvironment(Environment env) {
        Region region = Region.of(env.require(Environment.REGION));
        SqsClient sqs = SqsClient.builder().region(region)
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofMillis(500))
                        .socketTimeout(Duration.ofMillis(1000)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(SEND_BUDGET)
                        .apiCallAttemptTimeout(Duration.ofMillis(700)).retryStrategy(RetryMode.STANDARD).build())
                .build();
        // Kept for re-reads after a rotation (WebhookToken), with timeouts that fit the API server's 2 s budget.
        SecretsManagerClient secrets = SecretsManagerClient.builder().region(region)
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofMillis(500))
                        .socketTimeout(Duration.ofMillis(1000)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(Duration.ofMillis(1200))
                        .build())
                .build();
        String arn = env.require(Environment.WEBHOOK_SECRET_ARN);
        WebhookToken token = WebhookToken.reading(() -> secrets.getSecretValue(r -> r.secretId(arn)).secretString(),
                Clock.systemUTC());
        return new Parts(env.require(Environment.CLUSTER_NAME),
                new SqsWorkQueue(sqs, env.require(Environment.PROVISIONING_QUEUE_URL)), token,
                Duration.ofSeconds(Long.parseLong(env.require(Environment.HINT_BUCKET_SECONDS))));
    }
}
