package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Drift's candidate rules (core {@code pkg/controllers/disruption/drift.go}, {@code types.go}): oldest drifted first
 * with empty nodes before busy ones, pods that fit nowhere block only that candidate, and with a
 * {@code terminationGracePeriod} a pod's {@code do-not-disrupt} or a blocking PDB does not keep a drifted node
 * (Karpenter's EventualDisruptionClass) while the node's own annotation still does.
 */
class DriftReplacementTest {
    static final Instant NOW = LifecycleFixtures.T0;
    static final long GI = 1L << 30;
    static final InstanceType BIG = new InstanceType("big", Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
            new Resources(2000, 8 * GI, 100 * GI, 110, Map.of()), Resources.ZERO, List.of(Offering.of("us-east-1a", "on-demand", 0.1)));

    final List<ConsolidationInput.ClusterNode> nodes = new ArrayList<>();

    static NodePool pool(Optional<Duration> grace) {
        return LifecycleFixtures.poolWith("default", null, Optional.empty(), grace, Map.of());
    }

    void node(String name, Map<String, String> nodeAnnotations, Pod... pods) {
        Map<String, String> labels = new HashMap<>(Map.of(WellKnownLabels.NODEPOOL, "default", WellKnownLabels.INSTANCE_TYPE, "big",
                WellKnownLabels.ZONE, "us-east-1a", WellKnownLabels.CAPACITY_TYPE, "on-demand", WellKnownLabels.ARCH, "amd64",
                WellKnownLabels.OS, "linux", Node.INITIALIZED_LABEL, "true"));
        Node n = new Node("node-" + name, "aws:///us-east-1a/i-" + name, labels, nodeAnnotations, List.of(), BIG.allocatable(),
                true, false, false, NOW.minusSeconds(3600), List.of(), null);
        List<Pod> bound = new ArrayList<>();
        for (Pod p : pods) {
            bound.add(p.toBuilder().nodeName(n.name()).build());
        }
        nodes.add(new ConsolidationInput.ClusterNode(n, bound, name, NOW.minusSeconds(3600), false, null, false));
    }

    static Pod pod(String name, long cpu, Map<String, String> annotations) {
        return Pod.builder("default", name).owner("ReplicaSet", "web").labels(Map.of("app", "web")).annotations(annotations)
                .requests(Resources.of(cpu, GI)).status(new Pod.Status("Running", false, NOW, null, null)).build();
    }

    ConsolidationDecision decide(NodePool pool, List<PodDisruptionBudget> pdbs, String... drifted) {
        Resources usage = Resources.of(2000L * nodes.size(), 8 * GI * nodes.size());
        ConsolidationInput in = new ConsolidationInput(nodes, List.of(new SchedulingInput.PoolOffer(pool, List.of(BIG), usage, nodes.size())),
                List.of(), pdbs, Map.of(), ConsolidationSettings.DEFAULT, NOW);
        return DriftReplacement.decide(in, List.of(drifted));
    }

    @Test
    void anEmptyDriftedNodeGoesBeforeAnOlderBusyOne() {
        node("old", Map.of(), pod("p1", 1500, Map.of()));
        node("empty", Map.of());
        node("spare", Map.of());
        ConsolidationDecision d = decide(pool(Optional.empty()), List.of(), "old", "empty");
        assertThat(d.command()).hasValueSatisfying(c -> assertThat(c.nodes()).containsExactly("node-empty"));
    }

    @Test
    void aDoNotDisruptPodKeepsItsDriftedNodeUnlessThePoolHasATerminationGracePeriod() {
        node("a", Map.of(), pod("guarded", 1500, Map.of(Pod.DO_NOT_DISRUPT, "true")));
        node("b", Map.of());
        assertThat(decide(pool(Optional.empty()), List.of(), "a").command()).isEmpty();
        assertThat(decide(pool(Optional.of(Duration.ofHours(1))), List.of(), "a").command())
                .hasValueSatisfying(c -> assertThat(c.method()).isEqualTo(ConsolidationCommand.Method.DRIFT));
    }

    @Test
    void aBlockingPdbYieldsToTheTerminationGracePeriodButTheNodesOwnAnnotationDoesNot() {
        node("a", Map.of(), pod("web-1", 1500, Map.of()));
        node("b", Map.of());
        PodDisruptionBudget none = new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), null, "0", 0);
        assertThat(decide(pool(Optional.empty()), List.of(none), "a").command()).isEmpty();
        assertThat(decide(pool(Optional.of(Duration.ofHours(1))), List.of(none), "a").command()).isPresent();
        nodes.clear();
        node("a", Map.of(Pod.DO_NOT_DISRUPT, "true"), pod("web-1", 1500, Map.of()));
        node("b", Map.of());
        assertThat(decide(pool(Optional.of(Duration.ofHours(1))), List.of(), "a").command()).isEmpty();
    }

    @Test
    void aCandidateWhosePodsFitNowhereIsBlockedAndTheNextIsTried() {
        node("huge", Map.of(), pod("h", 1900, Map.of()));
        node("small", Map.of(), pod("s", 500, Map.of()));
        node("spare", Map.of(), pod("x", 1000, Map.of()));
        NodePool capped = new NodePool("default", Map.of(), pool(Optional.empty()).template(), null,
                Map.of("cpu", dev.gantry.core.model.Quantity.of(6)), null, null); // at its limit: no new node
        ConsolidationDecision d = decide(capped, List.of(), "huge", "small");
        assertThat(d.command()).as(d.verdicts().toString()).hasValueSatisfying(c -> assertThat(c.nodes()).containsExactly("node-small"));
        assertThat(d.verdict("node-huge")).hasValueSatisfying(v -> assertThat(v.reason()).contains("cannot be rescheduled"));
    }

    /** A buffer's chunk on the drifted node is re-placed with its pods: the replacement has room for it; not a pending pod. */
    @Test
    void aDriftedNodeHoldingABuffersChunkIsReplacedWithRoomForIt() {
        node("a", Map.of());
        node("b", Map.of(), pod("web-1", 1500, Map.of()));
        Pod chunk = Pod.builder("default", "warm-buffer-0").owner(dev.gantry.core.headroom.BufferPods.OWNER_KIND, "warm")
                .annotations(Map.of(dev.gantry.core.headroom.BufferPods.FAKE_POD, "true"))
                .requests(Resources.of(1500, GI)).status(new Pod.Status("Pending", true, NOW, null, null)).build();
        Resources usage = Resources.of(4000, 16 * GI);
        NodePool pool = pool(Optional.empty());
        ConsolidationInput in = new ConsolidationInput(nodes, List.of(new SchedulingInput.PoolOffer(pool, List.of(BIG), usage, 2)),
                List.of(), List.of(), Map.of(), ConsolidationSettings.DEFAULT, NOW, List.of(chunk), null, List.of());
        ConsolidationDecision d = DriftReplacement.decide(in, List.of("a"));
        assertThat(d.command()).as(d.verdicts().toString()).hasValueSatisfying(c -> {
            assertThat(c.nodes()).containsExactly("node-a");
            assertThat(c.replacements()).hasSize(1);
        });
        ConsolidationInput without = new ConsolidationInput(nodes, in.pools(), List.of(), List.of(), Map.of(),
                ConsolidationSettings.DEFAULT, NOW);
        assertThat(DriftReplacement.decide(without, List.of("a")).command())
                .hasValueSatisfying(c -> assertThat(c.replacements()).isEmpty());
        // A pending pod is the provisioner's, and a leaving node's pods have their own command's replacements: a
        // drifted node is not replaced with room for them.
        Pod pending = pod("pending-1", 1500, Map.of()).toBuilder().status(new Pod.Status("Pending", true, NOW, null, null)).build();
        ConsolidationInput withPending = new ConsolidationInput(nodes, in.pools(), List.of(), List.of(), Map.of(),
                ConsolidationSettings.DEFAULT, NOW, List.of(pending), null, List.of());
        assertThat(DriftReplacement.decide(withPending, List.of("a")).command())
                .hasValueSatisfying(c -> assertThat(c.replacements()).isEmpty());
    }
}
