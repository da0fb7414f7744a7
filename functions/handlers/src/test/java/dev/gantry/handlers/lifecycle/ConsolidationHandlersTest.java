package dev.gantry.handlers.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.handlers.TerminationQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Consolidation through the real handlers: the sweep decides and sends the validation message, the termination
 * handler takes the consolidation message types alongside its slices, and both emit their metrics.
 */
class ConsolidationHandlersTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final long GI = 1L << 30;
    final Instant[] now = {Instant.parse("2025-06-01T12:00:00Z")};
    final Clock clock = new Clock() {
        public ZoneId getZone() { return ZoneOffset.UTC; }
        public Clock withZone(ZoneId z) { return this; }
        public Instant instant() { return now[0]; }
    };
    final InMemoryCluster cluster = new InMemoryCluster();
    final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    final List<String[]> termination = new ArrayList<>();
    final WorkQueue terminationQueue = (body, group, dedup, delay) -> termination.add(new String[] {body, delay.toString()});
    final NodePool pool = new NodePool("default", Map.of(), new NodePool.Template(null, null, null, null, null,
            new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()),
            new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                    List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of()))), null, null, null);
    final CloudProvider cloud = new CloudProvider() {
        public LaunchResult launch(LaunchRequest r) { throw new UnsupportedOperationException(); }
        public void terminate(List<String> ids) { }
        public List<CloudInstance> listInstances() { return List.of(); }
        public Optional<CloudInstance> describe(String id) { return Optional.empty(); }
    };
    final TerminationService terminations = new TerminationService(cluster, cluster, store, cloud, terminationQueue,
            Map.of("default", pool), clock);
    final InstanceType big = new InstanceType("big", Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
            new Resources(2000, 8 * GI, 100 * GI, 110, Map.of()), Resources.ZERO, List.of(Offering.of("us-east-1a", "on-demand", 0.10)));
    final ConsolidationService consolidation = new ConsolidationService(cluster, cluster, store, terminations,
            new QueueHints((b, g, d, delay) -> { }, new HintCodec(JSON), store, "demo"), terminationQueue,
            (view, at) -> List.of(new SchedulingInput.PoolOffer(pool, List.of(big), Resources.ZERO, 0)),
            (plan, name, at) -> { throw new AssertionError("a delete needs no replacement"); },
            ConsolidationSettings.DEFAULT, clock);
    final ByteArrayOutputStream metricsOut = new ByteArrayOutputStream();
    final EmbeddedMetrics metrics = new EmbeddedMetrics(JSON, "demo", new PrintStream(metricsOut));
    final SweepHandler sweep = new SweepHandler(new SweepService("demo", cluster, cluster, store, cloud, terminations,
            (reason, pod, node, at) -> { }, Map.of("default", pool), type -> Optional.of(InstanceFacts.NONE), clock)
            .withConsolidation(consolidation), metrics, clock);
    final TerminationQueueHandler handler = new TerminationQueueHandler(terminations, new TerminationCodec(JSON), metrics, clock)
            .withConsolidation(consolidation);

    void node(String name, long podCpu) {
        Instant at = now[0].minus(Duration.ofHours(1));
        store.create(NodeClaim.launching(name, "default", "h", List.of(), List.of("big"), List.of(), "big", "us-east-1a",
                "on-demand", 0.10, at).launched("i-" + name, "big", "us-east-1a", "on-demand", 0.10, at)
                .registered("node-" + name, at).initialized(at));
        Map<String, String> labels = new HashMap<>(Map.of(WellKnownLabels.NODEPOOL, "default", WellKnownLabels.INSTANCE_TYPE, "big",
                WellKnownLabels.ZONE, "us-east-1a", WellKnownLabels.CAPACITY_TYPE, "on-demand", WellKnownLabels.ARCH, "amd64",
                WellKnownLabels.OS, "linux", Node.INITIALIZED_LABEL, "true"));
        cluster.putNode(new Node("node-" + name, "aws:///us-east-1a/i-" + name, labels, Map.of(), List.of(), big.allocatable(),
                true, false, false, at, List.of(Node.FINALIZER), null));
        cluster.putPod(Pod.builder("default", "web-" + name).uid("u-" + name).nodeName("node-" + name).owner("ReplicaSet", "web")
                .requests(Resources.of(podCpu, GI)).status(new Pod.Status("Running", false, at, null, null)).build());
    }

    static SQSEvent event(String... bodies) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (int i = 0; i < bodies.length; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("m" + i);
            m.setBody(bodies[i]);
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    @Test
    void theSweepDecidesAndTheTerminationHandlerValidatesAndHandsTheNodeToTheTerminationFlow() {
        node("a", 500);
        node("b", 1000);

        Map<String, Object> r = sweep.handleRequest(Map.of(), null);

        assertThat(r).containsEntry("consolidationDecided", 1);
        assertThat(metricsOut.toString()).contains("\"ConsolidationDecisions\":1.0").contains("\"ConsolidationPlannedSavingsPerHourUsd\":0.1");
        String[] validation = termination.getLast();
        assertThat(validation[0]).startsWith("{\"consolidation\":\"c-").contains("\"claim\":\"a\"");
        assertThat(validation[1]).isEqualTo("PT15S");

        now[0] = now[0].plusSeconds(15);
        SQSBatchResponse validated = handler.handleRequest(event(validation[0]), null);
        SQSBatchResponse handed = handler.handleRequest(event(termination.getLast()[0]), null);

        assertThat(validated.getBatchItemFailures()).isEmpty();
        assertThat(handed.getBatchItemFailures()).isEmpty();
        assertThat(store.get("a", now[0]).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
        assertThat(termination.getLast()[0]).isEqualTo("{\"claim\":\"a\",\"step\":0}");
        assertThat(metricsOut.toString()).contains("\"ConsolidationCommandsExecuted\":1.0");
    }

    @Test
    void aMalformedConsolidationMessageFailsAloneAndATerminationHandlerWithoutConsolidationRejectsThem() {
        SQSBatchResponse r = handler.handleRequest(event("{\"consolidation\":\"c-1\",\"claim\":\"Not A Name\",\"step\":0}",
                "{\"consolidation\":\"c-1\",\"claim\":\"a\",\"step\":0}"), null);

        assertThat(r.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier).containsExactly("m0");
        TerminationQueueHandler plain = new TerminationQueueHandler(terminations, new TerminationCodec(JSON), metrics, clock);
        assertThat(plain.handleRequest(event("{\"consolidation\":\"c-1\",\"claim\":\"a\",\"step\":0}"), null).getBatchItemFailures())
                .hasSize(1);
    }

    @Test
    void theCodecRoundTripsAConsolidationStepAndTellsItFromASlice() {
        TerminationCodec codec = new TerminationCodec(JSON);
        var step = new dev.gantry.core.disruption.execution.ConsolidationRequest("a", "c-1x", 3);

        assertThat(codec.decodeConsolidation(codec.encode(step))).isEqualTo(step);
        assertThat(codec.decodeConsolidation(step.toJson())).isEqualTo(step);
        assertThat(codec.isConsolidation(step.toJson())).isTrue();
        assertThat(codec.isConsolidation("{\"claim\":\"a\",\"step\":0}")).isFalse();
        assertThat(codec.isConsolidation("not json")).isFalse();
    }
}
