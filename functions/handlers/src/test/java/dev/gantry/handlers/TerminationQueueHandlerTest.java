package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.termination.TerminationRequest;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TerminationQueueHandlerTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** EC2 refusing every TerminateInstances, as under a throttle. */
    private static final class Throttled implements CloudProvider {
        @Override
        public LaunchResult launch(LaunchRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void terminate(List<String> instanceIds) {
            throw new CloudException("RequestLimitExceeded", "TerminateInstances: request limit exceeded", true);
        }

        @Override
        public List<CloudInstance> listInstances() {
            return List.of();
        }

        @Override
        public Optional<CloudInstance> describe(String instanceId) {
            return Optional.empty();
        }
    }

    @Test
    void aSliceWhoseTerminateInstancesFailsIsRetriedWithinSecondsNotAfterTheSixMinuteVisibilityTimeout() {
        // Regression: the flow's last slice sends no next message, so its failed record waited out the queue's
        // six-minute visibility, and the instance kept running (the simulator's stuck-claim invariant found it).
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        NodeClaim c = store.create(NodeClaim.launching("gone-node", "default", "h", List.of(), List.of(), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0.1, NOW.minusSeconds(600)));
        c = store.update(c.launched("i-0123456789abcdef0", "m5.large", "us-east-1a", "on-demand", 0.1, NOW.minusSeconds(590)));
        store.update(c.draining("deleted", NOW.minusSeconds(60)));
        List<String> sent = new ArrayList<>();
        TerminationService service = new TerminationService(new InMemoryCluster(), new InMemoryCluster(), store, new Throttled(),
                (body, group, dedup, delay) -> sent.add(body), Map.of(), CLOCK);
        List<String> redelivered = new ArrayList<>();
        TerminationQueueHandler handler = new TerminationQueueHandler(service, new TerminationCodec(JSON),
                new EmbeddedMetrics(JSON, "c", new PrintStream(new ByteArrayOutputStream())), CLOCK, null,
                TerminationQueueHandler.RESERVE, (receipt, after) -> redelivered.add(receipt + " " + after));
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId("m1");
        m.setReceiptHandle("r1");
        m.setBody(new TerminationRequest("gone-node", 0).toJson());
        m.setAttributes(Map.of("ApproximateReceiveCount", "2"));
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(m));

        SQSBatchResponse r = handler.handleRequest(e, null);

        assertThat(r.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier).containsExactly("m1");
        assertThat(sent).as("the finishing slice sends no next message").isEmpty();
        assertThat(redelivered).containsExactly("r1 " + Duration.ofSeconds(20)); // second receive: 10 s doubled once
    }
}
