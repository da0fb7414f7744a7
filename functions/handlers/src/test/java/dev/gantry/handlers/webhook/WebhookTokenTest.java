package dev.gantry.handlers.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.AwsStub;
import dev.gantry.testing.MutableClock;
import dev.gantry.testing.StubResponse;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WebhookTokenTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T12:00:00Z"));
    private final AtomicReference<String> secret = new AtomicReference<>("old-token");
    private final AtomicInteger reads = new AtomicInteger();
    private final WebhookToken token = WebhookToken.reading(() -> {
        reads.incrementAndGet();
        String s = secret.get();
        if (s == null) {
            throw new IllegalStateException("Secrets Manager is down");
        }
        return s;
    }, clock);

    /**
     * The read as the webhook's composition makes it: GetSecretValue on the secret's full ARN (what the stack passes
     * in GANTRY_WEBHOOK_SECRET_ARN), signed as the webhook, through a real client (the IAM contract evaluates it).
     */
    @Test
    void theTokenIsReadFromTheSecretsCurrentValueThroughSecretsManager() {
        String arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token-AbCdEf";
        try (AwsStub aws = AwsStub.start();
             SecretsManagerClient sm = SecretsManagerClient.builder().endpointOverride(aws.endpoint())
                     .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("webhook", "x")))
                     .build()) {
            aws.onTarget("secretsmanager.GetSecretValue", r -> StubResponse.awsJson("{\"ARN\":\"" + arn
                    + "\",\"Name\":\"gantry-token\",\"SecretString\":\"s3cr3t-token\"}"));
            WebhookToken read = WebhookToken.reading(() -> sm.getSecretValue(r -> r.secretId(arn)).secretString(), clock);

            assertThat(read.admits("/hook/s3cr3t-token")).isTrue();
            assertThat(aws.lastRequest("secretsmanager.GetSecretValue").body()).contains(arn);
        }
    }

    @Test
    void theCurrentTokenIsAdmittedWithoutReadingAgain() {
        assertThat(token.admits("/hook/old-token")).isTrue();
        assertThat(reads).hasValue(1);
    }

    @Test
    void aNewTokenIsAdmittedAsSoonAsTheSecretHoldsIt() {
        secret.set("new-token");
        assertThat(token.admits("/hook/new-token")).isTrue();
        assertThat(token.admits("/hook/old-token")).isFalse();
    }

    @Test
    void theOldTokenKeepsWorkingUntilTheCachedCopyIsFiveMinutesOld() {
        secret.set("new-token");
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        assertThat(token.admits("/hook/old-token")).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(token.admits("/hook/old-token")).isFalse();
        assertThat(token.admits("/hook/new-token")).isTrue();
    }

    @Test
    void wrongTokensReadTheSecretAtMostEveryThirtySeconds() {
        for (int i = 0; i < 100; i++) {
            assertThat(token.admits("/hook/guess-" + i)).isFalse();
            clock.advance(Duration.ofMillis(100));
        }
        // One read at start, one on the first miss, one more 30 s later (100 x 0.1 s = 10 s: none yet).
        assertThat(reads).hasValue(2);
        clock.advance(Duration.ofSeconds(30));
        token.admits("/hook/guess");
        assertThat(reads).hasValue(3);
    }

    @Test
    void aFailedReadKeepsTheCachedTokenAndIsRetriedSoon() {
        secret.set(null);
        clock.advance(Duration.ofMinutes(5));
        assertThat(token.admits("/hook/old-token")).isTrue();
        secret.set("new-token");
        clock.advance(Duration.ofSeconds(30));
        assertThat(token.admits("/hook/old-token")).isFalse();
    }

    @Test
    void primingReadsNothing() {
        token.prime();
        assertThat(reads).hasValue(1);
    }
}
