package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The solver's plan bounded by the reservations' slots, as Karpenter's solver bounds it (kubernetes-sigs/karpenter
 * {@code pkg/controllers/provisioning/scheduling/reservationmanager.go} CanReserve/Reserve, from {@code nodeclaim.go}).
 * The planner here is a stand-in that plans one claim per pod on the cheapest available offering it is offered, so the
 * rounds can be read; {@code ProvisionerReservationTest} runs the real solver.
 */
class ReservedSlotsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final String ZONE = "us-east-1a";
    private static final InstanceType M5 = new InstanceType("m5.large", Map.of(), Resources.of(2000, 8L << 30),
            Resources.ZERO, List.of(Offering.of(ZONE, "on-demand", 0.096),
            new Offering(ZONE, null, "reserved", 0.096 / 1e7, true, 0.096)));
    private static final InstanceType SMALL = new InstanceType("t4g.small", Map.of(), Resources.of(2000, 2L << 30),
            Resources.ZERO, List.of(Offering.of(ZONE, "on-demand", 0.0168)));
    private static final NodePool POOL = new NodePool("default", Map.of(), new NodePool.Template(Map.of(), Map.of(),
            List.of(), List.of(), List.of(), new NodePool.NodeClassRef(null, null, "default"),
            Optional.of(Duration.ofHours(720)), Optional.empty()), null, Map.of(), null, null);
    private final List<SchedulingInput> inputs = new ArrayList<>();

    /** One claim per pod on the cheapest available offering of the pool's types; records every input it is given. */
    private final Function<SchedulingInput, SchedulingResult> planner = in -> {
        inputs.add(in);
        List<NodeClaimPlan> claims = new ArrayList<>();
        for (Pod p : in.pending()) {
            InstanceType best = null;
            Offering cheapest = null;
            for (InstanceType t : in.pools().getFirst().instanceTypes()) {
                for (Offering o : t.offerings()) {
                    if (o.available() && (cheapest == null || o.pricePerHour() < cheapest.pricePerHour())) {
                        best = t;
                        cheapest = o;
                    }
                }
            }
            claims.add(new NodeClaimPlan("c-" + p.name(), "default", Requirements.fromLabels(Map.of())
                    .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("reserved", "on-demand")), List.of(best), best, cheapest,
                    List.of(p), p.requests()));
        }
        return new SchedulingResult(Map.of(), Map.of(), claims, List.of(),
                claims.stream().mapToDouble(NodeClaimPlan::pricePerHour).sum(), 0, "stand-in");
    };

    private static SchedulingInput input(int pods) {
        List<Pod> pending = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            pending.add(Pod.builder("default", "w-" + i).uid("u-" + i).requests(Resources.of(1500, 1L << 30)).build());
        }
        return new SchedulingInput(pending, List.of(), List.of(), List.of(),
                List.of(new SchedulingInput.PoolOffer(POOL, List.of(M5, SMALL))), Map.of());
    }

    @Test
    @DisplayName("core reservationmanager.go CanReserve: 2 slots and 5 claims the solver put on the reserved offering"
            + " give 2 reserved claims and 3 planned again with that offering unavailable, at their own price")
    void claimsBeyondTheSlotsArePlannedAgainWithTheReservedOfferingUnavailable() {
        SchedulingResult out = ReservedSlots.solve(planner, input(5), (type, zone) -> type.equals("m5.large") ? 2 : 0);

        assertThat(out.newClaims()).extracting(c -> c.offering().capacityType() + " " + c.instanceType().name())
                .containsExactlyInAnyOrder("reserved m5.large", "reserved m5.large", "on-demand t4g.small",
                        "on-demand t4g.small", "on-demand t4g.small");
        assertThat(out.totalPricePerHour()).isCloseTo(3 * 0.0168 + 2 * 0.096 / 1e7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(out.newClaims()).extracting(NodeClaimPlan::name).doesNotHaveDuplicates();
        assertThat(out.newClaims().stream().mapToInt(c -> c.pods().size()).sum()).isEqualTo(5);
        SchedulingInput again = inputs.get(1);
        assertThat(again.pending()).hasSize(3);
        assertThat(again.pools().getFirst().instanceTypes().getFirst().offerings())
                .filteredOn(o -> o.capacityType().equals("reserved")).singleElement()
                .satisfies(o -> assertThat(o.available()).isFalse());
        assertThat(again.pools().getFirst().nodeCount()).as("the kept claims count against the pool's limits").isEqualTo(2);
    }

    @Test
    @DisplayName("Gantry's own: a plan within the slots is returned as it is, solved once")
    void aPlanWithinTheSlotsIsUnchanged() {
        SchedulingInput in = input(2);
        SchedulingResult first = planner.apply(in);
        inputs.clear();

        SchedulingResult out = ReservedSlots.solve(planner, in, (type, zone) -> 2);

        assertThat(out.newClaims()).isEqualTo(first.newClaims());
        assertThat(inputs).hasSize(1);
    }

    @Test
    @DisplayName("Gantry's own (as ReservationAssignment counts): a run's slots are the ledger's counts less the claims"
            + " recorded Launching into each reservation")
    void slotsAreTheLedgersCountLessClaimsLaunchingIntoIt() {
        ReservationLedger ledger = new ReservationLedger();
        CapacityReservation r = new CapacityReservation("cr-0000000000000000a", "m5.large", ZONE, "123456789012",
                "targeted", "default", false, null, 3);
        ledger.sync(List.of(r), NOW);
        NodeClaimPlan pinned = ReservationAssignment.pinned(new NodeClaimPlan("x", "default",
                Requirements.fromLabels(Map.of()), List.of(M5), M5, M5.offerings().get(1), List.of(), Resources.ZERO), r);
        NodeClaim launching = NodeClaim.launching("x", "default", "h", pinned.requirements().toList(), List.of("m5.large"),
                List.of(), "m5.large", ZONE, "reserved", 0.096, NOW);

        assertThat(ReservedSlots.of(ledger, List.of(launching), NOW).of("m5.large", ZONE)).isEqualTo(2);
        assertThat(ReservedSlots.of(ledger, List.of(), NOW).of("m5.large", "us-east-1b")).isZero();
    }
}
