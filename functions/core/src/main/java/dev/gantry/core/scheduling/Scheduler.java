package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides where pending pods go and which NodeClaims to launch. Pure: the result depends only on the input, and the
 * same input always gives the same result.
 */
public final class Scheduler {
    /** How many instance types a claim offers CreateFleet. */
    public static final int MAX_INSTANCE_TYPE_OPTIONS = 60;

    /** Placement strategies. */
    public enum Strategy {
        /** Gantry's cost-aware packing, never worse than {@link #KARPENTER_GREEDY} on the same input. */
        GANTRY,
        /** Karpenter's first-fit greedy, faithfully, as the reference. */
        KARPENTER_GREEDY;

        public static Strategy parse(String s) {
            return switch (s) {
                case "gantry" -> GANTRY;
                case "karpenter-greedy" -> KARPENTER_GREEDY;
                default -> throw new IllegalArgumentException("'" + s + "' is not a strategy (gantry, karpenter-greedy)");
            };
        }
    }

    private Scheduler() {
    }

    public static SchedulingResult solve(SchedulingInput input) {
        return solve(input, Strategy.GANTRY);
    }

    /**
     * Places {@code input.pending()}. With {@link Strategy#GANTRY} both strategies run and the cheaper result is
     * returned (Gantry's on a tie), so Gantry never costs more than the greedy reference, and places at least as many pods.
     */
    public static SchedulingResult solve(SchedulingInput input, Strategy strategy) {
        return solve(input, strategy, p -> false);
    }

    /**
     * {@link #solve(SchedulingInput)} for pods kube-scheduler will bind, as a launch's are: a pending pod takes room on
     * an existing node or an in-flight claim wherever its required constraints allow before a claim is opened to keep
     * one of its preferences. kube-scheduler only scores preferences (a {@code ScheduleAnyway} spread, preferred
     * affinity, a {@code PreferNoSchedule} taint), and that room is Ready before anything this plan launches, so the
     * pod is bound there; a claim opened in another zone for its spread would launch for nothing. Without this, the run
     * after a launch planned the batch's last pods on new nodes in the other zones while the first run's nodes, in
     * flight in one zone, had room for them (graviton-overlay, seed 12: two of nine launches wasted). Preferences still
     * decide among the rooms at hand and shape the new claims; consolidation's simulations keep them (use
     * {@link #solve}), as Karpenter's do.
     */
    public static SchedulingResult solveAsBound(SchedulingInput input) {
        return solve(input, Strategy.GANTRY, p -> true);
    }

    /** {@link #solve(SchedulingInput, Strategy)}, the pods {@code bound} accepts planned as {@link #solveAsBound} plans them. */
    static SchedulingResult solve(SchedulingInput input, Strategy strategy, java.util.function.Predicate<Pod> bound) {
        Packer greedy = new Packer(input, bound);
        List<PodConstraints> order = greedy.prepare(input.pending());
        for (PodConstraints c : order) {
            greedy.place(c);
        }
        // Gantry's pass places its constrained pods through the same loop, in the same order, before anything else.
        // When every pod is constrained and all were placed, that first phase would be this loop over again: Gantry's
        // pass continues from this state instead, once the reference result has been copied out of it.
        boolean shared = strategy == Strategy.GANTRY && greedy.unschedulable.isEmpty()
                && order.stream().noneMatch(c -> CostAwarePacking.isFree(greedy, c));
        greedy.retryUnschedulable();
        SchedulingResult reference = result(greedy, input, "karpenter-greedy");
        if (strategy == Strategy.KARPENTER_GREEDY) {
            return withBound(reference, greedy);
        }
        Packer gantry = shared ? greedy : new Packer(input, bound);
        gantry.placedInOrder = shared ? order : null;
        CostAwarePacking.run(gantry, input.pending());
        ZoneRepack.repackFilled(gantry); // once the free pods are placed: each claim group packed again by patterns, then each pool's groups together
        ClaimEmptying.run(gantry); // then the cheapest claims emptied into paid-for room elsewhere, across zones too
        SchedulingResult ours = result(gantry, input, "gantry");
        boolean placesFewer = ours.unschedulable().size() > reference.unschedulable().size();
        SchedulingResult chosen = placesFewer || ours.totalPricePerHour() > reference.totalPricePerHour() + 1e-9
                ? withStrategy(reference, "gantry(greedy)") : ours;
        return withBound(chosen, gantry);
    }

    /**
     * The plan the provisioner launches: {@link #solveAsBound}, or, when strictly cheaper net of the nodes it
     * lets consolidation delete, a launch that also leaves room for a few small consolidatable nodes' pods (see
     * {@link Absorbing}). Only for launching: a plan that re-places bound pods (consolidation's simulation) uses solve.
     */
    public static SchedulingResult solveForLaunch(SchedulingInput input) {
        return Absorbing.improve(input, solveAsBound(input));
    }

    private static SchedulingResult withStrategy(SchedulingResult r, String strategy) {
        return new SchedulingResult(r.existingNodes(), r.inFlightClaims(), r.newClaims(), r.unschedulable(),
                r.totalPricePerHour(), r.lowerBoundPerHour(), strategy);
    }

    private static SchedulingResult result(Packer packer, SchedulingInput input, String strategy) {
        Map<String, List<Pod>> existing = new LinkedHashMap<>();
        Map<String, List<Pod>> inFlight = new LinkedHashMap<>();
        for (NodeSlot s : packer.slots) {
            if (!s.placed.isEmpty()) {
                (s.inFlight ? inFlight : existing).put(s.name, List.copyOf(s.placed));
            }
        }
        List<SchedulingResult.NodeClaimPlan> plans = new ArrayList<>();
        // A new claim never takes the name of a claim in flight: launched for the same pods in an earlier round or run,
        // whose room this plan may give to other pods. Under that name its launch would find the claim in flight, take it
        // for an earlier delivery's, and its pods would get no capacity.
        Map<String, Integer> names = new HashMap<>();
        packer.slots.stream().filter(s -> s.inFlight).forEach(s -> names.put(s.name, 1));
        double total = 0;
        for (Claim c : packer.claims) {
            if (c.pods.isEmpty()) {
                continue;
            }
            InstanceType chosen = c.cheapest();
            List<InstanceType> options = c.launchOptions(MAX_INSTANCE_TYPE_OPTIONS);
            SchedulingResult.NodeClaimPlan plan = new SchedulingResult.NodeClaimPlan(ClaimNames.name(c, names), c.pool.name(),
                    c.requirements, options, chosen, c.offering(), c.pods, c.requests.plus(c.pool.daemonOverhead(chosen)));
            plans.add(plan);
            total += plan.pricePerHour();
        }
        List<SchedulingResult.Unschedulable> unschedulable = new ArrayList<>();
        packer.unschedulable.forEach((pod, why) -> unschedulable.add(new SchedulingResult.Unschedulable(pod, why)));
        unschedulable.sort(java.util.Comparator.comparing(u -> u.pod().key()));
        return new SchedulingResult(existing, inFlight, plans, unschedulable, total, 0, strategy);
    }

    /**
     * {@code r} with its LP bound: found for the result a solve returns only (each solve builds two, and consolidation
     * solves once per candidate set). Read from the result's claims, not the packer's, since Gantry's pass may go on
     * from the reference's packer; {@code packer} gives the pools (the same offers and DaemonSets in both).
     */
    private static SchedulingResult withBound(SchedulingResult r, Packer packer) {
        return new SchedulingResult(r.existingNodes(), r.inFlightClaims(), r.newClaims(), r.unschedulable(),
                r.totalPricePerHour(), lowerBound(r, packer), r.strategy());
    }

    /** The LP bound over each claim group (pool and requirements), summed: what the new claims' pods must cost at least. */
    private static double lowerBound(SchedulingResult r, Packer packer) {
        Map<String, PoolContext> pools = new HashMap<>();
        packer.pools.forEach(p -> pools.put(p.name(), p));
        Map<List<Object>, Map<Resources, Integer>> shapes = new LinkedHashMap<>();
        for (SchedulingResult.NodeClaimPlan c : r.newClaims()) {
            for (Pod p : c.pods()) {
                List<Object> key = List.of(pools.get(c.nodePool()), p.nodeRequirementTerms().get(0));
                shapes.computeIfAbsent(key, k -> new HashMap<>()).merge(p.requests(), 1, Integer::sum);
            }
        }
        double bound = 0;
        for (var e : shapes.entrySet()) {
            PoolContext pool = (PoolContext) e.getKey().get(0);
            Requirements reqs = pool.requirements.intersect((Requirements) e.getKey().get(1));
            List<InstanceType> types = pool.compatibleTypes(reqs);
            bound += LowerBound.ofPods(e.getValue(), types, reqs, pool::daemonOverhead);
        }
        return bound;
    }
}
