package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.termination.TerminationStart;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TerminationServiceTest {
    static NodePool pool(Optional<Duration> grace) {
        return poolWith("default", null, Optional.empty(), grace, Map.of());
    }

    @Test
    void aPdbBlockedDrainResumesAcrossThreeInvocations() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        w.addNode("a", "default");
        w.cluster.putPod(pod("web-1", "node-a"));
        w.cluster.putPod(pod("web-2", "node-a"));
        w.cluster.putPdb(new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), null, "1", 1));

        TerminationService.Slice first = w.termination.start("a", TerminationStart.because("deleted")).orElseThrow();
        assertThat(first.evicted()).isEqualTo(1);
        assertThat(first.blockedByPdb()).isEqualTo(1); // the budget allowed one disruption, the second eviction got a 429
        Node tainted = w.cluster.node("node-a");
        assertThat(tainted.taints()).contains(Taint.DISRUPTED);
        assertThat(tainted.unschedulable()).isTrue();
        assertThat(tainted.labels()).containsEntry(TerminationDecision.EXCLUDE_FROM_LB, "true");

        TerminationService.Slice second = w.continueLast();
        assertThat(second.finished()).isFalse();
        assertThat(w.cluster.pod("default/web-2")).isNotNull();

        // The replacement of web-1 became ready elsewhere: the PDB allows a disruption again.
        w.cluster.putPdb(new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), null, "1", 1));
        TerminationService.Slice third = w.continueLast();
        assertThat(third.evicted()).isEqualTo(1);
        TerminationService.Slice fourth = w.continueLast();
        assertThat(fourth.finished()).isTrue();
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("node-a")).isNull();
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.claim("a").expiresAt()).isEqualTo(w.clock.instant().plus(Duration.ofHours(1)));
        assertThat(w.queue.sent).allSatisfy(s -> assertThat(s.body()).startsWith("{\"claim\":\"a\",\"step\":"));
    }

    @Test
    void doNotDisruptPodsHoldTheDrainUntilTheyLeave() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        w.addNode("a", "default");
        Pod keep = pod("keep", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        w.cluster.putPod(keep);
        w.termination.start("a", TerminationStart.because("deleted"));
        for (int i = 0; i < 5; i++) {
            assertThat(w.continueLast().finished()).isFalse();
        }
        assertThat(w.cluster.pod(keep.key())).isNotNull();
        w.cluster.removePod(keep.key()); // the job finished
        assertThat(w.continueLast().finished()).isTrue();
    }

    @Test
    void whenTheGracePeriodRunsOutRemainingPodsAreDeletedAndTheInstanceTerminated() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.of(Duration.ofMinutes(2))));
        w.addNode("a", "default");
        Pod keep = pod("keep", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build();
        w.cluster.putPod(keep);
        w.cluster.setVolumeAttachment("node-a", true);
        w.termination.start("a", TerminationStart.because("deleted"));
        int slices = 1;
        while (w.claim("a").state() != NodeClaimState.Terminated && slices < 50) {
            w.continueLast();
            slices++;
        }
        assertThat(w.claim("a").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.cluster.pod(keep.key())).isNull();
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.clock.instant()).isBetween(T0.plus(Duration.ofMinutes(1)), T0.plus(Duration.ofMinutes(3)));
    }

    @Test
    void kubectlDeleteNodeTerminatesTheInstance() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        w.addNode("a", "default");
        w.cluster.putPod(pod("web", "node-a"));
        w.cluster.deleteNodeAt("node-a", T0);
        Node deleted = w.cluster.node("node-a");
        assertThat(deleted.deletionTimestamp()).isEqualTo(T0);

        w.termination.startForDeletedNode(deleted);
        assertThat(w.claim("a").deletionReason()).isEqualTo("deleted");
        w.continueLast();
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("node-a")).isNull(); // finalizer removed, so the API server completed the deletion
    }

    @Test
    void aDeletedNodeWithoutAClaimIsReleased() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        w.cluster.putNode(dev.gantry.core.lifecycle.LifecycleFixtures.node("stray", "default"));
        w.cluster.deleteNodeAt("node-stray", T0);
        assertThat(w.termination.startForDeletedNode(w.cluster.node("node-stray"))).isEmpty();
        assertThat(w.cluster.node("node-stray")).isNull();
        assertThat(w.cloud.terminated).isEmpty();
    }

    @Test
    void startingTwiceKeepsTheFirstReasonAndStart() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        w.addNode("a", "default");
        w.cluster.putPod(pod("keep", "node-a").toBuilder().annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")).build());
        w.termination.start("a", TerminationStart.because("interruption"));
        w.clock.advance(Duration.ofSeconds(10));
        w.termination.start("a", TerminationStart.because("empty"));
        assertThat(w.claim("a").deletionReason()).isEqualTo("interruption");
        assertThat(w.claim("a").deletionRequestedAt()).isEqualTo(T0);
    }

    @Test
    void aSliceForAGoneOrTerminatedClaimDoesNothing() {
        LifecycleWorld w = new LifecycleWorld(pool(Optional.empty()));
        assertThat(w.termination.slice(new TerminationRequest("nobody", 3)).finished()).isTrue();
        assertThat(w.queue.sent).isEmpty();
    }
}
