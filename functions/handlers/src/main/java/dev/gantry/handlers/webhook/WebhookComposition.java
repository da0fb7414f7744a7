package dev.gantry.handlers.webhook;

import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.core.work.WorkQueue;
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
 * rotation), so its package carries no EC2 SDK and no fabric8 (the YAML reader comes only with admission of
 * configuration objects, {@link ConfigAdmission}). Its own class (not the shared
 * {@code Composition}) so that loading it cannot pull those in. It reads no environment: the handler passes the
 * {@link Settings} it read.
 */
public final class WebhookComposition {
    /** The API server waits 2 s (timeoutSeconds) for the reply; the SQS call must finish well inside it. */
    static final Duration SEND_BUDGET = Duration.ofMillis(1500);

    private WebhookComposition() {
    }

    /**
     * The parts the handler needs.
     *
     * @param hintBucket the deduplication bucket of the hints (whole seconds; the provisioning queue's delay)
     */
    public record Parts(String clusterName, WorkQueue queue, WebhookToken token, Duration hintBucket,
                        java.util.Set<String> gantryPools) {
        public Parts {
            gantryPools = java.util.Set.copyOf(gantryPools);
        }

        /** Gantry manages every NodePool. */
        public Parts(String clusterName, WorkQueue queue, WebhookToken token, Duration hintBucket) {
            this(clusterName, queue, token, hintBucket, java.util.Set.of());
        }

        /** A token that never rotates and a 1 s bucket (tests and benchmarks). */
        public Parts(String clusterName, WorkQueue queue, PathToken token) {
            this(clusterName, queue, WebhookToken.fixed(token), Duration.ofSeconds(1));
        }
    }

    /**
     * What the webhook is configured with; the handler reads it from its environment.
     *
     * @param hintBucket the deduplication bucket of the hints (whole seconds; the provisioning queue's delay)
     */
    public record Settings(String region, String clusterName, String provisioningQueueUrl, String tokenSecretArn,
                           Duration hintBucket, java.util.Set<String> gantryPools) {
    }

    /** The parts the handler needs: an SQS client and a Secrets Manager client, with timeouts inside the API server's 2 s. */
    public static Parts build(Settings settings) {
        Region region = Region.of(settings.region());
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
        String arn = settings.tokenSecretArn();
        WebhookToken token = WebhookToken.reading(() -> secrets.getSecretValue(r -> r.secretId(arn)).secretString(),
                Clock.systemUTC());
        return new Parts(settings.clusterName(), new SqsWorkQueue(sqs, settings.provisioningQueueUrl()), token,
                settings.hintBucket(), settings.gantryPools());
    }
}
