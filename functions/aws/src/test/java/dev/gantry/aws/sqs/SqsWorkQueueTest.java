package dev.gantry.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

class SqsWorkQueueTest {
    private final SqsClient unused = SqsWorkQueue.client(Region.US_EAST_1, java.net.URI.create("http://127.0.0.1:1"),
            AnonymousCredentialsProvider.create());

    @Test
    void roundsADelayUpToWholeSeconds() {
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofSeconds(30))).isEqualTo(30);
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofMillis(30_500))).isEqualTo(31);
    }

    @Test
    void capsADelayAtFifteenMinutes() {
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofMinutes(15))).isEqualTo(900);
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofMinutes(15).plusNanos(1))).isEqualTo(900);
        assertThat(SqsWorkQueue.delaySeconds(Duration.ofDays(3))).isEqualTo(900);
    }

    @Test
    void tellsAFifoQueueByItsUrl() {
        assertThat(new SqsWorkQueue(unused, "https://sqs.us-east-1.amazonaws.com/123/gantry-hints.fifo").isFifo()).isTrue();
        assertThat(new SqsWorkQueue(unused, "https://sqs.us-east-1.amazonaws.com/123/gantry-termination").isFifo()).isFalse();
    }

    @Test
    void rejectsABlankQueueUrl() {
        assertThatThrownBy(() -> new SqsWorkQueue(unused, " ")).isInstanceOf(IllegalArgumentException.class);
    }
}
