package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.budget;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.claim;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.lastPodEventAt;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.nodes;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.pod;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.why;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
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
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/consolidation_test.go}: the behaviours its
 * Contexts "Budgets", "Replace", "Delete", "TTL", "Multi-NodeClaim", "Node Lifetime Consideration" and "Topology
 * Consideration" check that a snapshot can express (no pending pods, no DRA, no reserved capacity, no minValues).
 * Each test names its Ginkgo It. Unless a test says otherwise both the faithful reference and Gantry's engine are
 * checked, since Gantry's search runs Karpenter's first and never saves less.
 */
class KarpenterConsolidationSuiteTest {
    private static final Instant NOW = TestCluster.NOW;

    private static ConsolidationCommand command(ConsolidationDecision d) {
        assertThat(d.command()).as("a command; verdicts %s", d.verdicts()).isPresent();
        return d.command().get();
    }

    private static InstanceType type(String name, int cpu, Offering... offerings) {
        return new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, cpu * 2L * TestCluster.GI, 100 * TestCluster.GI, 110, Map.of()), Resources.ZERO,
                List.of(offerings));
    }

    private static Offering offering(String zone, String capacityType, double price, boolean available) {
        return new Offering(zone, null, capacityType, price, available);
    }

    private static final String ZONE_A = TestCluster.ZONES.get(0);
    private static final String ZONE_B = TestCluster.ZONES.get(1);

    /** The default pool with a template requirement. */
    private static void require(TestCluster c, Requirement r) {
        NodePool p = c.pools.get("default");
        NodePool.Template t = p.template();
        c.pools.put("default", new NodePool(p.name(), p.annotations(), new NodePool.Template(t.labels(), t.annotations(),
                t.taints(), t.startupTaints(), List.of(r), t.nodeClassRef(), t.expireAfter(), t.terminationGracePeriod()),
                p.disruption(), p.limits(), p.weight(), null));
    }

    // ----- Context "Budgets" -----

    @Test
    @DisplayName("consolidation_test.go Budgets: should only allow 3 nodes to be deleted in multi node consolidation delete")
    void aThirtyPercentBudgetLetsMultiNodeDeleteThreeOfTen() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO), budget("30%"));
        for (int i = 0; i < 10; i++) {
            c.node("n" + i, "2xlarge", c.pod(100));
        }
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            ConsolidationCommand cmd = command(d);
            assertThat(cmd.method()).isEqualTo(Method.MULTI_NODE);
            assertThat(cmd.isDelete()).isTrue();
            assertThat(cmd.nodes()).hasSize(3);
        }
    }

    @Test
    @DisplayName("consolidation_test.go Budgets: should only allow 3 nodes to be deleted in single node consolidation delete (commands in flight count as deleting)")
    void nodesAlreadyBeingDisruptedUseUpTheBudgetForTheNextRound() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO), budget("30%"));
        for (int i = 0; i < 10; i++) {
            c.node("n" + i, "2xlarge", c.pod(3500)); // two fit a node
        }
        List<String> first = command(c.decide()).nodes();
        assertThat(first).hasSize(3);
        first.forEach(n -> claim(c, n, x -> SuiteFixtures.withNode(x, SuiteFixtures::deleting)));
        ConsolidationDecision next = c.decide();
        assertThat(next.command()).isEmpty();
        assertThat(why(next, "n9")).contains("budget for Underutilized");
    }

    @Test
    @DisplayName("consolidation_test.go Budgets: should allow no nodes from each nodePool to be deleted")
    void aZeroBudgetInEveryPoolAllowsNothing() {
        TestCluster c = TestCluster.standard();
        c.pools.clear();
        for (int p = 0; p < 3; p++) {
            SuiteFixtures.pool(c, "pool" + p, NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO), budget("0%"));
            for (int i = 0; i < 3; i++) {
                SuiteFixtures.nodeIn(c, "pool" + p, "p" + p + "-" + i, "2xlarge", c.pod(100));
            }
        }
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).hasSize(9).allSatisfy(v -> assertThat(v.kind()).isEqualTo(Verdict.Kind.DisruptionBlocked));
    }

    @Test
    @DisplayName("nodepool.go GetAllowedDisruptionsByReason: a budget with reasons limits only those reasons (Underutilized 0 leaves Empty alone, and the other way round)")
    void budgetsApplyOnlyToTheirReasons() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO),
                budget("0", NodePool.Reason.Underutilized), budget("100%"));
        c.node("busy", "2xlarge", c.pod(100)).node("e", "2xlarge");
        assertThat(nodes(c.decide())).containsExactly("e");
        TestCluster u = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO),
                budget("0", NodePool.Reason.Empty), budget("100%"));
        u.node("busy", "2xlarge", u.pod(100)).node("e", "2xlarge");
        ConsolidationDecision d = u.decide();
        assertThat(nodes(d)).containsExactly("busy");
        assertThat(why(d, "e")).contains("budget for Empty");
    }

    @Test
    @DisplayName("nodepool.go GetAllowedDisruptionsByReason: a Drifted-only budget does not limit consolidation")
    void aDriftedBudgetDoesNotLimitConsolidation() {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO),
                budget("0", NodePool.Reason.Drifted), budget("100%"));
        c.node("busy", "2xlarge", c.pod(100));
        assertThat(nodes(c.decide())).containsExactly("busy");
    }

    @Test
    @DisplayName("nodepool.go Budget.IsActive: cron schedules are UTC; a window of duration opens at each firing")
    void aScheduledBudgetIsActiveOnlyForItsDurationAfterEachUtcFiring() {
        // NOW is 12:00 UTC. A zero budget firing at 11:30 for 1h is active; one firing at 10:00 for 1h is not.
        for (var e : Map.of("30 11 * * *", true, "0 10 * * *", false, "0 12 * * *", true, "1 12 * * *", false).entrySet()) {
            TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO),
                    SuiteFixtures.scheduled("0", e.getKey(), Duration.ofHours(1)), budget("100%"));
            c.node("busy", "2xlarge", c.pod(100));
            assertThat(c.decide().command().isEmpty()).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    // ----- Context "Replace" -----

    /** Twenty 2-vCPU types at $0.11..$0.30 on-demand (spot 30%), and one big type the candidate runs on. */
    private static TestCluster twentyTypes(boolean spotToSpot) {
        TestCluster c = new TestCluster();
        c.spot = true;
        c.settings = new ConsolidationSettings(spotToSpot, ConsolidationSettings.Strategy.GANTRY);
        for (int i = 1; i <= 20; i++) {
            c.type("t" + i, 2, 4, 0.10 + 0.01 * i);
        }
        c.type("big", 16, 32, 2.0);
        return c;
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace node (if the candidate is spot node)")
    void aSpotNodeIsReplacedBySpotWhenTheGateIsOnAndFifteenCheaperTypesExist() {
        TestCluster c = twentyTypes(true);
        c.node(c.nodeOf("a", "big", "spot", Map.of()), c.pod(500));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            ConsolidationCommand cmd = command(d);
            assertThat(cmd.method()).isEqualTo(Method.SINGLE_NODE);
            NodeClaimPlan plan = cmd.replacements().get(0);
            assertThat(plan.requirements().get(WellKnownLabels.CAPACITY_TYPE).values()).containsExactly("spot");
            assertThat(plan.offering().capacityType()).isEqualTo("spot");
        }
    }

    @Test
    @DisplayName("consolidation_test.go Replace: cannot replace spot with spot if it is part of the 15 cheapest instance types.")
    void aSpotNodeAmongTheFifteenCheapestIsNotReplaced() {
        TestCluster c = twentyTypes(true);
        c.node(c.nodeOf("a", "t2", "spot", Map.of()), c.pod(500));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(why(d, "a")).isEqualTo("SpotToSpotConsolidation requires 15 cheaper instance type options than the "
                + "current candidate to consolidate, got 1");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: spot to spot consolidation should order the instance types by price before enforcing minimum flexibility.")
    void theFifteenSpotOptionsAreTheCheapestWhateverTheCatalogueOrder() {
        TestCluster c = new TestCluster();
        c.spot = true;
        c.settings = new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY);
        List<Integer> order = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, new java.util.Random(7));
        for (int i : order) {
            c.type("t" + i, 2, 4, 0.10 + 0.01 * i);
        }
        c.type("big", 16, 32, 2.0);
        c.node(c.nodeOf("a", "big", "spot", Map.of()), c.pod(500));
        NodeClaimPlan plan = command(c.decide()).replacements().get(0);
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 15; i++) {
            expected.add("t" + i);
        }
        assertThat(plan.instanceTypeOptions()).extracting(InstanceType::name).containsExactlyElementsOf(expected);
        assertThat(plan.instanceType().name()).isEqualTo("t1");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: cannot replace spot with spot if less than minimum InstanceTypes flexibility")
    void aSpotNodeWithFewerThanFifteenCheaperSpotTypesIsNotReplaced() {
        TestCluster c = new TestCluster();
        c.spot = true;
        c.settings = new ConsolidationSettings(true, ConsolidationSettings.Strategy.GANTRY);
        for (int i = 1; i <= 5; i++) {
            c.type("t" + i, 2, 4, 0.10 + 0.01 * i);
        }
        c.node(c.nodeOf("a", "t5", "spot", Map.of()), c.pod(500));
        assertThat(why(c.decide(), "a")).endsWith("got 4");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: won't replace node if any spot replacement is more expensive")
    void theWorstSpotPriceOfAReplacementMustBeBelowTheNodesPrice() {
        TestCluster c = new TestCluster();
        c.types.add(type("current-on-demand", 4, offering(ZONE_A, "on-demand", 0.5, false)));
        c.types.add(type("potential-spot-replacement", 4, offering(ZONE_A, "spot", 1.0, true), offering(ZONE_B, "spot", 0.2, true)));
        c.node("a", "current-on-demand", c.pod(500));
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(d.command()).isEmpty();
            assertThat(why(d, "a")).isEqualTo("Can't replace with a cheaper node");
        }
    }

    @Test
    @DisplayName("consolidation_test.go Replace: won't replace on-demand node if on-demand replacement is more expensive")
    void anOnDemandPoolIsNotTemptedByTheReplacementsSpotPrice() {
        TestCluster c = new TestCluster();
        c.types.add(type("current-on-demand", 4, offering(ZONE_A, "on-demand", 0.5, false)));
        c.types.add(type("on-demand-replacement", 4, offering(ZONE_A, "on-demand", 0.6, true), offering(ZONE_B, "on-demand", 0.6, true),
                offering(ZONE_B, "spot", 0.2, true)));
        require(c, new Requirement(WellKnownLabels.CAPACITY_TYPE, Operator.In, List.of("on-demand"), null));
        c.node("a", "current-on-demand", c.pod(500));
        assertThat(c.decide().command()).isEmpty();
    }

    @Test
    @DisplayName("consolidation.go computeConsolidation: the worst launch price must be strictly below the candidates' price")
    void aReplacementCostingExactlyTheNodesPriceIsRefused() {
        TestCluster c = new TestCluster();
        c.types.add(type("current", 4, offering(ZONE_A, "on-demand", 0.5, true)));
        c.types.add(type("same-price", 2, offering(ZONE_A, "on-demand", 0.5, true), offering(ZONE_B, "on-demand", 0.3, true)));
        c.node("a", "current", c.pod(500));
        assertThat(c.decide().command()).isEmpty();
        c.types.set(1, type("same-price", 2, offering(ZONE_A, "on-demand", 0.49, true), offering(ZONE_B, "on-demand", 0.3, true)));
        NodeClaimPlan plan = command(c.decide()).replacements().get(0);
        assertThat(plan.instanceType().name()).isEqualTo("same-price");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace nodes if another nodePool returns no instance types")
    void aPoolWithNoInstanceTypesDoesNotStopAReplacement() {
        TestCluster c = TestCluster.standard();
        SuiteFixtures.pool(c, "empty-pool", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO));
        c.node("a", "2xlarge", c.pod(500));
        ConsolidationInput in = c.input();
        List<PoolOffer> pools = in.pools().stream().map(p -> p.pool().name().equals("empty-pool")
                ? new PoolOffer(p.pool(), List.of(), p.usage(), p.nodeCount()) : p).toList();
        ConsolidationInput without = new ConsolidationInput(in.nodes(), pools, in.daemonSets(), in.pdbs(), in.namespaceLabels(),
                in.settings(), in.now());
        ConsolidationCommand cmd = command(Consolidation.decide(without));
        assertThat(cmd.replacements()).hasSize(1);
        assertThat(cmd.replacements().get(0).nodePool()).isEqualTo("default");
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace nodes, considers PDB")
    void aPdbThatStillAllowsAnEvictionDoesNotStopAReplacementButOneThatAllowsNoneDoes() {
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(500), c.pod(500));
        c.pdbs.add(new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), null, "1", 1));
        assertThat(command(c.decide()).replacements()).hasSize(1);
        c.pdbs.set(0, new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), null, "1", 0));
        assertThat(c.decide().command()).isEmpty();
    }

    @Test
    @DisplayName("consolidation_test.go Replace: can replace nodes, considers karpenter.sh/do-not-disrupt set to true on nodes / on pods")
    void doNotDisruptStopsAReplacement() {
        TestCluster onNode = TestCluster.standard();
        onNode.node(onNode.nodeOf("a", "2xlarge", "on-demand", Map.of(Pod.DO_NOT_DISRUPT, "true")), onNode.pod(500));
        assertThat(onNode.decide().command()).isEmpty();
        TestCluster onPod = TestCluster.standard();
        onPod.node("a", "2xlarge", onPod.pod(500), onPod.pod(500).annotations(Map.of(Pod.DO_NOT_DISRUPT, "true")));
        assertThat(onPod.decide().command()).isEmpty();
    }

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
        for (ConsolidationDecision d : List.of(c.reference(), c.decide())) {
            assertThat(d.command()).isEmpty();
            assertThat(why(d, "a")).isEqualTo("Can't remove without creating 2 candidates");
        }
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
