package dev.gantry.handlers.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.EventBridgeCodec;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.InterruptionQueueHandler;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.handlers.TerminationQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.testing.Events;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lifecycle handlers on the events/ samples, over the in-memory ports. */
class LifecycleHandlersTest {
    static final String ID = "i-0abcd1234efgh5678";
    static final String NODE = "ip-10-0-0-4.ec2.internal";
    static final Instant NOW = Instant.parse("2025-06-01T12:00:01Z");
    static final ObjectMapper JSON = new ObjectMapper();

    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final InMemoryCluster cluster = new InMemoryCluster();
    final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    final List<String> terminated = new ArrayList<>();
    final List<String> provisioning = new ArrayList<>();
    final List<String> termination = new ArrayList<>();
    final ByteArrayOutputStream metricsOut = new ByteArrayOutputStream();
    final NodePool pool = new NodePool("default", Map.of("gantry.dev/rebalance", "replace"), new NodePool.Template(null, null,
            null, null, null, new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()), null, null, null, null);
    final CloudProvider cloud = new CloudProvider() {
        public LaunchResult launch(LaunchRequest r) { throw new UnsupportedOperationException(); }
        public void terminate(List<String> ids) { terminated.addAll(ids); }
        public List<CloudInstance> listInstances() { return List.of(); }
        public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
    };
    final WorkQueue provisioningQueue = (body, group, dedup, delay) -> provisioning.add(body);
    final WorkQueue terminationQueue = (body, group, dedup, delay) -> termination.add(body);
    final TerminationService terminations = new TerminationService(cluster, cluster, store, cloud, terminationQueue, Map.of("default", pool), clock);
    final QueueHints hints = new QueueHints(provisioningQueue, new HintCodec(JSON), store, "demo");
    final EmbeddedMetrics metrics = new EmbeddedMetrics(JSON, "demo", new PrintStream(metricsOut));
    final InterruptionQueueHandler interruption = new InterruptionQueueHandler(
            new InterruptionService(store, cluster, cluster, terminations, hints, Map.of("default", pool), clock),
            new EventBridgeCodec(JSON), metrics, clock);

    LifecycleHandlersTest() {
        NodeClaim c = NodeClaim.launching("default-x7k2p", "default", "h", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "spot", 0.04, NOW.minusSeconds(3600)).launched(ID, "m5.large", "us-east-1a", "spot", 0.04, NOW.minusSeconds(3600))
                .registered(NODE, NOW.minusSeconds(3500)).initialized(NOW.minusSeconds(3500));
        store.create(c);
        cluster.putNode(new Node(NODE, "aws:///us-east-1a/" + ID, Map.of(), Map.of(), List.of(), Resources.of(2000, 8L << 30),
                true, false, false, NOW.minusSeconds(3500), List.of(Node.FINALIZER), null));
        cluster.putPod(Pod.builder("default", "web-6d5f7c8b9-x7k2p").uid("5f0c1b7e").nodeName(NODE).owner("ReplicaSet", "web")
                .status(new Pod.Status("Running", false, NOW, null, null)).build());
    }

    static SQSEvent sqs(String sample) throws Exception {
        JsonNode root = JSON.readTree(Events.load(sample));
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (JsonNode r : root.get("Records")) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId(r.get("messageId").asText());
            m.setBody(r.get("body").asText());
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    @ParameterizedTest
    @ValueSource(strings = {"spot-interruption-warning", "capacity-reservation-interruption",
            "state-change-stopping", "state-change-terminated", "health-scheduled-change"})
    void everySampleIsHandledAndStartsTheFlowOnceAcrossThreeDeliveries(String name) throws Exception {
        SQSEvent event = sqs("interruption/" + name + ".json");
        assertThat(interruption.handleRequest(event, null).getBatchItemFailures()).isEmpty();
        NodeClaim after = store.get("default-x7k2p", NOW).orElseThrow();
        assertThat(after.state()).isIn(NodeClaimState.Draining, NodeClaimState.Terminated);
        assertThat(metricsOut.toString()).contains("\"InterruptionEvents\":1.0");
        List<String> hintsAfter = List.copyOf(provisioning);
        assertThat(hintsAfter).hasSize(1);
        for (int i = 0; i < 2; i++) {
            assertThat(interruption.handleRequest(event, null).getBatchItemFailures()).isEmpty();
        }
        assertThat(store.get("default-x7k2p", NOW).orElseThrow()).isEqualTo(after);
        assertThat(provisioning).isEqualTo(hintsAfter);
    }

    @Test
    void theSpotWarningEvictsThePodWithinTheMessage() throws Exception {
        long t = System.nanoTime();
        interruption.handleRequest(sqs("interruption/spot-interruption-warning.json"), null);
        double ms = (System.nanoTime() - t) / 1e6;
        assertThat(cluster.pod("default/web-6d5f7c8b9-x7k2p")).isNull();
        assertThat(JSON.readTree(provisioning.getFirst()).get("reason").asText()).isEqualTo("interruption");
        assertThat(termination).singleElement().asString().contains("\"claim\":\"default-x7k2p\"");
        System.out.printf("MEASURE interruption handler, message to first eviction (in-memory ports, cold JVM path): %.1f ms%n", ms);
    }

    @Test
    void aMalformedRecordFailsAloneAndTheRestOfTheBatchSucceeds() throws Exception {
        SQSBatchResponse r = interruption.handleRequest(sqs("interruption/malformed-batch.json"), null);
        assertThat(r.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("0f5e3c2a-8b1d-4c6e-9f0a-000000000012");
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
    }

    @Test
    void anEventMissingItsInstanceIdIsAFailedRecord() {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId("m1");
        m.setBody("{\"source\":\"aws.ec2\",\"detail-type\":\"EC2 Spot Instance Interruption Warning\",\"time\":\"2025-06-01T12:00:00Z\",\"detail\":{}}");
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(m));
        assertThat(interruption.handleRequest(e, null).getBatchItemFailures()).hasSize(1);
    }

    /** A Lambda context whose remaining time the test sets. */
    static final class TimedContext implements Context {
        long remainingMillis;

        TimedContext(long remainingMillis) {
            this.remainingMillis = remainingMillis;
        }

        @Override public String getAwsRequestId() { return "req"; }
        @Override public String getLogGroupName() { return "g"; }
        @Override public String getLogStreamName() { return "s"; }
        @Override public String getFunctionName() { return "f"; }
        @Override public String getFunctionVersion() { return "1"; }
        @Override public String getInvokedFunctionArn() { return "arn"; }
        @Override public CognitoIdentity getIdentity() { return null; }
        @Override public ClientContext getClientContext() { return null; }
        @Override public int getRemainingTimeInMillis() { return (int) remainingMillis; }
        @Override public int getMemoryLimitInMB() { return 512; }
        @Override public LambdaLogger getLogger() { return null; }
    }

    static SQSEvent.SQSMessage message(String id, String body) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(id);
        m.setBody(body);
        return m;
    }

    @Test
    void recordsLeftWhenTheInvocationRunsShortOfTimeAreQueuedAgainNotCutOffByTheTimeout() {
        terminations.start("default-x7k2p", TerminationStart.because("deleted"));
        String next = termination.getLast();
        List<String> requeued = new ArrayList<>();
        TimedContext context = new TimedContext(60_000);
        TerminationQueueHandler handler = new TerminationQueueHandler(terminations, new TerminationCodec(JSON), metrics, clock,
                (body, group, dedup, delay) -> {
                    requeued.add(body + " " + delay);
                }, TerminationQueueHandler.RESERVE);
        context.remainingMillis = TerminationQueueHandler.RESERVE.toMillis() - 1; // the earlier records took the time

        SQSBatchResponse r = handler.handleRequest(new SQSEvent() {{ setRecords(List.of(message("late", next))); }}, context);

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(requeued).containsExactly(next + " PT0S");
        assertThat(terminated).as("not sliced in this invocation").isEmpty();

        context.remainingMillis = 60_000;
        handler.handleRequest(new SQSEvent() {{ setRecords(List.of(message("again", next))); }}, context);
        assertThat(terminated).containsExactly(ID);
    }

    @Test
    void aSpotWarningLateInTheInvocationMarksTheClaimAndQueuesItsFirstSlice() throws Exception {
        SQSBatchResponse r = interruption.handleRequest(sqs("interruption/spot-interruption-warning.json"),
                new TimedContext(InterruptionQueueHandler.RESERVE.toMillis() - 1));

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
        assertThat(cluster.pod("default/web-6d5f7c8b9-x7k2p")).as("evicted by the termination handler, not here").isNotNull();
        assertThat(termination).containsExactly("{\"claim\":\"default-x7k2p\",\"step\":0}");
        assertThat(provisioning).hasSize(1);
    }

    @Test
    void terminationMessagesContinueTheFlowAndMalformedOnesFail() {
        terminations.start("default-x7k2p", TerminationStart.because("deleted"));
        TerminationQueueHandler handler = new TerminationQueueHandler(terminations, new TerminationCodec(JSON), metrics, clock);
        SQSEvent.SQSMessage ok = new SQSEvent.SQSMessage();
        ok.setMessageId("ok");
        ok.setBody(termination.getLast());
        SQSEvent.SQSMessage bad = new SQSEvent.SQSMessage();
        bad.setMessageId("bad");
        bad.setBody("{\"claim\":7}");
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(ok, bad));
        assertThat(handler.handleRequest(e, null).getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("bad");
        assertThat(terminated).containsExactly(ID);
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(metricsOut.toString()).contains("NodesTerminated");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSweepWithLessThanItsStartReserveLeftStartsNoExpiryAndTheNextSweepDoes() throws Exception {
        NodePool expiring = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(java.time.Duration.ofMinutes(30)),
                Optional.empty()), null, null, null, null);
        SweepService sweep = new SweepService("demo", cluster, cluster, store, cloud, terminations, hints,
                Map.of("default", expiring), type -> Optional.of(InstanceFacts.NONE), clock);
        SweepHandler handler = new SweepHandler(sweep, null, clock);
        Map<String, Object> scheduled = JSON.readValue(Events.load("sweep/scheduled-event.json"), Map.class);
        // The usable 70% less START_RESERVE is already gone: the claim launched an hour ago is expired but not started.
        long late = (long) (SweepHandler.START_RESERVE.toMillis() / 0.7) - 1;

        assertThat(handler.handleRequest(scheduled, new TimedContext(late))).containsEntry("disrupted", 0);
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().state()).isEqualTo(NodeClaimState.Initialized);

        assertThat(handler.handleRequest(scheduled, new TimedContext(50_000))).containsEntry("disrupted", 1);
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().deletionReason()).isEqualTo("expired");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theScheduledEventRunsASweepAndFinalSweepTerminatesEverything() throws Exception {
        SweepService sweep = new SweepService("demo", cluster, cluster, store, cloud, terminations, hints, Map.of("default", pool),
                type -> Optional.of(InstanceFacts.NONE), clock);
        SweepHandler handler = new SweepHandler(sweep);
        Map<String, Object> scheduled = JSON.readValue(Events.load("sweep/scheduled-event.json"), Map.class);
        assertThat(handler.handleRequest(scheduled, null)).containsKey("registered");
        assertThat(handler.handleRequest(Map.of("finalSweep", true), null)).containsEntry("finalSweep", true);
        assertThat(store.get("default-x7k2p", NOW).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
    }
}
