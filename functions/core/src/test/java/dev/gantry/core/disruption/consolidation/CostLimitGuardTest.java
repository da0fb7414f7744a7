package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The dollar limit ({@code gantry.dev/limit-cost-per-hour}, Gantry's own) holds for consolidation's, drift's and
 * rebalance's replacements. The nodes a command replaces count as leaving from the decision on, as Karpenter counts
 * cpu/memory limits for replacements: kubernetes-sigs/karpenter v1.14.1 {@code pkg/controllers/disruption/helpers.go}
 * SimulateScheduling (scheduler over the active nodes without the candidates) and
 * {@code pkg/controllers/provisioning/scheduling/scheduler.go} (remaining resources = limits minus those nodes).
 *
 * <p>Claims still launching without a node count as the provisioner counts them ({@code CostLimit.inUse}): Karpenter's
 * cluster state makes a StateNode of a NodeClaim as soon as it has a provider id, before its Node exists
 * ({@code pkg/controllers/state/cluster.go} UpdateNodeClaim, newStateFromNodeClaim; {@code pkg/controllers/state/
 * statenode.go} Labels reads the NodeClaim's until the node registers), and both SimulateScheduling (its
 * {@code cluster.DeepCopyNodes().Active()}) and the scheduler's {@code calculateExistingNodeClaims}/
 * {@code updateRemainingResources} subtract every such state node from its pool's limits.
 */
class CostLimitGuardTest {
    /** "large" is $0.10/h on-demand in TestCluster.standard(). */
    static TestCluster limited(String dollars) {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of())),
                Map.of(CostLimit.ANNOTATION, dollars));
        return c;
    }

    private static TestCluster twoBusyLarge(TestCluster c) {
        return c.node("n0", "large", c.pod(1500)).node("n1", "large", c.pod(1500));
    }

    @Test
    void theReplacedNodeCountsAsLeaving() {
        // n1 stays ($0.10) + a large replacement for n0 ($0.10) = $0.20: within a $0.20 limit.
        TestCluster c = twoBusyLarge(limited("0.20"));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
    }

    @Test
    void aReplacementPastTheLimitIsRefused() {
        TestCluster c = twoBusyLarge(limited("0.15"));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("NodePool default past its gantry.dev/limit-cost-per-hour of $0.1500/h")
                .contains("$0.1000/h staying").contains("$0.1000/h added");
    }

    @Test
    void nodesAnotherCommandIsRemovingDoNotCount() {
        TestCluster c = limited("0.20");
        Node leaving = c.nodeOf("n2", "large", "on-demand", Map.of());
        leaving = new Node(leaving.name(), leaving.providerId(), leaving.labels(), leaving.annotations(), List.of(Taint.DISRUPTED),
                leaving.allocatable(), true, false, false, leaving.createdAt());
        twoBusyLarge(c).node(leaving);
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
    }

    @Test
    void aPoolWithoutALimitOrACommandWithoutReplacementsIsNotGuarded() {
        TestCluster c = twoBusyLarge(TestCluster.standard());
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
        TestCluster d = twoBusyLarge(limited("0.01"));
        ConsolidationCommand delete = new ConsolidationCommand(ConsolidationCommand.Method.SINGLE_NODE,
                NodePool.Reason.Underutilized, List.of("n0"), List.of("n0"), List.of(), Map.of(), 0.10, 0, "test");
        assertThat(CostLimitGuard.breaks(d.input(), delete)).isNull();
    }

    /** Drift replaces at any price (drift.go), but not past the pool's dollar limit: the node waits with the reason. */
    @Test
    void driftDoesNotReplacePastTheLimit() {
        TestCluster ok = twoBusyLarge(limited("0.20"));
        assertThat(DriftReplacement.decide(ok.input(), List.of("n0")).command())
                .hasValueSatisfying(cmd -> assertThat(cmd.replacements()).hasSize(1));
        TestCluster over = twoBusyLarge(limited("0.15"));
        ConsolidationDecision d = DriftReplacement.decide(over.input(), List.of("n0"));
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("drifted, but its replacement would take "
                + "NodePool default past its gantry.dev/limit-cost-per-hour"));
    }

    /** Consolidation decides nothing whose replacements break the limit (here the pool is over a lowered limit). */
    @Test
    void consolidationDecidesNothingPastTheLimit() {
        TestCluster c = limited("0.05");
        c.node("n0", "xlarge", c.pod(1500)).node("n1", "small", c.pod(500));
        c.decide().command().ifPresent(cmd -> assertThat(CostLimitGuard.breaks(c.input(), cmd)).isNull());
        TestCluster free = TestCluster.standard();
        free.node("n0", "xlarge", free.pod(1500)).node("n1", "small", free.pod(500));
        assertThat(free.decide().command()).hasValueSatisfying(cmd -> assertThat(cmd.replacements()).isNotEmpty());
    }

    /** One node stays ($0.10), one claim is launching ($0.10): a $0.10 replacement fits $0.25 only if the claim is ignored. */
    @Test
    void aClaimStillLaunchingCountsAgainstTheLimit() {
        TestCluster c = twoBusyLarge(limited("0.25"));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
        c.launching("f0", "large");
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("NodePool default past its gantry.dev/limit-cost-per-hour of $0.2500/h")
                .contains("$0.1000/h staying, $0.1000/h in flight, $0.1000/h added");
    }

    /** Within the limit with the claim counted; a claim of a pool the input does not offer is not this pool's. */
    @Test
    void aReplacementThatFitsBesideTheClaimsInFlightGoesAhead() {
        TestCluster c = twoBusyLarge(limited("0.30")).launching("f0", "large");
        c.inFlight.add(new ConsolidationInput.LaunchingClaim("f1", "elsewhere", "2xlarge", TestCluster.ZONES.get(0), "on-demand"));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand"))).isNull();
    }

    @Test
    void driftWaitsWhileAClaimInFlightLeavesNoRoom() {
        TestCluster c = twoBusyLarge(limited("0.25"));
        assertThat(DriftReplacement.decide(c.input(), List.of("n0")).command()).isPresent();
        c.launching("f0", "large");
        ConsolidationDecision d = DriftReplacement.decide(c.input(), List.of("n0"));
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("drifted, but its replacement would take "
                + "NodePool default past its gantry.dev/limit-cost-per-hour").contains("$0.1000/h in flight"));
    }

    /** n0 (xlarge) would go for a large: $0.10 staying + $0.10 added fits $0.25, not with a large launching too. */
    @Test
    void consolidationWaitsWhileAClaimInFlightLeavesNoRoom() {
        TestCluster c = limited("0.25");
        c.node("n0", "xlarge", c.pod(1500)).node("n1", "large", c.pod(1500));
        assertThat(c.decide().command()).hasValueSatisfying(cmd -> assertThat(cmd.replacements()).isNotEmpty());
        c.launching("f0", "large");
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).anySatisfy(v -> assertThat(v.toString()).contains("NodePool default past its "
                + "gantry.dev/limit-cost-per-hour").contains("$0.1000/h in flight"));
    }

    /**
     * A node of the pool whose claim the snapshot did not match (its node came up before the store recorded the instance:
     * the claim is then not in flight either) counts as a node, as the provisioner counts every node of the pool.
     */
    @Test
    void aNodeOfThePoolWithoutAMatchedClaimCountsOnce() {
        TestCluster c = twoBusyLarge(limited("0.25"));
        c.nodes.add(new ConsolidationInput.ClusterNode(c.nodeOf("n2", "large", "on-demand", Map.of()), List.of(), null, null,
                false, null, false));
        assertThat(CostLimitGuard.breaks(c.input(), SpotSplitGuardTest.replace(c, "n0", "on-demand")))
                .contains("$0.2000/h staying, $0.0000/h in flight, $0.1000/h added");
    }
}
