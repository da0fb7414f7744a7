package dev.gantry.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NodeClaim object's {@code Drifted} and {@code DisruptionReason} conditions, from the claim's drift stamp and disruption. */
class ClaimProjectionConditionsTest {
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

    /**
     * Karpenter's termination controller (core pkg/controllers/node/termination/controller.go, awaitDrain) sets Drained
     * Unknown with reason and message "Draining" as the drain begins; InstanceTerminating comes after the drain.
     */
    @Test
    void aDrainingClaimShowsDrainedUnknownSinceItsDeletionAndNoInstanceTerminating() {
        NodeClaim c = claim().registered("ip-10-0-1-5.ec2.internal", NOW.minusSeconds(560)).initialized(NOW.minusSeconds(540));
        var projection = new ClaimProjection(ClaimProjection.CapacityOf.NONE, ClaimProjection.Drift.NONE);
        assertThat(projection.project(c, java.util.Optional.empty(), NOW).status().conditions())
                .extracting(Condition::type).doesNotContain("Drained", "InstanceTerminating");

        var draining = projection.project(c.draining("expired", NOW.minusSeconds(30)), java.util.Optional.empty(), NOW);
        assertThat(draining.status().conditions()).filteredOn(x -> x.type().equals("Drained")).singleElement().satisfies(x -> {
            assertThat(x.status()).isEqualTo(Condition.Status.Unknown);
            assertThat(x.reason()).isEqualTo("Draining");
            assertThat(x.message()).isEqualTo("Draining");
            assertThat(x.lastTransitionTime()).isEqualTo(NOW.minusSeconds(30));
        });
        assertThat(draining.status().conditions()).extracting(Condition::type).doesNotContain("InstanceTerminating");
        // The same claim projects the same object: nothing moves from one sweep to the next.
        assertThat(projection.project(c.draining("expired", NOW.minusSeconds(30)), java.util.Optional.empty(), NOW.plusSeconds(60)))
                .isEqualTo(draining);
    }

    /**
     * Karpenter's DisruptionReason (core pkg/controllers/disruption/queue.go markDisrupted): True with the method's
     * reason once the candidate is tainted, kept through its deletion; nothing while the command only validates, nor
     * for a deletion that is not a disruption method's.
     */
    @Test
    void aCandidateShowsDisruptionReasonOnceTaintedAndThroughItsDeletion() {
        NodeClaim c = claim().registered("node-a", NOW.minusSeconds(580)).initialized(NOW.minusSeconds(570));
        dev.gantry.core.lifecycle.ConsolidationMark validating = new dev.gantry.core.lifecycle.ConsolidationMark("c-1", c.name(),
                dev.gantry.core.lifecycle.ConsolidationMark.Phase.Validating, 0, List.of(c.name()), List.of("node-a"), List.of(),
                "underutilized", 0.096, 0.05, NOW.minusSeconds(30), NOW.plusSeconds(600), NOW.minusSeconds(45));
        assertThat(ClaimProjection.disruptionReason(c.withConsolidation(validating))).as("not tainted yet").isEmpty();

        dev.gantry.core.lifecycle.ConsolidationMark launching = validating.next(
                dev.gantry.core.lifecycle.ConsolidationMark.Phase.Launching, List.of("general-r1"), NOW.plusSeconds(600), NOW);
        assertThat(ClaimProjection.disruptionReason(c.withConsolidation(launching))).hasValueSatisfying(x -> {
            assertThat(x.type()).isEqualTo("DisruptionReason");
            assertThat(x.status()).isEqualTo(Condition.Status.True);
            assertThat(x.reason()).isEqualTo("Underutilized");
            assertThat(x.message()).isEqualTo("Underutilized");
            assertThat(x.lastTransitionTime()).isEqualTo(NOW.minusSeconds(30));
        });
        assertThat(ClaimProjection.disruptionReason(c.draining("drifted", NOW))).hasValueSatisfying(x ->
                assertThat(x.reason()).isEqualTo("Drifted"));
        assertThat(ClaimProjection.disruptionReason(c.draining("expired", NOW))).as("expiry is forceful, not queued").isEmpty();
        assertThat(ClaimProjection.disruptionReason(c.draining("interrupted", NOW))).isEmpty();
    }
}
