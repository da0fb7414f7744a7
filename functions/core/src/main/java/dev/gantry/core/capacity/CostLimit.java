package dev.gantry.core.capacity;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gantry's dollar limit per NodePool ({@value #ANNOTATION}: "12.50" is $12.50 per hour), counted as Karpenter counts
 * cpu and memory limits: what the pool runs and launches (its nodes that stay and its claims in flight, each at its
 * offering's price after NodeOverlays, the price scheduling sees) plus a new claim must stay within the limit, or the
 * claim is not launched and its pods stay pending with the reason. New claims are taken in plan order. Only launches
 * are limited, as with Karpenter's limits: a price that changes under running nodes does not remove them.
 */
public final class CostLimit {
    public static final String ANNOTATION = "gantry.dev/limit-cost-per-hour";

    private CostLimit() {
    }

    /** The pool's limit in $/h, if it sets a valid one. */
    public static Optional<Double> limit(NodePool pool) {
        return parse(pool.annotations().get(ANNOTATION));
    }

    /** An annotation value as dollars per hour: a plain non-negative number ("12.50"); empty for anything else. */
    public static Optional<Double> parse(String v) {
        if (v == null || !v.trim().matches("[0-9]+(\\.[0-9]+)?")) {
            return Optional.empty();
        }
        return Optional.of(Double.parseDouble(v.trim()));
    }

    /** Each pool's $/h now: its staying nodes and claims in flight at their offering's price in the pool's types. */
    public static Map<String, Double> inUse(SchedulingInput input) {
        List<Map<String, String>> capacity = new ArrayList<>();
        input.nodes().forEach(e -> capacity.add(e.node().labels()));
        input.inFlight().forEach(c -> capacity.add(c.labels()));
        return inUse(input.pools(), capacity);
    }

    /**
     * Each pool's $/h for capacity with these labels (a node's, or those an in-flight claim's node will carry), each at
     * its offering's price in its pool's types ({@link #price}); capacity of a pool not among {@code pools} is left out.
     * The one count of what a pool runs and launches: the provisioner's ({@link #inUse(SchedulingInput)}) and
     * consolidation's, for its replacements.
     */
    public static Map<String, Double> inUse(List<SchedulingInput.PoolOffer> pools, List<Map<String, String>> capacity) {
        Map<String, Map<String, InstanceType>> types = new HashMap<>();
        for (SchedulingInput.PoolOffer p : pools) {
            Map<String, InstanceType> byName = new HashMap<>();
            p.instanceTypes().forEach(t -> byName.put(t.name(), t));
            types.put(p.pool().name(), byName);
        }
        Map<String, Double> out = new HashMap<>();
        capacity.forEach(labels -> add(out, types, labels));
        return out;
    }

    /** The price of a node with these labels, in its pool's types (0 when its type or offering is unknown). */
    public static double price(Map<String, InstanceType> types, Map<String, String> labels) {
        InstanceType t = types.get(labels.get(WellKnownLabels.INSTANCE_TYPE));
        if (t == null) {
            return 0;
        }
        for (Offering o : t.offerings()) {
            if (o.zone().equals(labels.get(WellKnownLabels.ZONE)) && o.capacityType().equals(labels.get(WellKnownLabels.CAPACITY_TYPE))) {
                return o.pricePerHour();
            }
        }
        return 0;
    }

    private static void add(Map<String, Double> out, Map<String, Map<String, InstanceType>> types, Map<String, String> labels) {
        String pool = labels.get(WellKnownLabels.NODEPOOL);
        if (pool != null && types.containsKey(pool)) {
            out.merge(pool, price(types.get(pool), labels), Double::sum);
        }
    }

    /** The plan without the new claims that would take their pool over its dollar limit; their pods unschedulable. */
    public static SchedulingResult apply(SchedulingResult plan, SchedulingInput input) {
        Map<String, Double> limits = new HashMap<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            limit(p.pool()).ifPresent(l -> limits.put(p.pool().name(), l));
        }
        if (limits.isEmpty() || plan.newClaims().stream().noneMatch(c -> limits.containsKey(c.nodePool()))) {
            return plan;
        }
        Map<String, Double> used = new HashMap<>(inUse(input));
        List<NodeClaimPlan> kept = new ArrayList<>();
        List<SchedulingResult.Unschedulable> unschedulable = new ArrayList<>(plan.unschedulable());
        double total = plan.totalPricePerHour();
        for (NodeClaimPlan c : plan.newClaims()) {
            Double limit = limits.get(c.nodePool());
            double now = used.getOrDefault(c.nodePool(), 0.0);
            if (limit != null && now + c.pricePerHour() > limit + 1e-9) {
                String why = String.format("NodePool %s's %s of $%.4f/h would be exceeded ($%.4f/h in use, a %s at $%.4f/h)",
                        c.nodePool(), ANNOTATION, limit, now, c.instanceType().name(), c.pricePerHour());
                c.pods().forEach(p -> unschedulable.add(new SchedulingResult.Unschedulable(p, why)));
                total -= c.pricePerHour();
                continue;
            }
            used.put(c.nodePool(), now + c.pricePerHour());
            kept.add(c);
        }
        if (kept.size() == plan.newClaims().size()) {
            return plan;
        }
        return new SchedulingResult(plan.existingNodes(), plan.inFlightClaims(), kept, unschedulable, total,
                plan.lowerBoundPerHour(), plan.strategy());
    }
}
