package dev.gantry.core.disruption;

import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.NodePool.Budget;
import dev.gantry.core.model.NodePool.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DisruptionBudgetsTest {
    static final Instant MONDAY_10 = Instant.parse("2025-06-02T10:00:00Z");

    static NodePool with(Budget... budgets) {
        return poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty, Optional.of(Duration.ZERO),
                List.of(budgets)), Optional.empty(), Optional.empty(), Map.of());
    }

    static Budget budget(String nodes) {
        return new Budget(nodes, Optional.empty(), Optional.empty(), List.of());
    }

    @Test
    void percentagesRoundUpAsKarpenterAndPdbMaxUnavailableDo() {
        // Karpenter's GetAllowedDisruptions scales with roundUp=true: 10% of 5 nodes allows 1, 20% of 19 allows 4.
        assertThat(budget("10%").allowedOf(10)).isEqualTo(1);
        assertThat(budget("10%").allowedOf(5)).isEqualTo(1);
        assertThat(budget("20%").allowedOf(19)).isEqualTo(4);
        assertThat(budget("0%").allowedOf(19)).isZero();
        assertThat(budget("100%").allowedOf(3)).isEqualTo(3);
        assertThat(budget("3").allowedOf(100)).isEqualTo(3);
    }

    @Test
    void theDefaultBudgetAllowsOneOfTenAtATime() {
        NodePool p = with(Budget.DEFAULT);
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, MONDAY_10)).isEqualTo(1);
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 1, MONDAY_10)).isZero();
    }

    @Test
    void theMostRestrictiveApplicableBudgetWins() {
        NodePool p = with(budget("50%"), budget("2"));
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, MONDAY_10)).isEqualTo(2);
    }

    @Test
    void budgetsForOtherReasonsDoNotLimit() {
        NodePool p = with(new Budget("0", Optional.empty(), Optional.empty(), List.of(Reason.Drifted, Reason.Underutilized)), budget("5"));
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, MONDAY_10)).isEqualTo(5);
        assertThat(DisruptionBudgets.allowed(p, Reason.Drifted, 10, 0, MONDAY_10)).isZero();
    }

    @Test
    void aScheduledBudgetOnlyLimitsInsideItsWindow() {
        Budget businessHours = new Budget("0", Optional.of("0 9 * * mon-fri"), Optional.of(Duration.ofHours(8)), List.of());
        NodePool p = with(businessHours);
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, MONDAY_10)).isZero();
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, Instant.parse("2025-06-02T18:00:00Z"))).isEqualTo(Integer.MAX_VALUE);
        assertThat(DisruptionBudgets.allowed(p, Reason.Empty, 10, 0, Instant.parse("2025-06-01T10:00:00Z"))).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aMalformedBudgetFailsClosed() {
        assertThat(DisruptionBudgets.allowed(with(new Budget("1", Optional.of("bad"), Optional.of(Duration.ofHours(1)), List.of())),
                Reason.Empty, 10, 0, MONDAY_10)).isZero();
        assertThat(DisruptionBudgets.allowed(with(budget("lots")), Reason.Empty, 10, 0, MONDAY_10)).isZero();
    }

    @Test
    void neverGoesBelowZero() {
        assertThat(DisruptionBudgets.allowed(with(budget("1")), Reason.Empty, 10, 4, MONDAY_10)).isZero();
    }
}
