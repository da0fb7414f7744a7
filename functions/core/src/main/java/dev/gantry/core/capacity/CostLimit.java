package dev.gantry.core.capacity;

import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gantry's dollar limit per NodePool ({@value #ANNOTATION}: "12.50" is $12.50 per hour), counted as Karpenter counts
 * cpu and memory limits: what the pool owns (its nodes that stay and its claims in flight, by their
 * {@code karpenter.sh/nodepool} label, whether or not its requirements still match them) plus a new claim must stay
 * within the limit, or the claim is not launched and its pods stay pending with the reason. New claims are taken in
 * plan order. Only launches are limited, as with Karpenter's limits: a price that changes under running nodes does not
 * remove them.
 *
 * <p>What a node or claim in flight costs its pool is one rule, for the provisioner ({@link #apply}), consolidation's
 * replacements ({@code CostLimitGuard}) and the simulator's {@code costLimitExceeded} invariant alike ({@link #inUse}),
 * read from the catalogue the scheduler prices from (the pools' types, NodeOverlays applied):
 * <ol>
 * <li>its offering (instance type, zone, capacity type) in its pool's types: the price scheduling sees;</li>
 * <li>else that offering in another pool's types, the dearest if several (its pool's NodeClass no longer lists the
 *     type, but the catalogue still prices it);</li>
 * <li>else the price its NodeClaim recorded at launch, when known ({@link Owned#launchPrice});</li>
 * <li>else the dearest offering of its type anywhere in the catalogue (the offering is gone: a zone or capacity type
 *     no longer offered, a reservation ended; the instance still bills);</li>
 * <li>else, its type unknown to the catalogue, the dearest offering its pool's requirements allow in its types (of all
 *     its types if they allow none): an upper bound of what the pool would launch, never $0.</li>
 * </ol>
 * Narrowing a pool's requirements does not change its types (they are its NodeClass's, filtered by the scheduler), so
 * such nodes keep their own price at step 1. Karpenter counts a pool's cpu/memory the same way, over the nodes it owns:
 * kubernetes-sigs/karpenter {@code pkg/controllers/nodepool/counter/controller.go} Reconcile sets its
 * {@code status.resources} from {@code pkg/controllers/state/cluster.go} NodePoolResourcesFor, the resources of the
 * state nodes labelled with the pool, regardless of its current requirements.
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

    /**
     * A node, or the node a claim in flight will become, as the limit counts it: its labels (pool, instance type, zone,
     * capacity type) and the $/h its NodeClaim recorded at launch, 0 when none is known.
     */
    public record Owned(Map<String, String> labels, double launchPrice) {
    }

    /** Each claim's recorded launch price ({@link Owned#launchPrice}) by its name; claims without one are left out. */
    public static Map<String, Double> launchPrices(List<NodeClaim> claims) {
        Map<String, Double> out = new HashMap<>();
        claims.stream().filter(c -> c.pricePerHour() > 0).forEach(c -> out.put(c.name(), c.pricePerHour()));
        return out;
    }

    /**
     * Each pool's $/h now: its staying nodes (each node's claim by the one rule, {@link ClaimsByNode}) and claims in
     * flight, each at its price ({@link #inUse(List, List)}).
     *
     * @param claims   the store's claims, for their recorded launch prices ({@link #launchPrices})
     * @param inFlight the claims in flight ({@code ClusterView.inFlight}): those the input leaves out (their type gone
     *                 from their pool's types, nothing can be planned onto them) still count
     */
    public static Map<String, Double> inUse(SchedulingInput input, List<NodeClaim> claims, List<NodeClaim> inFlight) {
        Map<String, Double> launchPrices = launchPrices(claims);
        ClaimsByNode claimOf = new ClaimsByNode(claims);
        List<Owned> capacity = new ArrayList<>();
        for (SchedulingInput.ExistingNode e : input.nodes()) {
            double launched = claimOf.claimOf(e.node()).map(c -> launchPrices.getOrDefault(c.name(), 0.0)).orElse(0.0);
            capacity.add(new Owned(e.node().labels(), launched));
        }
        Set<String> planned = new HashSet<>();
        for (SchedulingInput.InFlightClaim c : input.inFlight()) {
            planned.add(c.name());
            capacity.add(new Owned(c.labels(), launchPrices.getOrDefault(c.name(), 0.0)));
        }
        for (NodeClaim c : inFlight) {
            if (!planned.contains(c.name())) {
                capacity.add(new Owned(labels(c.nodePool(), c.instanceType(), c.zone(), c.capacityType()), c.pricePerHour()));
            }
        }
        return inUse(input.pools(), capacity);
    }

    /**
     * The labels that name a claim's pool and offering (those known), as its node will carry them: the ones a price is
     * looked up by. The provisioner's full label set of a claim's node ({@code ClaimLabels.node}) takes them from here.
     */
    public static Map<String, String> labels(String pool, String instanceType, String zone, String capacityType) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.NODEPOOL, pool);
        if (instanceType != null) {
            labels.put(WellKnownLabels.INSTANCE_TYPE, instanceType);
        }
        if (zone != null) {
            labels.put(WellKnownLabels.ZONE, zone);
        }
        if (capacityType != null) {
            labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        }
        return labels;
    }

    /**
     * Each pool's $/h for this capacity (nodes, and claims in flight as their nodes will be labelled), each priced by
     * the class's rule over {@code pools}' types; capacity of a pool not among {@code pools} is left out. The one count
     * of what a pool owns: the provisioner's ({@link #inUse(SchedulingInput, List, List)}), consolidation's for its
     * replacements, and the simulator's invariant.
     */
    public static Map<String, Double> inUse(List<SchedulingInput.PoolOffer> pools, List<Owned> capacity) {
        OwnedPrices prices = new OwnedPrices(pools);
        Map<String, Double> out = new HashMap<>();
        for (Owned o : capacity) {
            String pool = o.labels().get(WellKnownLabels.NODEPOOL);
            if (prices.knows(pool)) {
                out.merge(pool, prices.price(pool, o.labels(), o.launchPrice()), Double::sum);
            }
        }
        return out;
    }

    /** {@link #apply(SchedulingResult, SchedulingInput, List, List)} for an input without a store's claims. */
    public static SchedulingResult apply(SchedulingResult plan, SchedulingInput input) {
        return apply(plan, input, List.of(), List.of());
    }

    /**
     * The plan without the new claims that would take their pool over its dollar limit; their pods unschedulable.
     *
     * @param claims   the store's claims and those of them in flight, as {@link #inUse(SchedulingInput, List, List)}
     * @param inFlight counts them
     */
    public static SchedulingResult apply(SchedulingResult plan, SchedulingInput input, List<NodeClaim> claims,
                                         List<NodeClaim> inFlight) {
        Map<String, Double> limits = new HashMap<>();
        for (SchedulingInput.PoolOffer p : input.pools()) {
            limit(p.pool()).ifPresent(l -> limits.put(p.pool().name(), l));
        }
        if (limits.isEmpty() || plan.newClaims().stream().noneMatch(c -> limits.containsKey(c.nodePool()))) {
            return plan;
        }
        Map<String, Double> used = new HashMap<>(inUse(input, claims, inFlight));
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
