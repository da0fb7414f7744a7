package dev.gantry.core.capacity;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Gantry's spot/on-demand split per NodePool ({@value #ANNOTATION}: "70" keeps 70% of the pool's vCPU on spot).
 *
 * <p>The rule. The share is the pool's spot vCPU over its total vCPU, counting its nodes and its claims in flight
 * (leaving nodes not counted), each at its instance type's vCPU. Each new claim of the pool, in plan order, takes the
 * capacity type that leaves the share closest to the target once it is added: spot when
 * {@code spot + v/2 <= target x (total + v)} (v its vCPU; a tie goes to spot), else on-demand. The claim's
 * requirements are narrowed to that capacity type and its offering is the cheapest one left among its options. When
 * the chosen type has no available offering (spot out of capacity: the offerings marked unavailable after an
 * insufficient-capacity error), the claim launches on the other one: Spot Ocean's {@code fallbackToOnDemand}. Once a
 * spot launch of the pool has found no capacity, the rest of that provisioning run plans the pool without spot
 * ({@link #withoutSpot}): a whole spot market runs dry, not one type, and trying the next sixty spot types round after
 * round left pods pending for minutes while on-demand had room. The next run tries spot first again. The share
 * is restored later by consolidation (spot replacements are cheaper), within the band consolidation keeps
 * (disruption.consolidation.SpotSplitGuard).
 *
 * <p>A pool whose requirements allow only one capacity type is left to them; so is a pool without the annotation.
 */
public final class SpotSplit {
    public static final String ANNOTATION = "gantry.dev/spot-percentage";

    private SpotSplit() {
    }

    /** The pool's target percentage (0–100), if it sets a valid one. */
    public static OptionalInt target(NodePool pool) {
        return parse(pool.annotations().get(ANNOTATION));
    }

    /** An annotation value as a spot percentage: a whole number from 0 to 100; empty for anything else. */
    public static OptionalInt parse(String v) {
        if (v == null || !v.trim().matches("[0-9]{1,3}")) {
            return OptionalInt.empty();
        }
        int p = Integer.parseInt(v.trim());
        return p > 100 ? OptionalInt.empty() : OptionalInt.of(p);
    }

    /** Spot and total vCPU (millicores) of a pool. */
    public record Tally(long spotMillis, long totalMillis) {
        public static final Tally ZERO = new Tally(0, 0);

        public Tally plus(boolean spot, long millis) {
            return new Tally(spotMillis + (spot ? millis : 0), totalMillis + millis);
        }

        /** The spot share, 0–1 (0 for an empty pool). */
        public double share() {
            return totalMillis == 0 ? 0 : (double) spotMillis / totalMillis;
        }
    }

    /** Each pool's tally from the scheduler's input: its nodes that stay and its claims in flight. */
    public static Map<String, Tally> tallies(SchedulingInput input) {
        Map<String, Map<String, InstanceType>> types = new HashMap<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            Map<String, InstanceType> byName = new HashMap<>();
            p.instanceTypes().forEach(t -> byName.put(t.name(), t));
            types.put(p.pool().name(), byName);
        }
        Map<String, Tally> out = new HashMap<>();
        for (SchedulingInput.ExistingNode e : input.nodes()) {
            Node n = e.node();
            add(out, types, n.labels(), n.allocatable().cpuMillis());
        }
        for (SchedulingInput.InFlightClaim c : input.inFlight()) {
            add(out, types, c.labels(), c.allocatable().cpuMillis());
        }
        return out;
    }

    private static void add(Map<String, Tally> out, Map<String, Map<String, InstanceType>> types, Map<String, String> labels,
                            long fallbackMillis) {
        String pool = labels.get(WellKnownLabels.NODEPOOL);
        String ct = labels.get(WellKnownLabels.CAPACITY_TYPE);
        if (pool == null || ct == null) {
            return;
        }
        InstanceType t = types.getOrDefault(pool, Map.of()).get(labels.get(WellKnownLabels.INSTANCE_TYPE));
        long millis = t != null ? t.capacity().cpuMillis() : fallbackMillis;
        out.merge(pool, Tally.ZERO.plus(WellKnownLabels.CAPACITY_SPOT.equals(ct), millis),
                (a, b) -> new Tally(a.spotMillis() + b.spotMillis(), a.totalMillis() + b.totalMillis()));
    }

    /** Whether a claim of {@code millis} vCPU should be spot to keep {@code tally} closest to {@code percent}. */
    public static boolean wantsSpot(Tally tally, long millis, int percent) {
        return (tally.spotMillis() + millis / 2.0) * 100 <= (double) percent * (tally.totalMillis() + millis);
    }

    /**
     * {@code input} with every spot offering of the pools named in {@code spotOut} that have a split and allow on-demand
     * marked unavailable, so the solver packs their pods for on-demand (the same input when none is named). Other pools
     * keep Karpenter's behaviour: only the offerings that failed are left out, for {@code UNAVAILABLE_FOR}.
     */
    public static SchedulingInput withoutSpot(SchedulingInput input, Set<String> spotOut) {
        if (spotOut.isEmpty()) {
            return input;
        }
        boolean changed = false;
        List<SchedulingInput.PoolOffer> pools = new ArrayList<>(input.pools().size());
        for (SchedulingInput.PoolOffer p : input.pools()) {
            if (!spotOut.contains(p.pool().name()) || target(p.pool()).isEmpty()
                    || !p.requirements().get(WellKnownLabels.CAPACITY_TYPE).has(WellKnownLabels.CAPACITY_ON_DEMAND)) {
                pools.add(p);
                continue;
            }
            List<InstanceType> types = new ArrayList<>(p.instanceTypes().size());
            for (InstanceType t : p.instanceTypes()) {
                types.add(t.withUnavailable(o -> WellKnownLabels.CAPACITY_SPOT.equals(o.capacityType())));
            }
            pools.add(new SchedulingInput.PoolOffer(p.pool(), types, p.usage(), p.nodeCount()));
            changed = true;
        }
        return !changed ? input : new SchedulingInput(input.pending(), input.nodes(), input.inFlight(), input.daemonSets(),
                pools, input.namespaceLabels());
    }

    /** The plan with each new claim of a pool with a split narrowed to the capacity type the rule picks. */
    public static SchedulingResult apply(SchedulingResult plan, SchedulingInput input) {
        Map<String, Integer> targets = new HashMap<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            target(p.pool()).ifPresent(t -> targets.put(p.pool().name(), t));
        }
        if (targets.isEmpty() || plan.newClaims().stream().noneMatch(c -> targets.containsKey(c.nodePool()))) {
            return plan;
        }
        Map<String, Tally> tallies = new HashMap<>(tallies(input));
        List<NodeClaimPlan> out = new ArrayList<>(plan.newClaims().size());
        boolean changed = false;
        for (NodeClaimPlan c : plan.newClaims()) {
            Integer target = targets.get(c.nodePool());
            if (target == null) {
                out.add(c);
                continue;
            }
            Tally t = tallies.getOrDefault(c.nodePool(), Tally.ZERO);
            long v = c.instanceType().capacity().cpuMillis();
            boolean spot = wantsSpot(t, v, target);
            NodeClaimPlan narrowed = narrowed(c, spot ? WellKnownLabels.CAPACITY_SPOT : WellKnownLabels.CAPACITY_ON_DEMAND);
            if (narrowed == null) {
                // fallbackToOnDemand (or to spot, when on-demand has nothing): the other type, as the solver planned it.
                narrowed = c;
            }
            changed |= narrowed != c;
            out.add(narrowed);
            tallies.put(c.nodePool(), t.plus(WellKnownLabels.CAPACITY_SPOT.equals(narrowed.offering().capacityType()),
                    narrowed.instanceType().capacity().cpuMillis()));
        }
        if (!changed) {
            return plan;
        }
        double total = plan.totalPricePerHour() - plan.newClaims().stream().mapToDouble(NodeClaimPlan::pricePerHour).sum()
                + out.stream().mapToDouble(NodeClaimPlan::pricePerHour).sum();
        return new SchedulingResult(plan.existingNodes(), plan.inFlightClaims(), out, plan.unschedulable(), total,
                plan.lowerBoundPerHour(), plan.strategy());
    }

    /**
     * The claim held to {@code capacityType}: its requirements narrowed, its options those with an available offering
     * of that type (cheapest first), its type and offering the cheapest. Itself when it already is; null when the
     * requirements or the options allow none.
     */
    public static NodeClaimPlan narrowed(NodeClaimPlan c, String capacityType) {
        if (c.offering().capacityType().equals(capacityType)
                && c.requirements().get(WellKnownLabels.CAPACITY_TYPE).singleValue() != null) {
            return c;
        }
        if (!c.requirements().get(WellKnownLabels.CAPACITY_TYPE).has(capacityType)) {
            return null;
        }
        var reqs = c.requirements().with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(capacityType));
        List<InstanceType> options = new ArrayList<>();
        for (InstanceType t : c.instanceTypeOptions()) {
            if (t.cheapestOffering(reqs) != null) {
                options.add(t);
            }
        }
        if (options.isEmpty()) {
            return null;
        }
        InstanceType type = options.contains(c.instanceType()) ? c.instanceType()
                : options.stream().min(Comparator.comparingDouble(t -> t.cheapestOffering(reqs).pricePerHour())).orElseThrow();
        Offering o = type.cheapestOffering(reqs);
        return new NodeClaimPlan(c.name(), c.nodePool(), reqs, options, type, o, c.pods(), c.requests());
    }
}
