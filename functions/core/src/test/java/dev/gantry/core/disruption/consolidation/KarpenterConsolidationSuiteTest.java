package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.budget;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.claim;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.nodes;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.pod;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.why;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.command;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.type;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.offering;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.require;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.ZONE_A;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.ZONE_B;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/consolidation_test.go}, first half: the
 * behaviours its Contexts "Budgets" and "Replace" check that a snapshot can express (no pending pods, no DRA, no
 * reserved capacity, no minValues); the rest is {@link KarpenterConsolidationMovesTest}.
 * Each test names its Ginkgo It. Unless a test says otherwise both the faithful reference and Gantry's engine are
 * checked, since Gantry's search runs Karpenter's first and never saves less.
 */
class KarpenterConsolidationSuiteTest {
    private static final Instant NOW = TestCluster.NOW;

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

    @Test
    @DisplayName("a replacement counts against the pool's limits beside the node it replaces, which stays up until the replacement is ready")
    void aPoolAtItsCpuLimitIsNotConsolidatedByAReplacementThatWouldPassIt() {
        for (int limit : new int[] {8, 9}) {
            TestCluster c = TestCluster.standard();
            NodePool p = c.pools.get("default");
            c.pools.put("default", new NodePool(p.name(), p.annotations(), p.template(), p.disruption(),
                    Map.of(Resources.CPU, dev.gantry.core.model.Quantity.parse(Integer.toString(limit))), p.weight(), null));
            c.node("a", "2xlarge", c.pod(500));
            for (ConsolidationDecision d : List.of(c.decide(), c.reference())) {
                if (limit == 8) {
                    assertThat(d.command()).as("8 cpu up, a 1 cpu replacement would make 9 of 8").isEmpty();
                } else {
                    assertThat(command(d).replacements()).extracting(r -> r.instanceType().name()).containsExactly("small");
                }
            }
        }
    }
}
