package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.budget;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.claim;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.nodes;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/emptiness_test.go} (and the empty-node
 * budget Its of consolidation_test.go's Context "Budgets"). Emptiness deletes every empty candidate the Empty budgets
 * admit, in one command, before any underutilized move is looked for.
 */
class KarpenterEmptinessTest {

    private static TestCluster emptyNodes(int count, NodePool.Budget... budgets) {
        TestCluster c = SuiteFixtures.budgets(TestCluster.standard(), Optional.of(Duration.ZERO), budgets);
        for (int i = 0; i < count; i++) {
            c.node("e" + i, "2xlarge");
        }
        return c;
    }

    @Test
    @DisplayName("emptiness_test.go: can delete empty nodes")
    void deletesAnEmptyNode() {
        TestCluster c = emptyNodes(1, budget("100%"));
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.reason()).isEqualTo(NodePool.Reason.Empty);
        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.nodes()).containsExactly("e0");
    }

    @Test
    @DisplayName("emptiness_test.go: can delete multiple empty nodes")
    void deletesEveryEmptyNodeInOneCommand() {
        TestCluster c = emptyNodes(3, budget("100%"));
        assertThat(nodes(c.decide())).containsExactlyInAnyOrder("e0", "e1", "e2");
    }

    @Test
    @DisplayName("emptiness_test.go Budgets: should allow all empty nodes to be disrupted")
    void aFullBudgetAdmitsEveryEmptyNode() {
        assertThat(nodes(emptyNodes(10, budget("100%", NodePool.Reason.Empty)).decide())).hasSize(10);
    }

    @Test
    @DisplayName("emptiness_test.go Budgets: should allow no empty nodes to be disrupted")
    void aZeroBudgetAdmitsNoEmptyNode() {
        ConsolidationDecision d = emptyNodes(10, budget("0%", NodePool.Reason.Empty)).decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdict("e0").orElseThrow().kind()).isEqualTo(Verdict.Kind.DisruptionBlocked);
        assertThat(d.verdict("e0").get().reason()).contains("budget for Empty");
    }

    @Test
    @DisplayName("emptiness_test.go Budgets: should only allow 3 empty nodes to be disrupted")
    void thirtyPercentOfTenAdmitsThreeEmptyNodes() {
        assertThat(nodes(emptyNodes(10, budget("30%", NodePool.Reason.Empty)).decide())).hasSize(3);
    }

    @Test
    @DisplayName("emptiness_test.go Budgets: should allow 2 nodes from each nodePool to be deleted")
    void fiftyPercentOfThreeRoundsUpToTwoInEveryPool() {
        TestCluster c = TestCluster.standard();
        c.pools.clear();
        for (int p = 0; p < 10; p++) {
            SuiteFixtures.pool(c, "pool" + p, NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO), budget("50%"));
            for (int i = 0; i < 3; i++) {
                SuiteFixtures.nodeIn(c, "pool" + p, "p" + p + "-" + i, "2xlarge");
            }
        }
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.nodes()).hasSize(20);
        for (int p = 0; p < 10; p++) {
            String prefix = "p" + p + "-";
            assertThat(cmd.nodes().stream().filter(n -> n.startsWith(prefix))).hasSize(2);
        }
    }

    @Test
    @DisplayName("emptiness_test.go Budgets: should allow all nodes from each nodePool to be deleted")
    void fullBudgetsInEveryPoolAdmitEveryEmptyNode() {
        TestCluster c = TestCluster.standard();
        c.pools.clear();
        for (int p = 0; p < 4; p++) {
            SuiteFixtures.pool(c, "pool" + p, NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO));
            for (int i = 0; i < 3; i++) {
                SuiteFixtures.nodeIn(c, "pool" + p, "p" + p + "-" + i, "2xlarge");
            }
        }
        assertThat(nodes(c.decide())).hasSize(12);
    }

    @Test
    @DisplayName("emptiness_test.go: should ignore nodes without the consolidatable status condition (should wait for the node TTL for empty nodes before consolidating)")
    void anEmptyNodeWaitsForConsolidateAfterSinceItsLastPodEvent() {
        TestCluster c = emptyNodes(2, budget("100%"));
        SuiteFixtures.budgets(c, Optional.of(Duration.ofMinutes(10)), budget("100%"));
        claim(c, "e0", n -> SuiteFixtures.lastPodEventAt(n, TestCluster.NOW.minus(Duration.ofMinutes(9))));
        claim(c, "e1", n -> SuiteFixtures.lastPodEventAt(n, TestCluster.NOW.minus(Duration.ofMinutes(10))));
        ConsolidationDecision d = c.decide();
        assertThat(nodes(d)).containsExactly("e1");
        assertThat(SuiteFixtures.why(d, "e0")).contains("consolidateAfter");
    }

    @Test
    @DisplayName("emptiness.go ShouldDisrupt: If consolidation is disabled, don't do anything (consolidateAfter Never)")
    void consolidateAfterNeverKeepsEmptyNodesToo() {
        TestCluster c = emptyNodes(2, budget("100%"));
        SuiteFixtures.budgets(c, Optional.empty(), budget("100%"));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(SuiteFixtures.why(d, "e0")).isEqualTo("NodePool \"default\" has consolidation disabled");
    }

    @Test
    @DisplayName("emptiness_test.go: should ignore nodes with the karpenter.sh/do-not-disrupt annotation")
    void anEmptyNodeWithDoNotDisruptStays() {
        TestCluster c = TestCluster.standard();
        c.node(c.nodeOf("e", "2xlarge", "on-demand", Map.of(Pod.DO_NOT_DISRUPT, "true")));
        assertThat(c.decide().command()).isEmpty();
    }

    @Test
    @DisplayName("emptiness_test.go: should ignore nodes that have pods")
    void aNodeWithPodsIsNotPartOfTheEmptyCommand() {
        TestCluster c = TestCluster.standard();
        c.node("busy", "2xlarge", c.pod(7000)).node("e", "2xlarge");
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.nodes()).containsExactly("e");
    }

    @Test
    @DisplayName("emptiness_test.go: will consider a node with a DaemonSet pod as empty")
    void aNodeWithOnlyDaemonSetPodsIsEmpty() {
        TestCluster c = TestCluster.standard();
        c.node("d", "2xlarge", c.pod(500).owner("DaemonSet", "agent"));
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.destinations()).isEmpty();
    }

    @Test
    @DisplayName("emptiness_test.go: will consider a node with terminating Deployment pods as empty")
    void aNodeWithOnlyTerminatingDeploymentPodsIsEmpty() {
        TestCluster c = TestCluster.standard();
        c.node("d", "2xlarge", c.pod(500));
        pod(c, "d", 0, p -> p.status(SuiteFixtures.terminating(TestCluster.NOW.minusSeconds(5))));
        assertThat(c.decide().command().orElseThrow().method()).isEqualTo(Method.EMPTY);
    }

    @Test
    @DisplayName("emptiness_test.go: will not consider a node with a terminating StatefulSet pod as empty")
    void aTerminatingStatefulSetPodStillNeedsAHome() {
        TestCluster c = TestCluster.standard();
        c.node("s", "small", c.pod(900).owner("StatefulSet", "db"));
        pod(c, "s", 0, p -> p.status(SuiteFixtures.terminating(TestCluster.NOW.minusSeconds(5))));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty(); // not empty, and the cheapest type: nothing to do
        assertThat(SuiteFixtures.why(d, "s")).isEqualTo("Can't replace with a cheaper node");
    }

    @Test
    @DisplayName("types.go IsEmpty: a node whose pods' eviction costs all clamp to zero or below is Empty")
    void aNodeWhosePodsCostNothingToEvictIsEmpty() {
        TestCluster c = TestCluster.standard();
        c.node("cheap", "2xlarge", c.pod(500).priority(-2_000_000_000), c.pod(500).priority(-2_000_000_000));
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.reason()).isEqualTo(NodePool.Reason.Empty);
    }

    @Test
    @DisplayName("consolidation_test.go Events: ... we don't emit for empty node consolidation (emptiness.go ShouldDisrupt needs no instance type, capacity type or zone)")
    void anEmptyNodeGoesEvenWhenItCannotBePriced() {
        TestCluster c = TestCluster.standard();
        c.node("type", "2xlarge").node("ct", "2xlarge").node("zone", "2xlarge").node("busy", "small", c.pod(900));
        claim(c, "type", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(WellKnownLabels.INSTANCE_TYPE, "gone"))));
        claim(c, "ct", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(), WellKnownLabels.CAPACITY_TYPE)));
        claim(c, "zone", n -> SuiteFixtures.withNode(n, x -> SuiteFixtures.withLabels(x, Map.of(), WellKnownLabels.ZONE)));
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(Method.EMPTY);
        assertThat(cmd.nodes()).containsExactlyInAnyOrder("type", "ct", "zone");
    }

    @Test
    @DisplayName("emptiness.go ShouldDisrupt: emptiness runs for both WhenEmpty and WhenEmptyOrUnderutilized")
    void whenEmptyPoolsStillLoseTheirEmptyNodes() {
        TestCluster c = TestCluster.standard().policy(NodePool.ConsolidationPolicy.WhenEmpty);
        c.node("e", "2xlarge").node("busy", "2xlarge", c.pod(100));
        ConsolidationDecision d = c.decide();
        assertThat(nodes(d)).containsExactly("e");
        assertThat(SuiteFixtures.why(d, "busy")).contains("WhenEmpty, but node is not empty");
    }

    @Test
    @DisplayName("disruption controller: methods in order, emptiness before multi-node and single-node")
    void emptyNodesGoBeforeAnyUnderutilizedMove() {
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(500)).node("b", "2xlarge", c.pod(500)).node("e", "small");
        ConsolidationDecision d = c.decide();
        assertThat(d.command().orElseThrow().method()).isEqualTo(Method.EMPTY);
        assertThat(nodes(d)).containsExactly("e");
        assertThat(SuiteFixtures.why(d, "a")).contains("waits for the next round: this round deletes the empty nodes first");
    }
}
