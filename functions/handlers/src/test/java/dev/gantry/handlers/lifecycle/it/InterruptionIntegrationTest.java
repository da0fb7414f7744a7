package dev.gantry.handlers.lifecycle.it;

import static dev.gantry.handlers.lifecycle.it.Scene.CLAIM;
import static dev.gantry.handlers.lifecycle.it.Scene.NODE;
import static dev.gantry.handlers.lifecycle.it.Scene.NS;
import static dev.gantry.handlers.lifecycle.it.Scene.POD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.termination.TerminationMarkers;
import dev.gantry.core.termination.TerminationService;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Taint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each events/interruption sample through the interruption handler and, where the flow continues, the termination
 * handler, against the mock API server, the EC2 stub, dynalite and ElasticMQ; then the same event delivered again,
 * which changes nothing.
 */
class InterruptionIntegrationTest {
    @RegisterExtension
    final LifecycleRig rig = new LifecycleRig();
    final Scene scene = new Scene(rig);
    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What a sample must do on first delivery. {@code waitsForReplacement}: its drain (a rebalance on a pool that
     * replaces) evicts nothing until a provisioning run has planned the node's pods.
     */
    record Expect(String sample, String kind, String hintReason, boolean marksOffering, String eventReason, boolean instanceGone,
                  boolean waitsForReplacement) {
        @Override
        public String toString() {
            return sample;
        }
    }

    static Stream<Expect> samples() {
        return Stream.of(
                new Expect("spot-interruption-warning", "SpotInterruption", "interruption", true, "SpotInterruption", false, false),
                new Expect("capacity-reservation-interruption", "CapacityReservationInterruption", "interruption", true,
                        "CapacityReservationInterruption", false, false),
                new Expect("state-change-stopping", "StateChange", "interruption", false, "InstanceStateChange", false, false),
                new Expect("state-change-terminated", "StateChange", "interruption", false, "InstanceStateChange", true, false),
                new Expect("health-scheduled-change", "ScheduledChange", "replacement", false, "ScheduledChange", false, false));
    }

    /** Everything a delivery could change, read back from the emulators. */
    record World(NodeClaim claim, int messagesSent, List<String> ec2Writes, List<String> kubeWrites, Set<OfferingKey> unavailable) {
    }

    World world() {
        return new World(rig.claim(CLAIM).orElseThrow(), rig.sent.all().size(),
                rig.aws.requests().stream().map(r -> r.action()).filter(a -> !a.startsWith("Describe")).toList(),
                rig.kubeWrites(), rig.store.unavailableOfferings(rig.clock.instant()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachSampleRunsTheFlowToTheEndAndItsReplaysChangeNothing(Expect x) throws Exception {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);
        if (x.instanceGone()) {
            rig.aws.ec2().setInstanceState(id, "terminated");
        }
        SQSEvent event = InterruptionSamples.load(x.sample(), id);

        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();

        assertThat(rig.metricsOut.toString()).contains("\"Kind\":\"" + x.kind() + "\"", "\"InterruptionEvents\":1.0");
        assertThat(rig.sent.to(rig.provisioningQueue)).singleElement().satisfies(hint -> {
            JsonNode body = JSON.readTree(hint.body());
            assertThat(body.get("reason").asText()).isEqualTo(x.hintReason());
            assertThat(body.get("namespace").asText() + "/" + body.get("name").asText()).isEqualTo(NS + "/" + POD);
            assertThat(hint.groupId()).isEqualTo(rig.clusterPartition);
        });
        assertThat(rig.store.unavailableOfferings(rig.clock.instant()))
                .isEqualTo(x.marksOffering() ? Set.of(new OfferingKey("m5.large", "us-east-1a", "spot")) : Set.of());
        assertThat(rig.kube.v1().events().inAnyNamespace().list().getItems()).extracting(Event::getReason).contains(x.eventReason());
        if (x.instanceGone()) {
            // Already gone: no drain; the pod is deleted outright and the flow finishes in the same invocation.
            assertThat(rig.evictionRequests()).isEmpty();
            assertThat(rig.kubeWrites()).contains("DELETE /api/v1/namespaces/default/pods/" + POD);
        } else if (x.waitsForReplacement()) {
            // Issue #21: the pod is evicted only once a provisioning run (the hint's) has planned it.
            assertThat(rig.evictionRequests()).isEmpty();
            assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
            assertThat(rig.sent.to(rig.terminationQueue)).singleElement()
                    .satisfies(m -> assertThat(m.body()).isEqualTo("{\"claim\":\"" + CLAIM + "\",\"step\":1}"));
            assertThat(rig.terminateRequests()).isEmpty();
        } else {
            assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
            assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
            var node = scene.getNode(NODE);
            assertThat(node.getSpec().getUnschedulable()).isTrue();
            assertThat(node.getSpec().getTaints()).extracting(Taint::getKey, Taint::getEffect)
                    .contains(tuple("karpenter.sh/disrupted", "NoSchedule"));
            assertThat(node.getMetadata().getLabels()).containsEntry("node.kubernetes.io/exclude-from-external-load-balancers", "true");
            assertThat(rig.sent.to(rig.terminationQueue)).singleElement().satisfies(m -> {
                assertThat(m.body()).isEqualTo("{\"claim\":\"" + CLAIM + "\",\"step\":1}");
                assertThat(m.delay()).isEqualTo(Duration.ofSeconds(5));
            });
            assertThat(rig.terminateRequests()).isEmpty();
        }

        World afterFirst = world();
        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();
        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();
        assertThat(world()).isEqualTo(afterFirst);

        if (x.waitsForReplacement()) {
            // The run the hint brings finds room for the pod on nodes that stay (no claim recorded for it), and says so.
            rig.clock.advance(Duration.ofSeconds(1));
            rig.store.setMarker(TerminationMarkers.REPLACEMENTS_PLANNED, rig.clock.instant());
            assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
            assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        }
        if (!x.instanceGone()) {
            scene.evictionCompletes(POD);
            assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        } else {
            // The first slice finished the flow; its safety-net message comes back and finds nothing to do.
            World done = world();
            assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
            assertThat(world()).isEqualTo(done);
        }
        NodeClaim done = rig.claim(CLAIM).orElseThrow();
        assertThat(done.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(done.expiresAt()).isEqualTo(done.terminatedAt().plus(TerminationService.RETENTION));
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(rig.instanceState(id)).isEqualTo("terminated");
        assertThat(scene.nodeExists(NODE)).isFalse();
        assertThat(rig.metricsOut.toString()).contains("\"NodesTerminated\":1.0");

        // A late duplicate, after the flow finished, is ignored too.
        World finished = world();
        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();
        assertThat(world()).isEqualTo(finished);
        assertThat(rig.peek(rig.terminationQueue)).isEmpty();
    }

    @Test
    void measuresASpotWarningFromMessageToEvictionAgainstTheEmulators() {
        String warm = scene.ownedNode("default-warm1", "ip-10-0-0-9.ec2.internal");
        scene.pod("warm-0", "ip-10-0-0-9.ec2.internal", Map.of());
        rig.answerEviction(NS, "warm-0", 201);
        rig.deliver(InterruptionSamples.load("spot-interruption-warning", warm)); // JIT and connection warm-up
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);

        long t = System.nanoTime();
        assertThat(rig.deliver(InterruptionSamples.load("spot-interruption-warning", id)).getBatchItemFailures()).isEmpty();
        double ms = (System.nanoTime() - t) / 1e6;

        assertThat(rig.evictionRequests()).containsExactly(NS + "/warm-0", NS + "/" + POD);
        System.out.printf("MEASURE interruption handler, spot warning to eviction sent and slice queued (mock API server, "
                + "EC2 stub, dynalite, ElasticMQ; warm JVM): %.1f ms%n", ms);
    }

    /** Regression: only the termination handler counted NodesTerminated, so flows finished in the first slice went uncounted. */
    @Test
    void nodesTerminatedIsCountedWhenTheInterruptionFinishesTheFlowInItsFirstSlice() {
        String id = scene.ownedNode(CLAIM, NODE); // no pods: nothing to drain

        assertThat(rig.deliver(InterruptionSamples.load("spot-interruption-warning", id)).getBatchItemFailures()).isEmpty();

        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(rig.terminateRequests()).containsExactly(id);
        // Only the safety-net message, sent before the slice acted; it finds the flow finished and counts nothing.
        assertThat(rig.sent.to(rig.terminationQueue)).extracting(SentMessages.Sent::body)
                .containsExactly("{\"claim\":\"" + CLAIM + "\",\"step\":1}");
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.metricsOut.toString().split("\"NodesTerminated\":1.0", -1)).hasSize(2);
        // The dashboard graphs terminations by this dimension; without it the panel stayed empty.
        assertThat(rig.metricsOut.toString()).contains("\"Reason\":\"interruption\"");
    }

    /**
     * Gantry's own (aws/karpenter-provider-aws#2813): on a pool that opts in, the handler only labels the spot node and
     * keeps its offering from the provisioner; the sweep's rebalance command replaces it (RebalanceCommandsTest in
     * core). Replays change nothing, not even a second Event.
     */
    @Test
    void aRebalanceRecommendationOnAnOptedInPoolLabelsTheNodeAndDrainsNothing() {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        SQSEvent event = InterruptionSamples.load("rebalance-recommendation", id);

        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();

        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(scene.getNode(NODE).getMetadata().getLabels()).containsEntry("gantry.dev/rebalance-recommended", "true");
        assertThat(rig.store.unavailableOfferings(rig.clock.instant())).containsExactly(new OfferingKey("m5.large", "us-east-1a", "spot"));
        assertThat(rig.evictionRequests()).isEmpty();
        assertThat(rig.sent.all()).isEmpty();
        World afterFirst = world();
        assertThat(rig.deliver(event).getBatchItemFailures()).isEmpty();
        assertThat(world()).isEqualTo(afterFirst);
        assertThat(rig.kube.v1().events().inAnyNamespace().list().getItems()).extracting(Event::getReason)
                .containsExactly("RebalanceRecommendation");
    }

    @Test
    void aRebalanceRecommendationWithoutTheReplaceAnnotationOnlyRecordsAnEvent() {
        rig.pools.put(Scene.POOL, Scene.pool(Map.of(), null));
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());

        assertThat(rig.deliver(InterruptionSamples.load("rebalance-recommendation", id)).getBatchItemFailures()).isEmpty();

        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(rig.kube.v1().events().inAnyNamespace().list().getItems()).extracting(Event::getReason, Event::getType)
                .containsExactly(tuple("RebalanceRecommendation", "Normal"));
        assertThat(rig.evictionRequests()).isEmpty();
        assertThat(rig.sent.all()).isEmpty();
        assertThat(scene.getNode(NODE).getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void anEventForAnInstanceGantryDoesNotOwnIsAcknowledgedAndTouchesNothing() {
        String foreign = rig.addInstance(Map.of("karpenter.sh/nodepool", "theirs"), LifecycleRig.START.minusSeconds(600));

        SQSBatchResponse r = rig.deliver(InterruptionSamples.load("spot-interruption-warning", foreign));

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(rig.sent.all()).isEmpty();
        assertThat(rig.kubeWrites()).isEmpty();
        assertThat(rig.terminateRequests()).isEmpty();
        assertThat(rig.store.unavailableOfferings(rig.clock.instant())).isEmpty();
    }

    @Test
    void aMalformedRecordFailsAloneWhileTheGoodOneStartsTheDrain() {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);

        SQSBatchResponse r = rig.deliver(InterruptionSamples.load("malformed-batch", id));

        assertThat(r.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("0f5e3c2a-8b1d-4c6e-9f0a-000000000012");
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);
        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
    }
}
