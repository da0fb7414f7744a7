package dev.gantry.handlers.lifecycle.it;

import static dev.gantry.handlers.lifecycle.it.Scene.CLAIM;
import static dev.gantry.handlers.lifecycle.it.Scene.NODE;
import static dev.gantry.handlers.lifecycle.it.Scene.NS;
import static dev.gantry.handlers.lifecycle.it.Scene.POD;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.termination.TerminationMarkers;
import dev.gantry.core.termination.TerminationStart;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The resumable drain across invocations: each slice re-enqueues itself on the ElasticMQ termination queue with a
 * delay, the test receives the message back (moving the clock by the delay) and invokes the termination handler.
 */
class DrainIntegrationTest {
    static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

    @RegisterExtension
    final LifecycleRig rig = new LifecycleRig();
    final Scene scene = new Scene(rig);

    private String stoppingNode() {
        String id = scene.ownedNode(CLAIM, NODE);
        scene.pod(POD, NODE, Map.of());
        return id;
    }

    @Test
    void aPdbBlockedDrainResumesAcrossThreeInvocations() {
        String id = stoppingNode();
        scene.pdb("web", 1);
        rig.answerEviction(NS, POD, 429);
        rig.answerEviction(NS, POD, 429);
        rig.answerEviction(NS, POD, 201);

        // The stopping instance starts the flow; the API server refuses the eviction (another eviction used the budget).
        assertThat(rig.deliver(InterruptionSamples.load("state-change-stopping", id)).getBatchItemFailures()).isEmpty();
        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);

        // 1: still refused; the flow waits and comes back.
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.evictionRequests()).hasSize(2);
        assertThat(scene.podExists(POD)).isTrue();
        assertThat(scene.nodeExists(NODE)).isTrue();
        assertThat(rig.terminateRequests()).isEmpty();

        // 2: the budget allows it now; the API server evicts the pod.
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.evictionRequests()).hasSize(3);
        scene.evictionCompletes(POD);
        assertThat(rig.terminateRequests()).isEmpty();

        // 3: nothing left to wait for: the instance goes, then the Node, then the claim.
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(rig.instanceState(id)).isEqualTo("terminated");
        assertThat(scene.nodeExists(NODE)).isFalse();
        // The mock server honours finalizers: the Node is gone only because the finalizer came off after the delete.
        assertThat(rig.kubeWrites()).containsSubsequence("DELETE /api/v1/nodes/" + NODE, "PATCH /api/v1/nodes/" + NODE);
        NodeClaim done = rig.claim(CLAIM).orElseThrow();
        assertThat(done.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(done.deletionReason()).isEqualTo("instance-stopping");
        assertThat(done.deletionRequestedAt()).isEqualTo(LifecycleRig.START);
        assertThat(rig.sent.to(rig.terminationQueue)).extracting(SentMessages.Sent::body).containsExactly(
                "{\"claim\":\"default-x7k2p\",\"step\":1}", "{\"claim\":\"default-x7k2p\",\"step\":2}",
                "{\"claim\":\"default-x7k2p\",\"step\":3}");
        assertThat(rig.peek(rig.terminationQueue)).isEmpty();
    }

    /**
     * Expiry's drain (issue #21), started by the sweep with its replacement awaited: the termination function evicts
     * nothing until a provisioning run has planned the node's pods, then reads the table (a Query) for a claim still
     * launching for them; none, so it evicts. This is the termination function's own use of {@code dynamodb:Query},
     * which the IAM contract checks against these recordings (the rebalance drain used to exercise it).
     */
    @Test
    void anExpiryDrainAwaitsItsReplacementBeforeEvicting() {
        String id = stoppingNode();
        rig.answerEviction(NS, POD, 201);

        assertThat(rig.terminationService("sweep").start(CLAIM, TerminationStart.because("expired")
                .with(TerminationStart.Replacement.AWAITED))).isPresent();
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.evictionRequests()).isEmpty();
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Draining);

        rig.clock.advance(Duration.ofSeconds(1));
        rig.store.setMarker(TerminationMarkers.REPLACEMENTS_PLANNED, rig.clock.instant());
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        assertThat(rig.iamCalls()).anySatisfy(c -> assertThat(c.toString()).contains("termination").contains("dynamodb:Query"));

        scene.evictionCompletes(POD);
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
    }

    @Test
    void aDoNotDisruptPodIsNeverEvictedAndHoldsTheNodeUntilItLeaves() {
        String id = stoppingNode();
        scene.pod("batch-0", NODE, Map.of(DO_NOT_DISRUPT, "true"));
        rig.answerEviction(NS, POD, 201);

        assertThat(rig.deliver(InterruptionSamples.load("state-change-stopping", id)).getBatchItemFailures()).isEmpty();
        scene.evictionCompletes(POD);
        for (int i = 0; i < 3; i++) {
            assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        }

        assertThat(rig.evictionRequests()).containsExactly(NS + "/" + POD);
        assertThat(scene.podExists("batch-0")).isTrue();
        assertThat(scene.nodeExists(NODE)).isTrue();
        assertThat(rig.terminateRequests()).isEmpty();
        assertThat(rig.sent.to(rig.terminationQueue).getLast().delay()).isEqualTo(Duration.ofSeconds(15));

        // The job finishes on its own; the next slice lets the node go.
        rig.kube.pods().inNamespace(NS).withName("batch-0").delete();
        assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(scene.nodeExists(NODE)).isFalse();
        assertThat(rig.claim(CLAIM).orElseThrow().state()).isEqualTo(NodeClaimState.Terminated);
    }

    @Test
    void aGracePeriodRunningOutDeletesThePodsThatBlockedTheDrain() {
        rig.pools.put(Scene.POOL, Scene.pool(Map.of(), Duration.ofMinutes(2)));
        String id = stoppingNode();
        scene.pod("batch-0", NODE, Map.of(DO_NOT_DISRUPT, "true"));
        scene.pdb("web", 0);

        assertThat(rig.deliver(InterruptionSamples.load("state-change-stopping", id)).getBatchItemFailures()).isEmpty();
        int invocations = 1;
        while (rig.claim(CLAIM).orElseThrow().state() != NodeClaimState.Terminated) {
            assertThat(invocations).as("invocations before the grace period ran out").isLessThan(20);
            assertThat(rig.continueTermination().getBatchItemFailures()).isEmpty();
            invocations++;
        }

        // Neither pod was evicted: the PDB allowed none and the other may not be disrupted. At the end of the grace
        // period, less each pod's own 30 s, both were deleted outright and the node let go.
        assertThat(rig.evictionRequests()).isEmpty();
        assertThat(rig.kubeWrites()).contains("DELETE /api/v1/namespaces/default/pods/" + POD,
                "DELETE /api/v1/namespaces/default/pods/batch-0");
        assertThat(scene.podExists(POD)).isFalse();
        assertThat(rig.terminateRequests()).containsExactly(id);
        assertThat(scene.nodeExists(NODE)).isFalse();
        assertThat(rig.clock.instant()).isBetween(LifecycleRig.START.plusSeconds(90), LifecycleRig.START.plusSeconds(120));
        System.out.printf("grace period: %d invocations, finished at +%ds%n", invocations,
                Duration.between(LifecycleRig.START, rig.clock.instant()).toSeconds());
    }
}
