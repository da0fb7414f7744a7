package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsolidationTest {

    private static ConsolidationCommand command(ConsolidationDecision d) {
        assertThat(d.command()).as("a command, verdicts %s", d.verdicts()).isPresent();
        return d.command().get();
    }

    @Test // karpenter: consolidation_test.go "can delete nodes"
    void deletesANodeWhosePodsFitOnTheOthers() {
        TestCluster c = TestCluster.standard();
        c.node("a", "xlarge", c.pod(1000), c.pod(1000)).node("b", "xlarge", c.pod(500));
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.nodes()).containsExactly("b");
        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.destinations()).containsValue("a");
        assertThat(cmd.savings()).isEqualTo(0.20, org.assertj.core.data.Offset.offset(1e-9));
        // Gantry would save 0.25 re-packing both into a large and a small, but re-packs go to fewer nodes only.
        assertThat(command(c.decide()).savings()).isEqualTo(0.20, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test // karpenter: consolidation_test.go "can replace node"
    void replacesANodeByAStrictlyCheaperOne() {
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(500));
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.method()).isEqualTo(Method.SINGLE_NODE);
        assertThat(cmd.replacements()).hasSize(1);
        var plan = cmd.replacements().get(0);
        assertThat(plan.instanceType().name()).isEqualTo("small");
        assertThat(plan.instanceTypeOptions()).allSatisfy(t ->
                assertThat(PriceRule.worstLaunchPrice(t, plan.requirements())).isLessThan(0.40));
        assertThat(cmd.priceAfter()).isLessThan(cmd.priceBefore());
    }

    @Test // karpenter: consolidation_test.go "won't replace node if any spot replacement is more expensive" (price rule)
    void keepsANodeWhenNoCheaperTypeHoldsItsPods() {
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(900));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("a").orElseThrow().reason()).isEqualTo("Can't replace with a cheaper node");
        assertThat(d.verdict("a").get().kind()).isEqualTo(Verdict.Kind.Unconsolidatable);
    }

    @Test // karpenter: consolidation_test.go "can delete nodes, considers PDB"
    void aPdbThatAllowsNoEvictionBlocksTheNode() {
        TestCluster c = TestCluster.standard();
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500).labels(Map.of("app", "db")));
        c.pdbs.add(new PodDisruptionBudget("default", "db", LabelSelector.of(Map.of("app", "db")), "1", null, 0));
        ConsolidationDecision d = c.decide();
        assertThat(command(d).nodes()).containsExactly("a");
        Verdict v = d.verdict("b").orElseThrow();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DisruptionBlocked);
        assertThat(v.reason()).contains("pdb \"default/db\" prevents pod evictions");
    }

    @Test // karpenter: consolidation_test.go "should not consolidate if the action picks a node with a do-not-disrupt pod"
    void doNotDisruptOnAPodOrTheNodeBlocksIt() {
        TestCluster c = TestCluster.standard();
        c.node("a", "xlarge", c.pod(500).annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")));
        c.node(c.nodeOf("b", "xlarge", "on-demand", Map.of(Pod.DO_NOT_DISRUPT, "true")), c.pod(500));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("a").orElseThrow().reason()).contains("has \"karpenter.sh/do-not-disrupt\" annotation");
        assertThat(d.verdict("b").orElseThrow().reason()).contains("blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
    }

    @Test // karpenter: consolidation_test.go "can replace nodes if another nodePool returns no instance types" (spot-to-spot off)
    void aSpotNodeIsNotReplacedBySpotWithoutTheFeatureGate() {
        TestCluster c = TestCluster.standard(true);
        c.settings = new ConsolidationSettings(false, ConsolidationSettings.Strategy.KARPENTER);
        c.node(c.nodeOf("a", "2xlarge", "spot", Map.of()), c.pod(500));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("a").orElseThrow().reason()).contains("SpotToSpotConsolidation is disabled");
    }

    /**
     * Gantry's rounds, the gate off: a spot 2xlarge ($0.12/h) holding one 500m pod is replaced by an on-demand small
     * ($0.05/h), pinned to on-demand so a spot launch cannot take its place. Karpenter keeps the spot node until it is
     * interrupted (after spot ran out in every zone, the first spot launches can land on the dearest types).
     */
    @Test
    void withoutTheGateASpotNodeIsReplacedByACheaperOnDemandNode() {
        TestCluster c = TestCluster.standard(true);
        c.node(c.nodeOf("a", "2xlarge", "spot", Map.of()), c.pod(500));
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.requirements().get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("on-demand");
            assertThat(r.instanceType().name()).isEqualTo("small");
            assertThat(r.offering().capacityType()).isEqualTo("on-demand");
        });
        assertThat(cmd.priceAfter()).isLessThan(cmd.priceBefore());
    }

    @Test
    void withoutTheGateACheapSpotNodeStaysWhenNoOnDemandNodeCostsLess() {
        TestCluster c = TestCluster.standard(true);
        c.node(c.nodeOf("a", "large", "spot", Map.of()), c.pod(500)); // $0.03/h; on-demand small is $0.05/h
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("a").orElseThrow().reason()).contains("SpotToSpotConsolidation is disabled")
                .contains("no on-demand node is cheaper");
    }

    @Test // karpenter: consolidation_test.go "spot to spot consolidation should consider the max of default and minimum number of instanceTypeOptions"
    void spotToSpotNeedsFifteenCheaperTypesAndOffersTheFifteenCheapest() {
        TestCluster few = TestCluster.standard(true);
        few.settings = new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY);
        few.node(few.nodeOf("a", "2xlarge", "spot", Map.of()), few.pod(500));
        assertThat(few.decide().verdict("a").orElseThrow().reason()).contains("requires 15 cheaper instance type options").contains("got 3");

        TestCluster many = new TestCluster();
        many.spot = true;
        many.settings = new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY);
        for (int i = 1; i <= 20; i++) {
            many.type("t" + i, 2, 4, 0.10 + 0.01 * i);
        }
        many.type("big", 16, 32, 2.0);
        many.node(many.nodeOf("a", "big", "spot", Map.of()), many.pod(500));
        ConsolidationCommand cmd = command(many.decide());
        assertThat(cmd.replacements().get(0).instanceTypeOptions()).hasSize(15);
        assertThat(cmd.replacements().get(0).requirements().get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("spot");
    }

    @Test // karpenter: consolidation_test.go "can replace nodes, considers PDB" / OD -> [OD, spot] pinned to spot
    void anOnDemandNodeReplacedByASpotOrOnDemandClaimIsPinnedToSpot() {
        TestCluster c = TestCluster.standard(true);
        c.node("a", "2xlarge", c.pod(500));
        var reqs = command(c.decide()).replacements().get(0).requirements();
        assertThat(reqs.get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("spot");
    }

    @Test // karpenter: consolidation_test.go "should wait for the node TTL for non-empty nodes before consolidating"
    void consolidateAfterCountsFromTheLastPodEvent() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ofMinutes(10)),
                List.of(NodePool.Budget.DEFAULT), Map.of());
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500));
        ClusterNode b = c.nodes.get(1);
        c.nodes.set(1, new ClusterNode(b.node(), b.pods(), b.claim(), b.initializedAt(), false,
                TestCluster.NOW.minus(Duration.ofMinutes(5)), false));
        ConsolidationDecision d = c.decide();
        assertThat(command(d).nodes()).containsExactly("a");
        assertThat(d.verdict("b").orElseThrow().reason()).contains("consolidateAfter");
    }

    @Test // karpenter: consolidation_test.go "should not consolidate if consolidateAfter is Never"
    void consolidateAfterNeverDisablesConsolidation() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.empty(), List.of(NodePool.Budget.DEFAULT), Map.of());
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge");
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("b").orElseThrow().reason()).contains("has consolidation disabled");
    }

    @Test // karpenter: emptiness_test.go "should ignore nodes without the consolidatable status condition" / WhenEmpty policy
    void whenEmptyPoolsRemoveEmptyNodesButKeepUnderutilizedOnes() {
        TestCluster c = TestCluster.standard().policy(NodePool.ConsolidationPolicy.WhenEmpty);
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500)).node("e1", "xlarge").node("e2", "large");
        ConsolidationDecision d = c.decide();
        ConsolidationCommand cmd = command(d);
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.reason()).isEqualTo(NodePool.Reason.Empty);
        assertThat(cmd.nodes()).containsExactlyInAnyOrder("e1", "e2");
        assertThat(d.verdict("b").orElseThrow().reason()).contains("WhenEmpty, but node is not empty");
    }

    @Test // karpenter: consolidation_test.go "should allow no empty nodes to be disrupted" (budgets per reason)
    void anEmptyBudgetOfOneRemovesOneEmptyNodeAndBlocksTheOther() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of(NodePool.Reason.Empty))), Map.of());
        c.node("e1", "xlarge").node("e2", "large");
        ConsolidationDecision d = c.decide();
        assertThat(command(d).nodes()).containsExactly("e1"); // dearer first: higher savings ratio
        assertThat(d.verdict("e2").orElseThrow().kind()).isEqualTo(Verdict.Kind.DisruptionBlocked);
    }

    @Test // karpenter: consolidation_test.go "should not allow consolidation if the budget is fully blocked" (NotReady counts)
    void aNotReadyNodeUsesUpTheUnderutilizedBudget() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of())), Map.of());
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500));
        Node n = c.nodeOf("sick", "xlarge", "on-demand", Map.of());
        c.node(new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), false, false, false, n.createdAt()), c.pod(3000));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("b").orElseThrow().reason()).contains("budget for Underutilized");
    }

    @Test // karpenter: consolidation_test.go "can merge 3 nodes into 1"
    void mergesSeveralNodesIntoOneCheaperNode() {
        TestCluster c = TestCluster.standard();
        c.node("a", "xlarge", c.pod(500)).node("b", "xlarge", c.pod(500)).node("d", "xlarge", c.pod(500));
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
        assertThat(cmd.nodes()).hasSize(3);
        assertThat(cmd.replacements()).hasSize(1);
        assertThat(cmd.priceAfter()).isLessThan(0.60);
    }

    @Test // gantry: m-to-n re-pack where Karpenter can only merge two at a time
    void repacksFourNodesIntoTwoWhereKarpenterMergesOnlyTwo() {
        TestCluster c = new TestCluster().type("large", 2, 4, 0.10).type("m", 3, 6, 0.30).type("xl", 4, 8, 0.18);
        for (String n : List.of("a", "b", "d", "e")) {
            c.node(n, "m", c.pod(2000));
        }
        ConsolidationCommand karpenter = command(c.reference());
        ConsolidationCommand gantry = command(c.decide());
        assertThat(karpenter.savings()).isEqualTo(0.42, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(gantry.method()).isEqualTo(Method.REPACK);
        assertThat(gantry.nodes()).hasSize(4);
        assertThat(gantry.replacements()).hasSize(2);
        assertThat(gantry.savings()).isEqualTo(0.84, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(gantry.decidedBy()).isEqualTo("gantry");
    }

    @Test // karpenter: balanced_test.go "rejects a move whose savings fraction is below half its disruption fraction"
    void balancedRejectsAMoveThatDisruptsMoreThanItSaves() {
        for (NodePool.ConsolidationPolicy policy : List.of(NodePool.ConsolidationPolicy.Balanced, NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized)) {
            TestCluster c = TestCluster.standard().policy(policy);
            // b is cheap and has many pods: removing it saves 1/9 of the cost for 7/9 of the disruption.
            c.node("a", "2xlarge", c.pod(6000));
            c.node("b", "small", c.pod(100), c.pod(100), c.pod(100), c.pod(100), c.pod(100), c.pod(100));
            ConsolidationDecision d = c.decide();
            if (policy == NodePool.ConsolidationPolicy.Balanced) {
                assertThat(d.command()).isEmpty();
                assertThat(d.verdict("b").orElseThrow().reason()).contains("Balanced");
            } else {
                assertThat(command(d).nodes()).containsExactly("b");
            }
        }
        assertThat(Balanced.score(0.05, 7, 0.45, 9)).isLessThan(0.5);
        assertThat(Balanced.score(0.40, 2, 0.45, 9)).isGreaterThanOrEqualTo(0.5);
    }

    @Test // gantry: churn guard
    void aMinimumSavingAnnotationKeepsMovesThatSaveTooLittle() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(NodePool.Budget.DEFAULT), Map.of(MinSavings.ANNOTATION, "0.25"));
        c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("b").orElseThrow().reason()).contains("below NodePool \"default\"'s 0.25");
    }

    @Test // karpenter: helpers EvictionCost (pod-deletion-cost / 2^27 + priority / 2^25, clamped to [-10, 10])
    void evictionCostFollowsDeletionCostAndPriorityClamped() {
        Pod plain = Pod.builder("d", "p").build();
        assertThat(EvictionCost.of(plain)).isEqualTo(1.0);
        Pod dear = Pod.builder("d", "p").annotations(Map.of(EvictionCost.POD_DELETION_COST, "2147483647")).build();
        assertThat(EvictionCost.of(dear)).isEqualTo(10.0);
        Pod cheap = Pod.builder("d", "p").priority(-2_000_000_000).build();
        assertThat(EvictionCost.of(cheap)).isEqualTo(-10.0);
        assertThat(EvictionCost.reschedule(List.of(plain, cheap))).isEqualTo(2.0);
    }

    @Test // karpenter: consolidation.go sortCandidates (savings ratio, descending)
    void candidatesWithCheapPodsGoFirst() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("1", Optional.empty(), Optional.empty(), List.of())), Map.of());
        c.node("big", "2xlarge", c.pod(7000));
        c.node("x", "xlarge", c.pod(500).annotations(Map.of(EvictionCost.POD_DELETION_COST, "1000000000")));
        c.node("y", "xlarge", c.pod(500));
        assertThat(command(c.decide()).nodes()).containsExactly("y");
    }
}
