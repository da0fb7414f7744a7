package dev.gantry.aws.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.config.deployment.CallTimeouts;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

class ClientTimeoutsTest {
    @Test
    void aClientOfAnEndpointThatNeverAnswersGivesUpAtItsCallBudgetAfterRetryingEachTimedOutAttempt() throws Exception {
        CallTimeouts.Budget budget = new CallTimeouts.Budget(Duration.ofMillis(500), Duration.ofMillis(300),
                Duration.ofMillis(2_000), CallTimeouts.SDK_ATTEMPTS);
        AtomicInteger connections = new AtomicInteger();
        List<Socket> held = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0)) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        held.add(server.accept()); // reads nothing, answers nothing
                        connections.incrementAndGet();
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            });
            try (SqsClient sqs = SqsClient.builder().region(Region.US_EAST_1)
                    .endpointOverride(URI.create("http://127.0.0.1:" + server.getLocalPort()))
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                    .httpClient(ClientTimeouts.http(budget)).overrideConfiguration(ClientTimeouts.override(budget)).build()) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> sqs.sendMessage(b -> b.queueUrl("http://127.0.0.1/q").messageBody("x")))
                        .isInstanceOf(SdkClientException.class);
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(took).isLessThan(Duration.ofSeconds(5)); // not the HTTP client's default 30 s per attempt
                assertThat(connections.get()).as("attempts").isEqualTo(CallTimeouts.SDK_ATTEMPTS);
            } finally {
                server.close();
                acceptor.join();
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    @Test
    void theStandardModeIsTheOnlyRetryCountABudgetMayAskOfTheSdk() {
        assertThatThrownBy(() -> ClientTimeouts.override(new CallTimeouts.Budget(Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(2), 2))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ClientTimeouts.override(CallTimeouts.DEFAULT.ec2()).apiCallAttemptTimeout()).contains(Duration.ofSeconds(10));
        assertThat(ClientTimeouts.override(CallTimeouts.DEFAULT.ec2()).apiCallTimeout()).contains(Duration.ofSeconds(20));
    }
}
