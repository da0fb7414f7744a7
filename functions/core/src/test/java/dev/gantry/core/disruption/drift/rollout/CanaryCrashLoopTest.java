package dev.gantry.core.disruption.drift.rollout;

import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NEW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NOW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.TARGET;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.canary;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.node;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.old;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.disruption.drift.rollout.AmiRollout.Phase;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: a canary whose pods crash-loop fails the wave ({@link CanaryPods}; Karpenter v1.14 has no canary and
 * judges no pod's health when it drifts: {@code pkg/controllers/disruption/drift.go}).
 */
class CanaryCrashLoopTest {
    final List<NodeClaim> claims = new ArrayList<>();
    final Map<String, Node> nodes = new HashMap<>();
    final List<Pod> pods = new ArrayList<>();

    void add(NodeClaim c) {
        claims.add(c);
        nodes.put(c.nodeName(), node(c.name(), true));
    }

    static Pod pod(String name, String node, String ownerKind, String owner, int restarts, boolean backOff) {
        return Pod.builder("default", name).nodeName(node).owner(ownerKind, owner)
                .status(new Pod.Status("Running", false, NOW.minusSeconds(600), null, null, NOW.minusSeconds(600), restarts == 0)
                        .withRestarts(restarts, backOff)).build();
    }

    /** Five old nodes and one canary, initialized {@code initializedAgo} ago (the soak is 15 min). */
    void rollout(Duration initializedAgo) {
        for (int i = 0; i < 5; i++) {
            add(old("o" + i));
            pods.add(pod("web-o" + i, "node-o" + i, "ReplicaSet", "web-1", 0, false));
        }
        add(canary("c", initializedAgo.plusMinutes(2), initializedAgo));
    }

    AmiRollout decide() {
        return AmiRollout.decide("default", RolloutPolicy.DEFAULT, TARGET, claims, nodes, AmiRollout.Images.RECORDED,
                CanaryPods.of(pods), Optional.empty(), null, null, NOW);
    }

    @Test
    @DisplayName("Gantry's own: a pod that restarts 3 times on a soaking canary pauses the rollout and names the pod")
    void aCanaryWhosePodRestartsThreeTimesDuringTheSoakPausesTheRollout() {
        rollout(Duration.ofMinutes(5));
        pods.add(pod("web-c", "node-c", "ReplicaSet", "web-1", 3, false));
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.PAUSED);
        assertThat(r.failed()).isTrue();
        assertThat(r.why()).contains("pod default/web-c on node/node-c crash-loops (3 restarts)");
        assertThat(r.held()).containsEntry("amd64", RolloutFixtures.OLD);
    }

    @Test
    @DisplayName("Gantry's own: a canary whose pods crash-loop never soaks, however long it has been Ready")
    void aCrashLoopingCanaryNeverSoaks() {
        rollout(Duration.ofHours(1));
        pods.add(pod("web-c", "node-c", "ReplicaSet", "web-1", 7, true));
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.PAUSED);
        assertThat(r.why()).contains("7 restarts, in CrashLoopBackOff");
    }

    @Test
    @DisplayName("Gantry's own: CrashLoopBackOff counts from the second restart; one restart in back-off is not a loop")
    void crashLoopBackOffCountsFromTheSecondRestart() {
        rollout(Duration.ofMinutes(5));
        pods.add(pod("web-c", "node-c", "ReplicaSet", "web-1", 1, true));
        assertThat(decide().phase()).isEqualTo(Phase.SOAK);
        pods.set(pods.size() - 1, pod("web-c", "node-c", "ReplicaSet", "web-1", 2, true));
        assertThat(decide().phase()).isEqualTo(Phase.PAUSED);
        pods.set(pods.size() - 1, pod("web-c", "node-c", "ReplicaSet", "web-1", 2, false));
        assertThat(decide().phase()).as("two restarts, running again").isEqualTo(Phase.SOAK);
    }

    @Test
    @DisplayName("Gantry's own: a healthy canary soaks and the rest rolls; restarts on old nodes do not matter")
    void aCanaryWithoutRestartsSoaks() {
        rollout(Duration.ofMinutes(16));
        pods.add(pod("web-c", "node-c", "ReplicaSet", "web-1", 0, false));
        pods.add(pod("batch-o1", "node-o1", "ReplicaSet", "batch-1", 9, true));
        assertThat(decide().phase()).isEqualTo(Phase.GO);
    }

    @Test
    @DisplayName("Gantry's own: a workload that crash-loops on the old image too is not the image's fault")
    void aWorkloadCrashLoopingOnOldNodesTooIsExcused() {
        rollout(Duration.ofMinutes(16));
        pods.add(pod("broken-c", "node-c", "ReplicaSet", "broken-1", 5, true));
        pods.add(pod("broken-o2", "node-o2", "ReplicaSet", "broken-1", 40, true));
        assertThat(decide().phase()).isEqualTo(Phase.GO);
    }

    @Test
    @DisplayName("Gantry's own: a DaemonSet pod that crash-loops only on the new image fails the canary")
    void aDaemonSetPodCrashLoopingOnlyOnTheCanaryFailsIt() {
        rollout(Duration.ofMinutes(5));
        pods.add(pod("aws-node-o0", "node-o0", "DaemonSet", "aws-node", 0, false));
        pods.add(pod("aws-node-c", "node-c", "DaemonSet", "aws-node", 4, true));
        assertThat(decide().phase()).isEqualTo(Phase.PAUSED);
    }

    @Test
    @DisplayName("Gantry's own: terminal pods, whatever their restarts, are not judged")
    void terminalPodsAreNotJudged() {
        Pod done = Pod.builder("batch", "job-1").nodeName("node-c").owner("Job", "job")
                .status(new Pod.Status("Failed", false, NOW, null, null).withRestarts(6, false)).build();
        assertThat(CanaryPods.crashLooping(done)).isFalse();
        assertThat(CanaryPods.of(List.of(done)).crashLoop("node-c", Set.of("node-c"))).isEmpty();
    }

    @Test
    @DisplayName("Gantry's own: the sweep's gate judges the pods of its own read, pauses once, and a second delivery adds nothing")
    void theSweepsGateJudgesThePodsItReadAndPausesOnce() {
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        InMemoryCluster cluster = new InMemoryCluster();
        List<AmiRollout> paused = new ArrayList<>();
        GantryConfig cfg = new GantryConfig(List.of(DriftHashesTest.POOL), List.of(RolloutFixtures.nodeClass(Map.of())),
                "us-east-1", List.of());
        AmiRollouts.Wired wired = AmiRollouts.over(now -> new ClusterConfig(cfg, null, null, "v1"), store,
                nc -> Optional.of(new dev.gantry.core.cloud.NodeClassResolution.Selected(Map.of("amd64", NEW), Set.of("s"), Set.of("g"))),
                cluster, cluster, Clock.fixed(NOW, ZoneOffset.UTC), paused::add);
        rollout(Duration.ofMinutes(5));
        claims.forEach(store::create);
        pods.add(pod("web-c", "node-c", "ReplicaSet", "web-1", 3, false));
        ClusterView view = new ClusterView(pods, List.copyOf(nodes.values()), List.of(), Map.of());
        wired.config().current(NOW);
        assertThat(wired.rollouts().admits(store.list(NOW), view, NOW).test(old("o1"))).isFalse();
        assertThat(wired.rollouts().admits(store.list(NOW), view, NOW).test(old("o1"))).isFalse();
        assertThat(paused).hasSize(1);
        assertThat(cluster.events()).singleElement().asString().contains("DriftRolloutPaused").contains("crash-loops");
    }
}
