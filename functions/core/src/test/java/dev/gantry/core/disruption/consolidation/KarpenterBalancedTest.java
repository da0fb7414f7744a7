package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/karpenter {@code pkg/controllers/disruption/balanced_test.go} (ScoreMove with the RFC's
 * example pool: ten nodes, $58.08/day, disruption 90) and the Balanced pre-filter of singlenodeconsolidation.go.
 * A move is approved when (savings / pool cost) / (disruption / pool disruption) ≥ 1/k, k = 2.
 */
class KarpenterBalancedTest {
    private static final double COST = 58.08;
    private static final double DISRUPTION = 90;

    private static boolean approved(double savings, double disruption, double cost, double total) {
        return Balanced.score(savings, disruption, cost, total) >= 1.0 / Balanced.K;
    }

    @Test
    @DisplayName("balanced_test.go: should approve an oversized node consolidation / a spare capacity delete")
    void clearSavingsAreApproved() {
        assertThat(Balanced.score(7.26, 4, COST, DISRUPTION)).isCloseTo((7.26 / COST) / (4 / DISRUPTION), Offset.offset(1e-9));
        assertThat(approved(7.26, 4, COST, DISRUPTION)).isTrue();
        assertThat(approved(4.84, 5, COST, DISRUPTION)).isTrue();
    }

    @Test
    @DisplayName("balanced_test.go: should reject a marginal move / a well-packed node with zero savings")
    void marginalOrZeroSavingsAreRejected() {
        assertThat(approved(2.42, 9, COST, DISRUPTION)).isFalse();
        assertThat(Balanced.score(0, 11, COST, DISRUPTION)).isZero();
    }

    @Test
    @DisplayName("balanced_test.go: should approve a replace in a uniform pool")
    void theSameMoveIsApprovedInAUniformPool() {
        assertThat(approved(2.42, 9, 48.40, DISRUPTION)).isTrue();
    }

    @Test
    @DisplayName("balanced_test.go: should approve low-disruption nodes and reject high-disruption nodes")
    void disruptionDecidesBetweenEqualSavings() {
        assertThat(approved(4.84, 5, COST, 117)).isTrue();
        assertThat(approved(4.84, 32, COST, 117)).isFalse();
    }

    @Test
    @DisplayName("balanced_test.go: should produce the same score regardless of pool size")
    void theScoreIsScaleInvariant() {
        assertThat(Balanced.score(7.26, 4, COST, DISRUPTION)).isCloseTo(Balanced.score(72.6, 40, 580.8, 900), Offset.offset(1e-9));
    }

    @Test
    @DisplayName("balanced_test.go: edge cases with zero values (+Inf for zero disruption, reject zero savings, reject zero pool cost)")
    void zeroValuesAreGuarded() {
        assertThat(Balanced.score(4.84, 0, COST, DISRUPTION)).isInfinite();
        assertThat(approved(0, 0, COST, DISRUPTION)).isFalse();
        assertThat(approved(4.84, 5, 0, DISRUPTION)).isFalse();
    }

    @Test
    @DisplayName("balanced_test.go: cross-NodePool scoring should produce identical scores for proportionally equivalent moves")
    void proportionallyEquivalentMovesScoreTheSame() {
        assertThat(Balanced.score(4.84, 4, 48.40, DISRUPTION)).isCloseTo(Balanced.score(1.45, 4, 14.50, DISRUPTION), Offset.offset(0.01));
    }

    @Test
    @DisplayName("singlenodeconsolidation.go: skip candidates whose best-case score (a delete) cannot pass the threshold")
    void aBalancedPoolSkipsANodeEvenADeleteWouldNotJustify() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.Balanced, Optional.of(Duration.ZERO),
                java.util.List.of(SuiteFixtures.budget("100%")), java.util.Map.of());
        // Pool: 2xlarge (0.40, disruption 2) + small (0.05, disruption 7); deleting the small saves 1/9 of the cost
        // for 7/9 of the disruption: score 0.14 < 0.5.
        c.node("big", "2xlarge", c.pod(7000));
        c.node("busy", "small", c.pod(100), c.pod(100), c.pod(100), c.pod(100), c.pod(100), c.pod(100));
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).isEmpty();
        assertThat(SuiteFixtures.why(d, "busy")).startsWith("Balanced");
    }
}
