package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.claim;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/suite_test.go}, Describe "Candidate
 * Filtering" (and the disruption-cost and budget-count Its before it). Each test names its Ginkgo It.
 * Consolidation is Karpenter's graceful disruption class, so its terminationGracePeriod exemptions never apply here.
 */
class KarpenterCandidateFilteringTest {
    private static final Map<String, String> DND = Map.of(Pod.DO_NOT_DISRUPT, "true");

    /** One xlarge node "n" with one 500m pod, shaped by {@code podEdit} (its status is set on binding: edit it after). */
    private static TestCluster oneNode(java.util.function.UnaryOperator<Pod.Builder> podEdit) {
        TestCluster c = TestCluster.standard();
        c.node("n", "xlarge", podEdit.apply(c.pod(500)));
        return c;
    }

    private static Candidates candidates(TestCluster c) {
        ConsolidationInput in = c.input();
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        return Candidates.of(in, pools, true);
    }

    private static boolean isCandidate(TestCluster c, String node) {
        return candidates(c).all.stream().anyMatch(x -> x.name().equals(node));
    }

    private static String blockedWhy(TestCluster c, String node) {
        return candidates(c).verdicts.stream().filter(v -> v.node().equals(node)).findFirst().map(Verdict::reason).orElse(null);
    }

    private static PodDisruptionBudget blockingPdb(String name) {
        return new PodDisruptionBudget("default", name, LabelSelector.of(Map.of("app", "web")), null, "0", 0);
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have do-not-disrupt pods scheduled and no terminationGracePeriod")
    void aPodWithDoNotDisruptKeepsItsNodeOutOfTheCandidates() {
        TestCluster c = oneNode(p -> p.annotations(DND));
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).contains("has \"karpenter.sh/do-not-disrupt\" annotation");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have do-not-disrupt mirror pods scheduled")
    void aMirrorPodWithDoNotDisruptBlocksItsNode() {
        TestCluster c = oneNode(p -> p.annotations(DND).owner("Node", "n"));
        assertThat(isCandidate(c, "n")).isFalse();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have do-not-disrupt daemonset pods scheduled")
    void aDaemonSetPodWithDoNotDisruptBlocksItsNode() {
        TestCluster c = oneNode(p -> p.annotations(DND).owner("DaemonSet", "agent"));
        assertThat(isCandidate(c, "n")).isFalse();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have do-not-disrupt pods scheduled with a terminationGracePeriod set for graceful disruption")
    void aTerminationGracePeriodDoesNotLetConsolidationPastDoNotDisrupt() {
        TestCluster c = oneNode(p -> p.annotations(DND));
        withGracePeriod(c);
        assertThat(isCandidate(c, "n")).isFalse();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have PDB-blocked pods scheduled with a terminationGracePeriod set for graceful disruption")
    void aTerminationGracePeriodDoesNotLetConsolidationPastABlockingPdb() {
        TestCluster c = oneNode(p -> p);
        c.pdbs.add(blockingPdb("web"));
        withGracePeriod(c);
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("pdb \"default/web\" prevents pod evictions");
    }

    private static void withGracePeriod(TestCluster c) {
        NodePool p = c.pools.get("default");
        NodePool.Template t = p.template();
        c.pools.put("default", new NodePool(p.name(), p.annotations(), new NodePool.Template(t.labels(), t.annotations(),
                t.taints(), t.startupTaints(), t.requirements(), t.nodeClassRef(), t.expireAfter(), Optional.of(Duration.ofMinutes(5))),
                p.disruption(), p.limits(), p.weight(), null));
    }

    @Test
    @DisplayName("suite_test.go: should consider candidates that have do-not-disrupt terminating pods")
    void aTerminatingPodsDoNotDisruptNoLongerBlocks() {
        TestCluster c = oneNode(p -> p.annotations(DND));
        pod(c, "n", 0, p -> p.status(SuiteFixtures.terminating(TestCluster.NOW.minusSeconds(10))));
        assertThat(isCandidate(c, "n")).as(blockedWhy(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should consider candidates that have do-not-disrupt terminal pods")
    void aFinishedPodsDoNotDisruptDoesNotBlock() {
        TestCluster c = oneNode(p -> p.annotations(DND));
        pod(c, "n", 0, p -> p.status(SuiteFixtures.finished()));
        assertThat(isCandidate(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have do-not-disrupt on nodes")
    void doNotDisruptOnTheNodeBlocksIt() {
        TestCluster c = TestCluster.standard();
        c.node(c.nodeOf("n", "xlarge", "on-demand", DND), c.pod(500));
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
    }

    @Test
    @DisplayName("karpenter.sh docs, disruption controls: karpenter.sh/do-not-disrupt in the NodePool's template annotations protects every node of the pool")
    void doNotDisruptInThePoolTemplateBlocksItsNodes() {
        TestCluster c = TestCluster.standard();
        c.node("n", "2xlarge", c.pod(500)).node("e", "2xlarge");
        NodePool p = c.pools.get("default");
        NodePool.Template t = p.template();
        c.pools.put("default", new NodePool(p.name(), p.annotations(), new NodePool.Template(t.labels(), DND, t.taints(),
                t.startupTaints(), t.requirements(), t.nodeClassRef(), t.expireAfter(), t.terminationGracePeriod()),
                p.disruption(), p.limits(), p.weight(), null));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("e").orElseThrow().reason()).isEqualTo("disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
    }

    @Test
    @DisplayName("emptiness_test.go: should delete nodes with the karpenter.sh/do-not-disrupt annotation set to false")
    void doNotDisruptFalseOnTheNodeDoesNotBlock() {
        TestCluster c = TestCluster.standard();
        c.node(c.nodeOf("n", "xlarge", "on-demand", Map.of(Pod.DO_NOT_DISRUPT, "false")));
        assertThat(SuiteFixtures.nodes(c.decide())).containsExactly("n");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have multiple PDBs on the same pod")
    void aPodCoveredByTwoPdbsBlocksItsNode() {
        TestCluster c = oneNode(p -> p);
        c.pdbs.add(new PodDisruptionBudget("default", "a", LabelSelector.of(Map.of("app", "web")), null, "5", 5));
        c.pdbs.add(new PodDisruptionBudget("default", "b", LabelSelector.EVERYTHING, null, "5", 5));
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).contains("has multiple PDBs");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have fully blocking PDBs")
    void aFullyBlockingPdbBlocksItsNode() {
        TestCluster c = oneNode(p -> p);
        c.pdbs.add(blockingPdb("web"));
        assertThat(isCandidate(c, "n")).isFalse();
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace nodes, PDB namespace must match")
    void aPdbInAnotherNamespaceDoesNotBlock() {
        TestCluster c = oneNode(p -> p);
        c.pdbs.add(new PodDisruptionBudget("other", "web", LabelSelector.of(Map.of("app", "web")), null, "0", 0));
        assertThat(isCandidate(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that have fully blocking PDBs on daemonset pods")
    void aFullyBlockingPdbOnADaemonSetPodBlocksItsNode() {
        TestCluster c = oneNode(p -> p.owner("DaemonSet", "agent"));
        c.pdbs.add(blockingPdb("agent"));
        assertThat(isCandidate(c, "n")).isFalse();
    }

    @Test
    @DisplayName("suite_test.go: should consider candidates that have fully blocking PDBs on mirror pods")
    void aFullyBlockingPdbOnAMirrorPodDoesNotBlock() {
        TestCluster c = oneNode(p -> p.owner("Node", "n"));
        c.pdbs.add(blockingPdb("static"));
        assertThat(isCandidate(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should consider candidates that have fully blocking PDBs on terminal pods")
    void aFullyBlockingPdbOnAFinishedPodDoesNotBlock() {
        TestCluster c = oneNode(p -> p);
        pod(c, "n", 0, p -> p.status(SuiteFixtures.finished()));
        c.pdbs.add(blockingPdb("web"));
        assertThat(isCandidate(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should consider candidates that have fully blocking PDBs on terminating pods")
    void aFullyBlockingPdbOnATerminatingPodDoesNotBlock() {
        TestCluster c = oneNode(p -> p);
        pod(c, "n", 0, p -> p.status(SuiteFixtures.terminating(TestCluster.NOW.minusSeconds(10))));
        c.pdbs.add(blockingPdb("web"));
        assertThat(isCandidate(c, "n")).as(blockedWhy(c, "n")).isTrue();
    }

    @Test
    @DisplayName("pdb.go isEvictable: a pod tolerating karpenter.sh/disrupted:NoSchedule is never evicted, so its PDB does not block")
    void aPdbOnAPodThatToleratesTheDisruptedTaintDoesNotBlock() {
        TestCluster c = oneNode(p -> p.tolerations(List.of(Toleration.exists("karpenter.sh/disrupted"))));
        c.pdbs.add(blockingPdb("web"));
        assertThat(isCandidate(c, "n")).isTrue();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that are nominated")
    void aNominatedNodeIsNotACandidate() {
        TestCluster c = oneNode(p -> p);
        claim(c, "n", SuiteFixtures::nominated);
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("node is nominated for a pending pod");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that are deleting / MarkedForDeletion")
    void aDeletingNodeIsNotACandidate() {
        TestCluster c = oneNode(p -> p);
        claim(c, "n", n -> SuiteFixtures.withNode(n, SuiteFixtures::deleting));
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("node is deleting or marked for deletion");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that aren't yet initialized")
    void anUninitializedNodeIsNotACandidate() {
        TestCluster c = oneNode(p -> p);
        claim(c, "n", SuiteFixtures::uninitialized);
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("node isn't initialized");
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that has just a Node representation / are not owned by a NodePool")
    void aNodeWithoutClaimOrNodePoolLabelIsNeitherCandidateNorExplained() {
        TestCluster c = oneNode(p -> p);
        c.node("bare", "xlarge", c.pod(100));
        claim(c, "n", SuiteFixtures::unmanaged);
        claim(c, "bare", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(), WellKnownLabels.NODEPOOL)));
        Candidates cs = candidates(c);
        assertThat(cs.all).isEmpty();
        assertThat(cs.verdicts).isEmpty();
    }

    @Test
    @DisplayName("suite_test.go: should not consider candidates that are have a non-existent NodePool")
    void aNodeOfAnUnknownNodePoolIsBlocked() {
        TestCluster c = TestCluster.standard();
        SuiteFixtures.nodeIn(c, "gone", "n", "xlarge", c.pod(500));
        assertThat(isCandidate(c, "n")).isFalse();
        assertThat(blockedWhy(c, "n")).isEqualTo("NodePool not found (NodePool=gone)");
    }

    @Test
    @DisplayName("consolidation_test.go Events: should fire an event when a candidate does not have the capacity type label / the zone label / a resolvable instance type")
    void aNodeWithoutPriceLabelsIsUnconsolidatable() {
        TestCluster c = TestCluster.standard();
        c.node("ct", "xlarge", c.pod(500)).node("zone", "xlarge", c.pod(500)).node("type", "xlarge", c.pod(500));
        claim(c, "ct", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(), WellKnownLabels.CAPACITY_TYPE)));
        claim(c, "zone", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(), WellKnownLabels.ZONE)));
        claim(c, "type", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(WellKnownLabels.INSTANCE_TYPE, "nope"))));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(SuiteFixtures.why(d, "ct")).isEqualTo("Node does not have label \"karpenter.sh/capacity-type\"");
        assertThat(SuiteFixtures.why(d, "zone")).isEqualTo("Node does not have label \"topology.kubernetes.io/zone\"");
        assertThat(SuiteFixtures.why(d, "type")).isEqualTo("Instance Type \"nope\" not found");
        assertThat(d.verdict("ct").orElseThrow().kind()).isEqualTo(Verdict.Kind.Unconsolidatable);
    }

    // --- disruption count (BuildDisruptionBudgetMapping) ---

    private static int allowed(TestCluster c, NodePool.Reason reason) {
        ConsolidationInput in = c.input();
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        return Consolidation.budgets(in, pools, reason).get("default");
    }

    private static TestCluster tenNodesAtHalf() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO), SuiteFixtures.budget("50%"));
        for (int i = 0; i < 10; i++) {
            c.node("n" + i, "xlarge", c.pod(500));
        }
        return c;
    }

    @Test
    @DisplayName("suite_test.go: should not consider nodes that are not managed as part of disruption count")
    void unmanagedNodesDoNotCountTowardsTheBudget() {
        TestCluster c = tenNodesAtHalf();
        for (int i = 0; i < 4; i++) {
            claim(c, "n" + i, SuiteFixtures::unmanaged);
        }
        assertThat(allowed(c, NodePool.Reason.Underutilized)).isEqualTo(3); // 50% of 6
    }

    @Test
    @DisplayName("suite_test.go: should not consider nodes that are not initialized as part of disruption count")
    void uninitializedNodesDoNotCountTowardsTheBudget() {
        TestCluster c = tenNodesAtHalf();
        for (int i = 0; i < 4; i++) {
            claim(c, "n" + i, SuiteFixtures::uninitialized);
        }
        assertThat(allowed(c, NodePool.Reason.Underutilized)).isEqualTo(3);
    }

    @Test
    @DisplayName("suite_test.go: should consider nodes with a deletion timestamp set and MarkedForDeletion to the disruption count")
    void deletingNodesUseUpTheBudget() {
        TestCluster c = tenNodesAtHalf();
        claim(c, "n0", n -> SuiteFixtures.withNode(n, SuiteFixtures::deleting));
        claim(c, "n1", n -> SuiteFixtures.withNode(n, SuiteFixtures::deleting));
        assertThat(allowed(c, NodePool.Reason.Underutilized)).isEqualTo(3); // 5 - 2
    }

    @Test
    @DisplayName("suite_test.go: should consider not ready nodes to the disruption count")
    void notReadyNodesUseUpTheBudget() {
        TestCluster c = tenNodesAtHalf();
        claim(c, "n0", n -> SuiteFixtures.withNode(n, SuiteFixtures::notReady));
        assertThat(allowed(c, NodePool.Reason.Empty)).isEqualTo(4);
    }

    @Test
    @DisplayName("suite_test.go: should not return a negative disruption value")
    void theAllowanceNeverGoesNegative() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO), SuiteFixtures.budget("1"));
        for (int i = 0; i < 4; i++) {
            c.node("n" + i, "xlarge", c.pod(500));
            claim(c, "n" + i, n -> SuiteFixtures.withNode(n, SuiteFixtures::notReady));
        }
        assertThat(allowed(c, NodePool.Reason.Underutilized)).isZero();
    }

    // --- disruption cost (utils/disruption EvictionCost) ---

    private static double cost(Map<String, String> annotations, int priority) {
        return EvictionCost.of(Pod.builder("d", "p").annotations(annotations).priority(priority).build());
    }

    @Test
    @DisplayName("suite_test.go: should have a standard / higher / lower disruptionCost for a pod with no, positive, negative deletion cost")
    void podDeletionCostRaisesAndLowersTheEvictionCost() {
        assertThat(cost(Map.of(), 0)).isEqualTo(1.0);
        assertThat(cost(Map.of(EvictionCost.POD_DELETION_COST, "100"), 0)).isGreaterThan(1.0);
        assertThat(cost(Map.of(EvictionCost.POD_DELETION_COST, "-100"), 0)).isLessThan(1.0);
        assertThat(cost(Map.of(EvictionCost.POD_DELETION_COST, "101"), 0)).isGreaterThan(cost(Map.of(EvictionCost.POD_DELETION_COST, "100"), 0));
        assertThat(cost(Map.of(EvictionCost.POD_DELETION_COST, "100"), 0)).isGreaterThan(cost(Map.of(EvictionCost.POD_DELETION_COST, "99"), 0));
        assertThat(cost(Map.of(EvictionCost.POD_DELETION_COST, "not-a-number"), 0)).isEqualTo(1.0);
    }

    @Test
    @DisplayName("suite_test.go: should have a higher / lower disruptionCost for a pod with a higher / lower priority")
    void priorityRaisesAndLowersTheEvictionCost() {
        assertThat(cost(Map.of(), 1)).isGreaterThan(1.0);
        assertThat(cost(Map.of(), -1)).isLessThan(1.0);
        assertThat(cost(Map.of(), 1_000_000_000)).isEqualTo(10.0); // 1 + 29.8, clamped
    }
}
