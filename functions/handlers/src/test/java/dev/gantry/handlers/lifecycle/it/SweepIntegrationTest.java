package dev.gantry.handlers.lifecycle.it;

import static dev.gantry.handlers.lifecycle.it.Scene.CLAIM;
import static dev.gantry.handlers.lifecycle.it.Scene.NODE;
import static dev.gantry.handlers.lifecycle.it.Scene.NS;
import static dev.gantry.handlers.lifecycle.it.Scene.POD;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.Events;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sweep handler on the events/sweep sample against the EC2 stub, the mock API server, dynalite and ElasticMQ. */
class SweepIntegrationTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final LifecycleRig rig = new LifecycleRig();
    final Scene scene = new Scene(rig);

    Map<String, Object> sweep() throws Exception {
        Map<String, Object> scheduled = JSON.readValue(Events.load("sweep/scheduled-event.json"), new TypeReference<>() { });
        return rig.sweepHandler().handleRequest(scheduled, null);
    }

    private void pendingPod(String name) {
        rig.kube.pods().inNamespace(NS).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).withUid("uid-" + name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("nginx").withNewResources()
                .addToRequests("cpu", new Quantity("500m")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build()).create();
    }

    @Test
    void aLeakedInstanceIsTerminatedOnceOldEnoughAndNothingUntaggedIsTouched() throws Exception {
        Instant now = rig.clock.instant();
        String owned = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of()); // not empty, so emptiness leaves it alone
        String leaked = rig.launchedInstance("default-crashed", now.minus(Duration.ofMinutes(5)));
        String young = rig.launchedInstance("default-young", now.minusSeconds(10));
        String karpenters = rig.addInstance(Map.of("karpenter.sh/nodepool", "default", "karpenter.sh/nodeclaim", "default-abc"),
                now.minus(Duration.ofHours(2)));
        String otherCluster = rig.addInstance(Map.of("gantry.dev/cluster", "other-cluster", "gantry.dev/nodeclaim", "x"),
                now.minus(Duration.ofHours(2)));

        Map<String, Object> report = sweep();

        assertThat(report).containsEntry("leakedTerminated", 1);
        assertThat(rig.terminateRequests()).containsExactly(leaked);
        assertThat(rig.instanceState(leaked)).isEqualTo("terminated");
        // What the sweep terminates itself is counted, by reason (the dashboard's terminations-by-reason panel).
        assertThat(rig.metricsOut.toString()).contains("\"NodesTerminated\":1.0").contains("\"Reason\":\"gc\"");
        // The dashboard's $/hour panel: every live claim's price (here the one owned node's claim).
        assertThat(rig.metricsOut.toString()).contains("\"HourlyCostUsd\":" + rig.claim(CLAIM).orElseThrow().pricePerHour());
        // Each pool's own point, recomputed from the claims each sweep (never a running total, so never negative).
        var claim = rig.claim(CLAIM).orElseThrow();
        assertThat(rig.metricsOut.toString()).contains("\"NodePool\":\"" + claim.nodePool() + "\"")
                .contains("\"NodePoolCostPerHourUsd\":" + claim.pricePerHour());

        // 30 s later the young instance is old enough and still unclaimed; everything else stays as it was.
        rig.clock.advance(Duration.ofSeconds(30));
        assertThat(sweep()).containsEntry("leakedTerminated", 1);
        assertThat(sweep()).containsEntry("leakedTerminated", 0);
        assertThat(rig.terminateRequests()).containsExactly(leaked, young);
        for (String untouched : List.of(owned, karpenters, otherCluster)) {
            assertThat(rig.instanceState(untouched)).as(untouched).isEqualTo("running");
        }
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(rig.aws.requests("DescribeInstances")).allSatisfy(r ->
                assertThat(r.params()).containsEntry("Filter.1.Name", "tag:gantry.dev/cluster")
                        .containsEntry("Filter.1.Value.1", Ec2State.CLUSTER));
    }

    @Test
    void aClaimThatNeverRegistersIsFinishedAfterFifteenMinutesAndItsPodsHintedAgain() throws Exception {
        Instant launched = rig.clock.instant().minus(Duration.ofMinutes(14));
        String id = rig.launchedInstance(CLAIM, launched);
        rig.store.create(NodeClaim.launching(CLAIM, Scene.POOL, "hash", List.of(), List.of("m5.large"), List.of("default/web-0"),
                "m5.large", "us-east-1a", "spot", 0.035, launched).launched(id, "m5.large", "us-east-1a", "spot", 0.035, launched));
        pendingPod("web-0");
        rig.store.setMarker("last-hint", rig.clock.instant()); // the webhook hinted just now: no backstop yet

        assertThat(sweep()).containsEntry("claimsFinished", 0).containsEntry("backstopHint", false);
        assertThat(rig.terminateRequests()).isEmpty();

        rig.clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        Map<String, Object> report = sweep();

        assertThat(report).containsEntry("claimsFinished", 1).containsEntry("leakedTerminated", 0).containsEntry("backstopHint", true);
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(rig.instanceState(id)).isEqualTo("terminated");
        NodeClaim done = rig.claim(CLAIM).orElseThrow();
        assertThat(done.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(done.deletionReason()).isEqualTo("registration-timeout");
        assertThat(rig.sent.to(rig.provisioningQueue)).singleElement().satisfies(h ->
                assertThat(JSON.readTree(h.body()).get("reason").asText()).isEqualTo("backstop"));

        // The next sweep finds nothing left to do.
        assertThat(sweep()).containsEntry("claimsFinished", 0).containsEntry("leakedTerminated", 0);
        assertThat(rig.terminateRequests()).containsExactly(id);
    }

    @Test
    void aLaunchThatCrashedBeforeRecordingItsInstanceAdoptsItInsteadOfCollectingIt() throws Exception {
        Instant created = rig.clock.instant().minus(Duration.ofMinutes(6));
        // CreateFleet ran (the instance carries the claim's tag) but the claim was never moved past Launching.
        String id = rig.launchedInstance(CLAIM, created.plusSeconds(2));
        rig.store.create(NodeClaim.launching(CLAIM, Scene.POOL, "hash", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "spot", 0.035, created));

        assertThat(sweep()).containsEntry("claimsFinished", 0).containsEntry("leakedTerminated", 0);
        NodeClaim adopted = rig.claim(CLAIM).orElseThrow();
        assertThat(adopted.state()).isEqualTo(NodeClaimState.Launched);
        assertThat(adopted.instanceId()).isEqualTo(id);

        rig.clock.advance(Duration.ofMinutes(5));
        assertThat(sweep()).containsEntry("claimsFinished", 0).containsEntry("leakedTerminated", 0);
        assertThat(rig.terminateRequests()).isEmpty();
        assertThat(rig.instanceState(id)).isEqualTo("running");
    }

    @Test
    void aNodeThatAppearsIsRegisteredInitializedAndGivenGantrysFinalizer() throws Exception {
        Instant launched = rig.clock.instant().minus(Duration.ofMinutes(2));
        String id = rig.launchedInstance(CLAIM, launched);
        rig.store.create(NodeClaim.launching(CLAIM, Scene.POOL, "hash", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "spot", 0.035, launched).launched(id, "m5.large", "us-east-1a", "spot", 0.035, launched));
        scene.node(NODE, id, false);
        scene.pod(POD, NODE, Map.of());

        assertThat(sweep()).containsEntry("registered", 1).containsEntry("initialized", 1);

        NodeClaim c = rig.claim(CLAIM).orElseThrow();
        assertThat(c.state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(c.nodeName()).isEqualTo(NODE);
        var node = scene.getNode(NODE);
        assertThat(node.getMetadata().getFinalizers()).containsExactly(Node.FINALIZER);
        assertThat(node.getMetadata().getLabels()).containsEntry("gantry.dev/nodeclaim", CLAIM)
                .containsEntry("karpenter.sh/capacity-type", "spot");
        assertThat(sweep()).containsEntry("registered", 0).containsEntry("initialized", 0);
    }

    @Test
    void aNodeDeletedWithKubectlIsDrainedAndItsInstanceTerminated() throws Exception {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        rig.answerEviction(NS, POD, 201);
        rig.kube.nodes().withName(NODE).delete();
        assertThat(scene.getNode(NODE).getMetadata().getDeletionTimestamp()).as("held by Gantry's finalizer").isNotNull();

        assertThat(sweep()).containsEntry("deletedNodesStarted", 1);
        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        scene.evictionCompletes(POD);
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();

        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(scene.nodeExists(NODE)).as("gone once the finalizer is off").isFalse();
        NodeClaim done = rig.claim(CLAIM).orElseThrow();
        assertThat(done.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(done.deletionReason()).isEqualTo("deleted");
    }
}
