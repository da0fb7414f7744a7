package dev.gantry.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NodeClaim object's {@code Drifted} condition follows the drift step's stamp on the claim. */
class ClaimProjectionDriftTest {
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private static NodeClaim claim() {
        return NodeClaim.launching("general-abc12", "general", null, List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "on-demand", 0.096, NOW.minusSeconds(600))
                .launched("i-0abc", "m5.large", "us-east-1a", "on-demand", 0.096, NOW.minusSeconds(590));
    }

    @Test
    void aDriftedClaimShowsDriftedTrueWithItsReasonSinceItFirstDrifted() {
        NodeClaim drifted = claim().withDrift(DriftStamp.launched("p1", "v3", "c1", "v3").drift("AMIDrifted", NOW));

        assertThat(ClaimProjection.Drift.FROM_STAMP.of(drifted)).hasValueSatisfying(c -> {
            assertThat(c.type()).isEqualTo("Drifted");
            assertThat(c.status()).isEqualTo(Condition.Status.True);
            assertThat(c.reason()).isEqualTo("AMIDrifted");
            assertThat(c.lastTransitionTime()).isEqualTo(NOW);
        });
    }

    @Test
    void aClaimNotDriftedOrNotStampedHasNoDriftedCondition() {
        assertThat(ClaimProjection.Drift.FROM_STAMP.of(claim())).isEmpty();
        assertThat(ClaimProjection.Drift.FROM_STAMP.of(claim().withDrift(DriftStamp.launched("p1", "v3", "c1", "v3")))).isEmpty();
    }
}
