package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.budget;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.claim;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.lastPodEventAt;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.nodes;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.pod;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.why;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.command;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.type;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.offering;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.require;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.ZONE_B;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/consolidation_test.go}, second half: its
 * Contexts "Delete", "TTL", "Multi-NodeClaim", "Node Lifetime Consideration" and "Topology Consideration" (and
 * singlenodeconsolidation_test.go's "Candidate Shuffling"), as far as a snapshot can express them. The first half,
 * "Budgets" and "Replace", is {@link KarpenterConsolidationSuiteTest}.
 * Each test names its Ginkgo It. Unless a test says otherwise both the faithful reference and Gantry's engine are
 * checked, since Gantry's search runs Karpenter's first and never saves less.
 */
class KarpenterConsolidationMovesTest {
    private static final Instant NOW = TestCluster.NOW;

    // ----- Context "Delete" -----

    @Test
    @DisplayName("consolidation_test.go Delete: can delete nodes, considers PDB")
    void aBlockingPdbOnTheLighterNodeKeepsIt() {
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200).labels(Map.of("app", "db")));
        c.pdbs.add(new PodDisruptionBudget("default", "db", LabelSelector.of(Map.of("app", "db")), null, "0", 0));
        ConsolidationDecision d = c.decide();
        assertThat(nodes(d)).containsExactly("a"); // the heavier one goes instead, its pods onto b
        assertThat(why(d, "b")).contains("pdb \"default/db\"");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: does not consolidate nodes with pods that have a duration-based do-not-disrupt annotation that is still active")
    void aDurationDoNotDisruptProtectsAYoungPod() {
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200).annotations(Map.of(Pod.DO_NOT_DISRUPT, "2m")));
        pod(c, "b", 0, p -> p.status(SuiteFixtures.runningSince(NOW.minus(Duration.ofMinutes(1)))));
        ConsolidationDecision d = c.decide();
        assertThat(nodes(d)).containsExactly("a");
        assertThat(why(d, "b")).contains("do-not-disrupt");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: can consolidate nodes after duration-based do-not-disrupt annotation expires")
    void aDurationDoNotDisruptLapsesOnceThePodIsOlder() {
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200).annotations(Map.of(Pod.DO_NOT_DISRUPT, "2m")));
        pod(c, "b", 0, p -> p.status(SuiteFixtures.runningSince(NOW.minus(Duration.ofMinutes(3)))));
        assertThat(nodes(c.decide())).containsExactly("b");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: can delete nodes, considers invalid do-not-disrupt annotation format as not blocking")
    void anInvalidDoNotDisruptValueDoesNotBlock() {
        for (String value : List.of("invalid-format", "false", "0s", "-5m")) {
            TestCluster c = TestCluster.standard();
            c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200).annotations(Map.of(Pod.DO_NOT_DISRUPT, value)));
            assertThat(nodes(c.decide())).as(value).containsExactly("b");
        }
    }

    @Test
    @DisplayName("consolidation_test.go Delete: can delete nodes, evicts pods without an ownerRef")
    void aPodWithoutOwnerIsMovedLikeAnyOther() {
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200).owner(null, null));
        assertThat(nodes(c.decide())).containsExactly("b");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: won't delete node if it would require pods to schedule on an uninitialized node")
    void aNodeIsNotDeletedOntoAManagedNodeThatHasNotInitialized() {
        TestCluster c = TestCluster.standard();
        c.node("starting", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200));
        // Ready, but its claim has not initialized (no karpenter.sh/initialized label yet)
        claim(c, "starting", n -> new ConsolidationInput.ClusterNode(SuiteFixtures.withLabels(n.node(), Map.of(), Node.INITIALIZED_LABEL),
                n.pods(), n.claim(), null, false, null, false));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(d.command()).as("verdicts %s", d.verdicts()).isEmpty();
            assertThat(why(d, "starting")).isEqualTo("node isn't initialized");
        }
    }

    @Test
    @DisplayName("consolidation_test.go Delete: should consider initialized nodes before uninitialized nodes")
    void podsGoToTheInitializedNodeNotToEarlierUninitializedOnes() {
        TestCluster c = TestCluster.standard();
        for (int i = 0; i < 10; i++) {
            c.node("u" + i, "small", c.pod(300));
            claim(c, "u" + i, n -> new ConsolidationInput.ClusterNode(SuiteFixtures.withLabels(n.node(), Map.of(), Node.INITIALIZED_LABEL),
                    n.pods(), n.claim(), null, false, null, false));
        }
        c.node("room", "xlarge", c.pod(3000)).node("c", "small", c.pod(300));
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.nodes()).containsExactly("c");
        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.destinations()).containsOnlyKeys("default/" + c.nodes.get(11).pods().get(0).name()).containsValue("room");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: should not consolidate pods onto a destination node that is under its consolidateAfter window")
    void aDestinationStillWithinConsolidateAfterTakesNoPod() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ofMinutes(1)), budget("100%"));
        c.node("a", "small", c.pod(200), c.pod(200)).node("b", "small", c.pod(200));
        claim(c, "a", n -> lastPodEventAt(n, NOW.minusSeconds(30)));
        claim(c, "b", n -> lastPodEventAt(n, NOW.minus(Duration.ofMinutes(2))));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(d.command()).as("verdicts %s", d.verdicts()).isEmpty();
        }
        claim(c, "a", n -> lastPodEventAt(n, NOW.minus(Duration.ofMinutes(2)))); // the window has passed
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.nodes()).hasSize(1);
    }

    @Test
    @DisplayName("consolidation_test.go Delete: should consolidate pods onto a destination node with consolidateAfter set to Never")
    void aDestinationInAPoolThatNeverConsolidatesStillTakesPods() {
        TestCluster c = TestCluster.standard();
        SuiteFixtures.pool(c, "never", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.empty());
        SuiteFixtures.nodeIn(c, "never", "dest", "small", c.pod(200));
        claim(c, "dest", n -> SuiteFixtures.initializedAt(lastPodEventAt(n, NOW.minusSeconds(1)), NOW.minusSeconds(1)));
        c.node("src", "small", c.pod(200));
        ConsolidationDecision d = c.decide();
        ConsolidationCommand cmd = command(d);
        assertThat(cmd.nodes()).containsExactly("src");
        assertThat(cmd.destinations()).containsValue("dest");
        assertThat(why(d, "dest")).isEqualTo("NodePool \"never\" has consolidation disabled");
    }

    @Test
    @DisplayName("consolidation_test.go Delete: should replace a node with a cheaper one even when consolidateAfter has not expired")
    void aReplacementIsNotADestinationSoConsolidateAfterDoesNotBlockIt() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ofMinutes(1)), budget("100%"));
        c.node("a", "2xlarge", c.pod(500));
        claim(c, "a", n -> lastPodEventAt(n, NOW.minus(Duration.ofMinutes(2))));
        assertThat(command(c.decide()).replacements()).hasSize(1);
    }

    @Test
    @DisplayName("consolidation_test.go Delete: can delete nodes, when non-Karpenter capacity can fit pods")
    void podsMayMoveToANodeGantryDoesNotManage() {
        TestCluster c = TestCluster.standard();
        c.node("theirs", "xlarge").node("mine", "small", c.pod(300));
        claim(c, "theirs", SuiteFixtures::unmanaged);
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.nodes()).containsExactly("mine");
        assertThat(cmd.destinations()).containsValue("theirs");
    }

    // ----- Context "TTL" -----

    @Test
    @DisplayName("consolidation_test.go Multi-NodeClaim: should wait for the node TTL for non-empty nodes before consolidating (multi-node)")
    void aNodeWithARecentPodEventIsLeftOutOfAMerge() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ofMinutes(10)), budget("100%"));
        c.node("a", "xlarge", c.pod(500)).node("b", "xlarge", c.pod(500)).node("fresh", "xlarge", c.pod(500));
        claim(c, "fresh", n -> lastPodEventAt(n, NOW.minus(Duration.ofMinutes(9))));
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.nodes()).doesNotContain("fresh");
        assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
    }

    @Test
    @DisplayName("disruption.go IsUnderConsolidateAfter: consolidateAfter counts from the last pod event when there is one, else from initialization")
    void consolidateAfterCountsFromTheLastPodEventEvenBeforeInitialization() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ofMinutes(10)), budget("100%"));
        c.node("a", "2xlarge", c.pod(500));
        // pods bound while it started (11 min ago), initialized 5 min ago: Karpenter uses the pod event
        claim(c, "a", n -> SuiteFixtures.initializedAt(lastPodEventAt(n, NOW.minus(Duration.ofMinutes(11))), NOW.minus(Duration.ofMinutes(5))));
        assertThat(nodes(c.decide())).containsExactly("a");
        claim(c, "a", n -> lastPodEventAt(n, null)); // no pod event: initialization 5 min ago counts
        assertThat(why(c.decide(), "a")).contains("consolidateAfter");
    }

    // ----- Context "Multi-NodeClaim" -----

    @Test
    @DisplayName("consolidation_test.go Multi-NodeClaim: can merge 3 nodes into 1 (if the candidate is spot node)")
    void threeSpotNodesMergeIntoOneSpotNodeWithoutTheFifteenTypeRule() {
        TestCluster c = TestCluster.standard(true);
        c.settings = new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY);
        for (String n : List.of("a", "b", "d")) {
            c.node(c.nodeOf(n, "xlarge", "spot", Map.of()), c.pod(500));
        }
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
        assertThat(cmd.nodes()).hasSize(3);
        assertThat(cmd.replacements()).hasSize(1);
        assertThat(cmd.replacements().get(0).requirements().get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("spot");
        assertThat(cmd.replacements().get(0).instanceTypeOptions().size()).isLessThan(15);
    }

    @Test
    @DisplayName("consolidation_test.go Multi-NodeClaim: can merge 3 nodes into 1 if the candidates have both spot and on-demand")
    void aMixOfSpotAndOnDemandMergesWithoutTheGate() {
        TestCluster c = TestCluster.standard(true);
        c.node("a", "xlarge", c.pod(500)).node("b", "xlarge", c.pod(500));
        c.node(c.nodeOf("s", "xlarge", "spot", Map.of()), c.pod(500));
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.nodes()).containsExactlyInAnyOrder("a", "b", "s");
        assertThat(cmd.replacements().get(0).requirements().get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("spot");
    }

    @Test
    @DisplayName("multinodeconsolidation.go firstNConsolidationOption: the binary search keeps the longest working prefix")
    void theMergeTakesTheLongestPrefixThatStillFitsOneCheaperNode() {
        TestCluster c = TestCluster.standard();
        // Four xlarge nodes with 2.1 vCPU each. Two (4.2 vCPU) fit no other node and need a 2xlarge at their own
        // price (not strictly cheaper); three (6.3) fit one 2xlarge (0.40 < 0.60); four (8.4) need two nodes.
        for (int i = 0; i < 4; i++) {
            c.node("n" + i, "xlarge", c.pod(2100));
        }
        ConsolidationCommand cmd = command(c.reference());
        assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
        assertThat(cmd.nodes()).containsExactlyInAnyOrder("n0", "n1", "n2");
        assertThat(cmd.replacements()).hasSize(1);
        assertThat(cmd.replacements().get(0).instanceType().name()).isEqualTo("2xlarge");
    }

    @Test
    @DisplayName("multinodeconsolidation.go ComputeCommands: Only consider a maximum batch of 100 NodeClaims (Gantry keeps the step: bigger batches settle worse)")
    void aMultiNodeBatchHoldsAtMostAHundredAndOneNodes() {
        TestCluster c = new TestCluster().type("2xlarge", 8, 16, 0.40);
        // 105 pods fit one node (110 pods, 5.25 of 8 vCPU): any 104 nodes could go, but a batch stops at 101. With one
        // instance type no re-pack applies (the pods fit one new node, or the other nodes).
        for (int i = 0; i < 105; i++) {
            c.node("n" + i, "2xlarge", c.pod(50, 64));
        }
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            ConsolidationCommand cmd = command(d);
            assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
            assertThat(cmd.isDelete()).isTrue();
            assertThat(cmd.nodes()).hasSize(KarpenterReference.MAX_MULTI + 1);
        }
    }

    @Test
    @DisplayName("multinodeconsolidation.go: multi-node is tried on at least two candidates, before single-node")
    void oneCandidateGoesStraightToSingleNode() {
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(500));
        assertThat(command(c.reference()).method()).isEqualTo(Method.SINGLE_NODE);
    }

    @Test
    @DisplayName("consolidation.go computeConsolidation: we're not going to turn a single node into multiple candidates")
    void aNodeWhosePodsNeedTwoNewNodesStays() {
        // kube-scheduler co-located them despite a preferred anti-affinity; Karpenter's simulation honours the
        // preference first, so their re-placement asks for two nodes.
        PodAffinityTerm apart = new PodAffinityTerm(LabelSelector.of(Map.of("app", "apart")), WellKnownLabels.HOSTNAME, List.of(), null, 100);
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)),
                c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)));
        ConsolidationDecision d = c.reference();
        assertThat(d.command()).isEmpty();
        assertThat(why(d, "a")).isEqualTo("Can't remove without creating 2 candidates");
        // Gantry's rounds make it when the two cost at most a quarter of the node (Round.DEAR): $0.10 for $0.40.
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).hasSize(2).allSatisfy(r -> assertThat(r.instanceType().name()).isEqualTo("small"));
    }

    @Test
    @DisplayName("Gantry: a node whose pods need two new nodes stays when they cost more than a quarter of it")
    void aNodeWhosePodsNeedTwoNewNodesStaysUnlessItIsFarDearer() {
        PodAffinityTerm apart = new PodAffinityTerm(LabelSelector.of(Map.of("app", "apart")), WellKnownLabels.HOSTNAME, List.of(), null, 100);
        TestCluster c = TestCluster.standard();
        // Two small nodes ($0.10) for a $0.05 small, which is also the cheapest one node for both pods.
        c.node("a", "small", c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)),
                c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(why(d, "a")).isEqualTo("Can't remove without creating 2 candidates");
    }

    /**
     * Two pods co-located despite a preferred anti-affinity on an xlarge ($0.20): Karpenter's trial honours the
     * preference and asks for two nodes, so it keeps the node; two smalls ($0.10) are more than a quarter of it. Gantry
     * replaces it by one node of its size in its zone, the newer xlarge at $0.12, the pods together as they are now: the
     * preference is kept no worse.
     */
    @Test
    @DisplayName("Gantry: a node whose pods' preferences ask for two nodes is replaced by one of its size in its zone")
    void aNodeWhosePreferencesAskForTwoNodesIsReplacedByOneInItsZone() {
        PodAffinityTerm apart = new PodAffinityTerm(LabelSelector.of(Map.of("app", "apart")), WellKnownLabels.HOSTNAME, List.of(), null, 100);
        TestCluster c = TestCluster.standard().type("xlarge-new", 4, 8, 0.12);
        c.node("a", "xlarge", c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)),
                c.pod(500).labels(Map.of("app", "apart")).preferredPodAntiAffinity(List.of(apart)));
        assertThat(why(c.reference(), "a")).isEqualTo("Can't remove without creating 2 candidates");
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.method()).isEqualTo(Method.SINGLE_NODE);
        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.instanceType().name()).isEqualTo("xlarge-new");
            assertThat(r.offering().zone()).isEqualTo(TestCluster.ZONES.get(0));
            assertThat(r.pods()).hasSize(2);
        });
    }

    /**
     * The storm's case: after spot ran out, an on-demand node took a zone-spread ({@code ScheduleAnyway}) Deployment's
     * pods in one zone. The trial that keeps the spread wants a second node in the other zone for one of them, and the
     * two cost more than a quarter of the node, so it stayed all day. One spot node in its zone holds them for less,
     * and leaves the spread's skew as it is.
     */
    @Test
    @DisplayName("Gantry: an on-demand node holding a soft zonal spread's pods in one zone is replaced by spot in that zone")
    void anOnDemandNodeHoldingASoftSpreadInOneZoneIsReplacedBySpotInThatZone() {
        TopologySpread soft = new TopologySpread(1, WellKnownLabels.ZONE, false, LabelSelector.of(Map.of("app", "web")),
                null, List.of(), false, false);
        TestCluster c = TestCluster.standard(true);
        Pod.Builder[] pods = new Pod.Builder[6];
        for (int i = 0; i < pods.length; i++) {
            pods[i] = c.pod(500).labels(Map.of("app", "web")).topologySpread(List.of(soft));
        }
        c.node("a", "xlarge", pods);
        assertThat(c.reference().command()).isEmpty();
        ConsolidationCommand cmd = command(c.decide());
        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.offering().capacityType()).isEqualTo("spot");
            assertThat(r.offering().zone()).isEqualTo(TestCluster.ZONES.get(0));
            assertThat(r.pods()).hasSize(6);
        });
    }

    /**
     * The in-place move replaces a node by one of at least its size: a 2xlarge ($0.40) whose six soft-spread pods fit an
     * xlarge ($0.20) stays (two larges in two zones, $0.20, are more than a quarter of it), as with Karpenter. Shrinking
     * nodes in place made the diurnal day dearer: each next ramp launched again.
     */
    @Test
    @DisplayName("Gantry: a node whose soft spread asks for two nodes is not shrunk in place")
    void anInPlaceReplacementDoesNotShrinkTheNode() {
        TopologySpread soft = new TopologySpread(1, WellKnownLabels.ZONE, false, LabelSelector.of(Map.of("app", "web")),
                null, List.of(), false, false);
        TestCluster c = TestCluster.standard();
        Pod.Builder[] pods = new Pod.Builder[6];
        for (int i = 0; i < pods.length; i++) {
            pods[i] = c.pod(500).labels(Map.of("app", "web")).topologySpread(List.of(soft));
        }
        c.node("a", "2xlarge", pods);
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(why(d, "a")).isEqualTo("Can't remove without creating 2 candidates");
    }

    // ----- Context "Node Lifetime Consideration" -----

    @Test
    @DisplayName("consolidation_test.go Node Lifetime Consideration: should consolidate the node with best savings ratio first")
    void theNodeWithFewerPodsGoesFirst() {
        TestCluster c = TestCluster.standard();
        c.node("n0", "small", c.pod(200), c.pod(200)).node("n1", "small", c.pod(200));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(nodes(d)).containsExactly("n1");
        }
    }

    // ----- Context "Topology Consideration" -----

    @Test
    @DisplayName("consolidation_test.go Topology Consideration: can replace node maintaining zonal topology spread")
    void aReplacementStaysInTheZoneTheSpreadNeeds() {
        TestCluster c = TestCluster.standard();
        TopologySpread spread = new TopologySpread(1, WellKnownLabels.ZONE, true, LabelSelector.of(Map.of("app", "spread")),
                null, List.of(), false, false);
        c.node("a", "small", c.pod(900).labels(Map.of("app", "spread")).topologySpread(List.of(spread)));
        Node b = c.nodeOf("b", "2xlarge", "on-demand", Map.of());
        c.node(SuiteFixtures.withLabels(b, Map.of(WellKnownLabels.ZONE, ZONE_B)), c.pod(900).labels(Map.of("app", "spread")).topologySpread(List.of(spread)));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            ConsolidationCommand cmd = command(d);
            assertThat(cmd.nodes()).containsExactly("b");
            NodeClaimPlan plan = cmd.replacements().get(0);
            assertThat(plan.requirements().get(WellKnownLabels.ZONE).values()).containsExactly(ZONE_B);
            assertThat(plan.offering().zone()).isEqualTo(ZONE_B);
        }
    }

    @Test
    @DisplayName("consolidation_test.go Topology Consideration: won't delete node if it would violate pod anti-affinity")
    void requiredAntiAffinityKeepsPodsApart() {
        PodAffinityTerm apart = new PodAffinityTerm(LabelSelector.of(Map.of("app", "apart")), WellKnownLabels.HOSTNAME, List.of(), null, 0);
        TestCluster c = TestCluster.standard();
        c.node("a", "small", c.pod(200).labels(Map.of("app", "apart")).podAntiAffinity(List.of(apart)));
        c.node("b", "small", c.pod(200).labels(Map.of("app", "apart")).podAntiAffinity(List.of(apart)));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(d.command()).as("verdicts %s", d.verdicts()).isEmpty();
        }
        TestCluster without = TestCluster.standard();
        without.node("a", "small", without.pod(200)).node("b", "small", without.pod(200));
        assertThat(nodes(without.decide())).hasSize(1);
    }

    // ----- singlenodeconsolidation_test.go Context "Candidate Shuffling" -----

    @Test
    @DisplayName("singlenodeconsolidation_test.go Candidate Shuffling: should sort candidates by savings ratio descending (then interwoven by NodePool)")
    void singleNodeTakesTheIthCandidateOfEveryPoolBeforeTheNext() {
        TestCluster c = TestCluster.standard();
        SuiteFixtures.pool(c, "other", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO));
        c.node("d1", "2xlarge", c.pod(100)).node("d2", "xlarge", c.pod(100)).node("d3", "large", c.pod(100));
        SuiteFixtures.nodeIn(c, "other", "o1", "xlarge", c.pod(100));
        SuiteFixtures.nodeIn(c, "other", "o2", "small", c.pod(100));
        ConsolidationInput in = c.input();
        Map<String, PoolOffer> pools = new java.util.LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        List<Candidate> ordered = new ArrayList<>(Candidates.of(in, pools, false).all);
        ordered.sort(Comparator.comparingDouble(Candidate::savingsRatio).reversed().thenComparing(Candidate::name));
        assertThat(ordered).extracting(Candidate::name).containsExactly("d1", "d2", "o1", "d3", "o2");
        assertThat(KarpenterReference.roundRobin(ordered)).extracting(Candidate::name).containsExactly("d1", "o1", "d2", "o2", "d3");
    }

    @Test
    @DisplayName("singlenodeconsolidation_test.go Candidate Shuffling: should sort candidates by savings ratio with different disruption costs")
    void aDearPodOutweighsAHigherPrice() {
        TestCluster c = TestCluster.standard();
        c.node("dear", "2xlarge", c.pod(100).annotations(Map.of(EvictionCost.POD_DELETION_COST, "2147483647")));
        c.node("cheap", "xlarge", c.pod(100));
        ConsolidationInput in = c.input();
        Map<String, PoolOffer> pools = new java.util.LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        List<Candidate> all = Candidates.of(in, pools, false).all;
        Candidate dear = all.stream().filter(x -> x.name().equals("dear")).findFirst().orElseThrow();
        Candidate cheap = all.stream().filter(x -> x.name().equals("cheap")).findFirst().orElseThrow();
        assertThat(dear.disruption()).isEqualTo(11.0); // 1 per node + 10 (clamped)
        assertThat(cheap.savingsRatio()).isGreaterThan(dear.savingsRatio()); // 0.20/2 > 0.40/11
    }
}
