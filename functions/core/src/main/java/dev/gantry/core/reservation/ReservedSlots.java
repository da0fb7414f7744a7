package dev.gantry.core.reservation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A plan that never puts more new claims on a reserved offering than its reservations have slots, so the claims beyond
 * them are planned at the price they will pay. The solver sees a reserved offering as free (on-demand / 10^7,
 * {@link ReservedOfferings}) and, left alone, plans every claim it can on it; the claims beyond the slots then launched
 * off the reservation on the same instance type, at an on-demand price the plan never compared. Karpenter bounds this
 * inside its solver: a {@code ReservationManager} counts each reservation's capacity and a NodeClaim may add a reserved
 * offering only while {@code CanReserve} (kubernetes-sigs/karpenter
 * {@code pkg/controllers/provisioning/scheduling/reservationmanager.go}, used from {@code nodeclaim.go} when pods are
 * added). Gantry does it around the solver:
 * <ol>
 *   <li>solve as usual;</li>
 *   <li>per reserved (instance type, zone), keep as many of its claims as it has {@link Slots} (those with the most pods
 *       first, then the plan's order);</li>
 *   <li>solve the pods of the claims beyond again, with those reserved offerings unavailable, over the existing nodes and
 *       claims in flight as the first plan left them (its nominations counted) and the pools' usage counting the kept
 *       claims; repeat while a re-solve overfills another reserved offering (each round marks at least one more full,
 *       so it ends).</li>
 * </ol>
 * The result keeps the first plan's claims and nominations and adds the re-solves'. Trade-off (Gantry's own): the
 * re-solved pods cannot share a kept claim's spare room, which an in-solver count could offer; in exchange the solver
 * stays untouched and the rule sits in one place. Pure: the slots are read once per (type, zone).
 */
public final class ReservedSlots {
    /** The most re-solves: each marks at least one more reserved offering full, and few pools have more. */
    static final int MAX_ROUNDS = 8;

    /** How many more claims reserved offerings of {@code instanceType} in {@code zone} can take now. */
    @FunctionalInterface
    public interface Slots {
        int of(String instanceType, String zone);
    }

    private ReservedSlots() {
    }

    /**
     * The slots a provisioning run may plan onto: the {@code ledger}'s counts of active reservations of the type and
     * zone, less the claims {@code stored} as {@code Launching} into each (as {@link ReservationAssignment} counts them).
     */
    public static Slots of(ReservationLedger ledger, List<NodeClaim> stored, Instant now) {
        Map<String, Integer> launching = ReservationAssignment.launchingByReservation(stored);
        return (type, zone) -> ledger.available(type, zone, now, launching);
    }

    /** {@code planner} bounded by {@code slots}. */
    public static Function<SchedulingInput, SchedulingResult> limit(Function<SchedulingInput, SchedulingResult> planner,
                                                                     Slots slots) {
        return input -> solve(planner, input, slots);
    }

    static SchedulingResult solve(Function<SchedulingInput, SchedulingResult> planner, SchedulingInput input, Slots slots) {
        SchedulingResult plan = planner.apply(input);
        Map<String, Integer> left = new HashMap<>();
        Set<String> full = new HashSet<>();
        List<NodeClaimPlan> kept = new ArrayList<>();
        List<Pod> beyond = split(plan.newClaims(), slots, left, full, kept);
        if (beyond.isEmpty()) {
            return plan;
        }
        Map<String, List<Pod>> existing = new LinkedHashMap<>(plan.existingNodes());
        Map<String, List<Pod>> inFlight = new LinkedHashMap<>(plan.inFlightClaims());
        List<SchedulingResult.Unschedulable> unschedulable = new ArrayList<>(plan.unschedulable());
        for (int round = 0; !beyond.isEmpty(); round++) {
            SchedulingResult again = planner.apply(rest(input, beyond, existing, inFlight, kept, full));
            again.existingNodes().forEach((n, pods) -> existing.merge(n, pods, ReservedSlots::concat));
            again.inFlightClaims().forEach((n, pods) -> inFlight.merge(n, pods, ReservedSlots::concat));
            unschedulable.addAll(again.unschedulable());
            List<NodeClaimPlan> named = renamed(again.newClaims(), kept);
            beyond = round + 1 < MAX_ROUNDS ? split(named, slots, left, full, kept) : keepAll(named, kept);
        }
        double total = kept.stream().mapToDouble(NodeClaimPlan::pricePerHour).sum();
        return new SchedulingResult(existing, inFlight, kept, unschedulable, total, plan.lowerBoundPerHour(), plan.strategy());
    }

    /** Keeps what fits the slots into {@code kept}; returns the pods of the claims beyond, marking their offerings full. */
    private static List<Pod> split(List<NodeClaimPlan> claims, Slots slots, Map<String, Integer> left, Set<String> full,
                                   List<NodeClaimPlan> kept) {
        Set<NodeClaimPlan> over = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        List<NodeClaimPlan> byPods = claims.stream().filter(ReservedSlots::reserved)
                .sorted(Comparator.comparingInt((NodeClaimPlan c) -> -c.pods().size())).toList();
        for (NodeClaimPlan c : byPods) {
            String key = key(c.instanceType().name(), c.offering().zone());
            int l = left.computeIfAbsent(key, k -> Math.max(0, slots.of(c.instanceType().name(), c.offering().zone())));
            if (l > 0) {
                left.put(key, l - 1);
            } else {
                over.add(c);
                full.add(key);
            }
        }
        List<Pod> beyond = new ArrayList<>();
        for (NodeClaimPlan c : claims) {
            if (over.contains(c)) {
                beyond.addAll(c.pods());
            } else {
                kept.add(c);
            }
        }
        return beyond;
    }

    private static List<Pod> keepAll(List<NodeClaimPlan> claims, List<NodeClaimPlan> kept) {
        kept.addAll(claims); // ReservationAssignment moves any still beyond a slot off reserved
        return List.of();
    }

    /** The input for the pods beyond the slots: what the plan so far placed counted, the full offerings unavailable. */
    private static SchedulingInput rest(SchedulingInput input, List<Pod> pods, Map<String, List<Pod>> existing,
                                        Map<String, List<Pod>> inFlight, List<NodeClaimPlan> kept, Set<String> full) {
        List<SchedulingInput.ExistingNode> nodes = input.nodes().stream().map(n -> new SchedulingInput.ExistingNode(n.node(),
                concat(n.pods(), existing.getOrDefault(n.node().name(), List.of())))).toList();
        List<SchedulingInput.InFlightClaim> claims = input.inFlight().stream().map(c -> new SchedulingInput.InFlightClaim(
                c.name(), c.nodePool(), c.labels(), c.taints(), c.allocatable(),
                concat(c.pods(), inFlight.getOrDefault(c.name(), List.of())))).toList();
        List<SchedulingInput.PoolOffer> pools = new ArrayList<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            Resources usage = p.usage();
            int count = p.nodeCount();
            for (NodeClaimPlan c : kept) {
                if (c.nodePool().equals(p.pool().name())) {
                    usage = usage.plus(c.instanceType().capacity());
                    count++;
                }
            }
            pools.add(new SchedulingInput.PoolOffer(p.pool(), p.instanceTypes().stream().map(t -> withoutFull(t, full)).toList(),
                    usage, count));
        }
        return new SchedulingInput(pods, nodes, claims, input.daemonSets(), pools, input.namespaceLabels());
    }

    private static InstanceType withoutFull(InstanceType t, Set<String> full) {
        if (t.offerings().stream().noneMatch(o -> isFull(t, o, full))) {
            return t;
        }
        return t.withOfferings(t.offerings().stream().map(o -> isFull(t, o, full) ? new Offering(o.zone(), o.zoneId(),
                o.capacityType(), o.pricePerHour(), false, o.listPrice()) : o).toList());
    }

    private static boolean isFull(InstanceType t, Offering o, Set<String> full) {
        return WellKnownLabels.CAPACITY_RESERVED.equals(o.capacityType()) && full.contains(key(t.name(), o.zone()));
    }

    /** A re-solve's claims named apart from the kept ones (names come from pods; the suffix keeps them deterministic). */
    private static List<NodeClaimPlan> renamed(List<NodeClaimPlan> claims, List<NodeClaimPlan> kept) {
        Set<String> taken = new HashSet<>();
        kept.forEach(c -> taken.add(c.name()));
        List<NodeClaimPlan> out = new ArrayList<>();
        for (NodeClaimPlan c : claims) {
            String name = c.name();
            for (int i = 2; taken.contains(name); i++) {
                name = c.name() + "-r" + i;
            }
            taken.add(name);
            out.add(name.equals(c.name()) ? c : new NodeClaimPlan(name, c.nodePool(), c.requirements(),
                    c.instanceTypeOptions(), c.instanceType(), c.offering(), c.pods(), c.requests()));
        }
        return out;
    }

    private static boolean reserved(NodeClaimPlan c) {
        return WellKnownLabels.CAPACITY_RESERVED.equals(c.offering().capacityType());
    }

    private static String key(String type, String zone) {
        return type + "/" + zone;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
