package dev.gantry.core.reservation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gives each new claim the solver planned on a {@code reserved} offering one slot of a concrete capacity reservation,
 * or takes {@code reserved} away from it when none is left. A claim that gets a slot is pinned to it: its requirements
 * say capacity type {@code reserved}, the reservation's instance type and zone, and the three
 * {@link ReservationLabels} (so its node registers with them, and its launch targets that reservation); its options
 * are that one type. Karpenter pins a reserved launch the same way (aws {@code pkg/providers/instance/instance.go}
 * Create: one reservation per zone, its id in the launch template; {@code getCapacityType} prefers reserved).
 *
 * <p><b>The count.</b> Slots come from the process's {@link ReservationLedger} (EC2's available count at the last
 * sync, less this process's takes since), less the claims the table holds as {@code Launching} into the reservation:
 * those are recorded by any run, of any Lambda, and not yet launched, so EC2's count cannot include them. Gantry's
 * own choice: counting in-flight claims from the table rather than a conditional write on a counter item, because the
 * count's truth is EC2's and changes outside Gantry (a user's own launches into a shared reservation, terminations,
 * a modified reservation), so a stored counter would drift from it; the table narrows a race between two runs to the
 * moment between one's read and the other's record, and EC2 refuses the launch that would overfill it
 * ({@code ReservationCapacityExceeded}), which marks the offering unavailable so the claim's pods are planned again on
 * on-demand or spot.
 *
 * <p>A claim that gets no slot keeps the pool's other capacity types (its offering becomes the cheapest available one
 * of its type and zone among them); one whose pool allows only {@code reserved} is dropped, its pods unschedulable
 * until a slot frees. Pure apart from the ledger's takes.
 */
public final class ReservationAssignment {
    /** Why a reserved-only claim found no slot. */
    public static final String NO_SLOT = "every selected capacity reservation is full";

    private ReservationAssignment() {
    }

    /** {@code plan} with its reserved claims pinned to reservations or moved off {@code reserved}; as is when none. */
    public static SchedulingResult apply(SchedulingResult plan, List<NodeClaim> stored, ReservationLedger ledger,
                                         Instant now) {
        if (plan.newClaims().stream().noneMatch(ReservationAssignment::plannedReserved)) {
            return plan;
        }
        Map<String, Integer> inFlight = launchingByReservation(stored);
        List<NodeClaimPlan> out = new ArrayList<>();
        List<SchedulingResult.Unschedulable> unschedulable = new ArrayList<>(plan.unschedulable());
        double total = plan.totalPricePerHour();
        for (NodeClaimPlan c : plan.newClaims()) {
            if (!plannedReserved(c)) {
                out.add(c);
                continue;
            }
            Optional<CapacityReservation> slot = take(ledger, c.instanceType().name(), c.offering().zone(), inFlight, now);
            if (slot.isPresent()) {
                out.add(pinned(c, slot.get()));
                continue;
            }
            Optional<NodeClaimPlan> off = withoutReserved(c);
            if (off.isPresent()) {
                total += off.get().pricePerHour() - c.pricePerHour();
                out.add(off.get());
            } else {
                c.pods().forEach(p -> unschedulable.add(new SchedulingResult.Unschedulable(p, NO_SLOT)));
                total -= c.pricePerHour();
            }
        }
        return new SchedulingResult(plan.existingNodes(), plan.inFlightClaims(), out, unschedulable, total,
                plan.lowerBoundPerHour(), plan.strategy());
    }

    /**
     * {@link #apply} for one claim planned elsewhere (a consolidation replacement): pinned, moved off {@code reserved},
     * or as it is when it has nowhere to go (its launch then finds no capacity and the command is abandoned).
     */
    public static NodeClaimPlan one(NodeClaimPlan plan, java.util.function.Supplier<List<NodeClaim>> stored,
                                    ReservationLedger ledger, Instant now) {
        if (!plannedReserved(plan)) {
            return plan;
        }
        List<NodeClaimPlan> out = apply(new SchedulingResult(Map.of(), Map.of(), List.of(plan), List.of(),
                plan.pricePerHour(), 0, "replacement"), stored.get(), ledger, now).newClaims();
        return out.isEmpty() ? plan : out.getFirst();
    }

    private static boolean plannedReserved(NodeClaimPlan c) {
        return WellKnownLabels.CAPACITY_RESERVED.equals(c.offering().capacityType());
    }

    /** Launching claims pinned to each reservation, as stored. */
    static Map<String, Integer> launchingByReservation(List<NodeClaim> stored) {
        Map<String, Integer> out = new HashMap<>();
        for (NodeClaim c : stored) {
            if (c.state() != NodeClaimState.Launching) {
                continue;
            }
            ValueSet id = Requirements.of(c.requirements()).get(ReservationLabels.ID);
            if (id.isFinite() && id.values().size() == 1) {
                out.merge(id.values().iterator().next(), 1, Integer::sum);
            }
        }
        return out;
    }

    /**
     * A slot of a reservation for the type and zone whose ledger count exceeds the claims in flight into it; the
     * ledger's order (ODCR, Capacity Block, interruptible; the most slots). Each in-flight claim is charged once: its
     * count is spent against the first take that meets it.
     */
    private static Optional<CapacityReservation> take(ReservationLedger ledger, String type, String zone,
                                                      Map<String, Integer> inFlight, Instant now) {
        while (true) {
            Optional<CapacityReservation> r = ledger.take(type, zone, now);
            if (r.isEmpty()) {
                return r;
            }
            int pending = inFlight.getOrDefault(r.get().id(), 0);
            if (pending == 0) {
                return r;
            }
            // That slot is an in-flight claim's (recorded Launching, not yet counted by EC2): spend it on the claim.
            inFlight.put(r.get().id(), pending - 1);
        }
    }

    /** {@code c} pinned to {@code r}: requirements, the one option, and the reserved offering in r's zone. */
    static NodeClaimPlan pinned(NodeClaimPlan c, CapacityReservation r) {
        Requirements reqs = c.requirements()
                .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(WellKnownLabels.CAPACITY_RESERVED))
                .with(WellKnownLabels.INSTANCE_TYPE, ValueSet.in(r.instanceType()))
                .with(WellKnownLabels.ZONE, ValueSet.in(r.availabilityZone()));
        for (Map.Entry<String, String> e : ReservationLabels.of(r).entrySet()) {
            reqs = reqs.with(e.getKey(), ValueSet.in(e.getValue()));
        }
        return new NodeClaimPlan(c.name(), c.nodePool(), reqs, List.of(c.instanceType()), c.instanceType(), c.offering(),
                c.pods(), c.requests());
    }

    /** {@code c} without {@code reserved}: the cheapest available offering of its type and zone it still allows. */
    private static Optional<NodeClaimPlan> withoutReserved(NodeClaimPlan c) {
        ValueSet types = c.requirements().get(WellKnownLabels.CAPACITY_TYPE);
        List<String> others = List.of(WellKnownLabels.CAPACITY_SPOT, WellKnownLabels.CAPACITY_ON_DEMAND).stream()
                .filter(types::has).toList();
        if (others.isEmpty()) {
            return Optional.empty();
        }
        InstanceType t = c.instanceType();
        Optional<Offering> o = t.offerings().stream()
                .filter(x -> x.available() && others.contains(x.capacityType()) && x.zone().equals(c.offering().zone()))
                .min(Comparator.comparingDouble(Offering::pricePerHour));
        if (o.isEmpty()) {
            o = t.offerings().stream().filter(x -> x.available() && others.contains(x.capacityType()))
                    .min(Comparator.comparingDouble(Offering::pricePerHour));
        }
        if (o.isEmpty()) {
            return Optional.empty();
        }
        Requirements reqs = c.requirements().with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(others));
        return Optional.of(new NodeClaimPlan(c.name(), c.nodePool(), reqs, c.instanceTypeOptions(), t, o.get(), c.pods(),
                c.requests()));
    }
}
