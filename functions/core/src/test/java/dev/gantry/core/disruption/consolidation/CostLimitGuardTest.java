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
}
