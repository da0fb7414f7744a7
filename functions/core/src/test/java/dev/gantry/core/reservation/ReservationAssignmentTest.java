package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReservationAssignmentTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Offering RESERVED = new Offering("us-east-1a", null, "reserved", 0.096 / 1e7, true, 0.096);
    private static final InstanceType M5 = new InstanceType("m5.large", Map.of(), Resources.of(2000, 8L << 30),
            Resources.ZERO, List.of(Offering.of("us-east-1a", "on-demand", 0.096), Offering.of("us-east-1a", "spot", 0.04),
            RESERVED));
    private final ReservationLedger ledger = new ReservationLedger();

    private static CapacityReservation odcr(String id, int available) {
        return new CapacityReservation(id, "m5.large", "us-east-1a", "123456789012", "targeted", "default", false, null,
                available);
    }

    private static NodeClaimPlan claim(String name, String... capacityTypes) {
        Requirements reqs = Requirements.fromLabels(Map.of()).with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(capacityTypes));
        return new NodeClaimPlan(name, "default", reqs, List.of(M5), M5, RESERVED, List.of(), Resources.ZERO);
    }

    private static SchedulingResult plan(NodeClaimPlan... claims) {
        return new SchedulingResult(Map.of(), Map.of(), List.of(claims), List.of(), 0, 0, "test");
    }

    @Test
    @DisplayName("aws pkg/providers/instance/instance.go Create + launchtemplate/types.go: a reserved claim is pinned to one"
            + " reservation, its type and zone, and carries the capacity-reservation-id/-type/-interruptible labels")
    void aReservedClaimIsPinnedToOneReservationWithItsLabels() {
        ledger.sync(List.of(odcr("cr-0000000000000000a", 2)), NOW);

        NodeClaimPlan c = ReservationAssignment.apply(plan(claim("a", "reserved", "on-demand")), List.of(), ledger, NOW)
                .newClaims().getFirst();

        assertThat(c.requirements().singleValuedLabels()).containsEntry(WellKnownLabels.CAPACITY_TYPE, "reserved")
                .containsEntry(ReservationLabels.ID, "cr-0000000000000000a")
                .containsEntry(ReservationLabels.TYPE, "default").containsEntry(ReservationLabels.INTERRUPTIBLE, "false")
                .containsEntry(WellKnownLabels.ZONE, "us-east-1a").containsEntry(WellKnownLabels.INSTANCE_TYPE, "m5.large");
        assertThat(c.instanceTypeOptions()).extracting(InstanceType::name).containsExactly("m5.large");
        assertThat(ledger.available("cr-0000000000000000a")).isEqualTo(1);
    }

    @Test
    @DisplayName("core designs/capacity-reservations.md (integer count per offering), tracked across a batch: two slots,"
            + " three claims: the third falls back to the pool's other capacity types")
    void aBatchTakesNoMoreSlotsThanTheReservationHas() {
        ledger.sync(List.of(odcr("cr-0000000000000000a", 2)), NOW);

        List<NodeClaimPlan> out = ReservationAssignment.apply(plan(claim("a", "reserved", "on-demand"),
                claim("b", "reserved", "on-demand"), claim("c", "reserved", "on-demand")), List.of(), ledger, NOW).newClaims();

        assertThat(out).extracting(c -> c.offering().capacityType()).containsExactly("reserved", "reserved", "on-demand");
        assertThat(out.get(2).requirements().get(WellKnownLabels.CAPACITY_TYPE)).isEqualTo(ValueSet.in("on-demand"));
        assertThat(out.get(2).requirements().has(ReservationLabels.ID)).isFalse();
    }

    @Test
    @DisplayName("Gantry's own: a claim another run recorded Launching into the reservation (not yet in EC2's count)"
            + " holds a slot, so two runs do not both take the last one")
    void aClaimInFlightFromAnotherRunHoldsItsSlot() {
        ledger.sync(List.of(odcr("cr-0000000000000000a", 1)), NOW);
        NodeClaimPlan other = ReservationAssignment.pinned(claim("other", "reserved"), odcr("cr-0000000000000000a", 1));
        NodeClaim stored = NodeClaim.launching("other", "default", "h", other.requirements().toList(), List.of("m5.large"),
                List.of(), "m5.large", "us-east-1a", "reserved", 0.096, NOW);

        SchedulingResult out = ReservationAssignment.apply(plan(claim("mine", "reserved", "spot")), List.of(stored), ledger, NOW);

        assertThat(out.newClaims().getFirst().offering().capacityType()).isEqualTo("spot");
    }

    @Test
    @DisplayName("docs tasks/odcrs.md: a pool that allows only reserved waits for a slot rather than launch on-demand")
    void aReservedOnlyClaimWithoutASlotLeavesItsPodsPending() {
        ledger.sync(List.of(odcr("cr-0000000000000000a", 0)), NOW);

        SchedulingResult out = ReservationAssignment.apply(plan(claim("a", "reserved")), List.of(), ledger, NOW);

        assertThat(out.newClaims()).isEmpty();
    }

    @Test
    @DisplayName("aws pkg/providers/instance/filter/filter.go CapacityReservationTypeFilter: an ODCR before a Capacity Block")
    void anOdcrIsTakenBeforeACapacityBlock() {
        ledger.sync(List.of(new CapacityReservation("cr-0000000000000000b", "m5.large", "us-east-1a", "1", "targeted",
                "capacity-block", false, NOW.plusSeconds(86_400), 5), odcr("cr-0000000000000000a", 1)), NOW);

        List<NodeClaimPlan> out = ReservationAssignment.apply(plan(claim("a", "reserved"), claim("b", "reserved")),
                List.of(), ledger, NOW).newClaims();

        assertThat(out).extracting(c -> c.requirements().singleValuedLabels().get(ReservationLabels.TYPE))
                .containsExactly("default", "capacity-block");
    }
}
