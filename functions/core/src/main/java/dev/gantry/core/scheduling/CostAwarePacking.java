package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Gantry's placement. Constrained pods (topology spread, pod affinity, host ports, or counted by someone's selector)
 * go through Karpenter's loop first, since their placement is what is hard. The remaining "free" pods then:
 * <ol>
 *   <li>take room on existing nodes and in-flight claims, as the greedy would;</li>
 *   <li>fill slack in the claims already opened, where it costs nothing (the expected type stays as cheap);</li>
 *   <li>are packed by shape ({@link ShapePacking}), per NodePool and requirement set, into the instance type that is
 *       cheapest for their aggregate shape (tried over the few most cost-efficient types, cheapest packing wins);
 *       the packing's emptiest bins are then repaired ({@link TailRepair}) and its tail traded with its body
 *       ({@link TailExchange}); then the shapes a tiny type holds whole for less than their share are taken out onto it
 *       and the rest packed again ({@link ShapePeel}); a group mixing GPU pods with plain pods is also packed in two steps
 *       ({@link ExtendedSplit}), also with its GPU pods on a roomier GPU type ({@link RoomierHosts}), and the cheapest
 *       packing wins;</li>
 * </ol>
 * and finally every claim is right-sized to the cheapest type that holds it. Deterministic.
 */
final class CostAwarePacking {
    /** How many of the most cost-efficient types are tried as the bin type for a group. */
    private static final int CANDIDATE_TYPES = 4;
    /** A packing within this factor of its group's LP bound is not tried further by {@link ShapePeel}. */
    private static final double TIGHT = 1.01;

    private CostAwarePacking() {
    }

    static void run(Packer packer, List<Pod> pending) {
        List<PodConstraints> all = packer.placedInOrder != null ? packer.placedInOrder : packer.prepare(pending);
        List<PodConstraints> free = new ArrayList<>();
        for (PodConstraints c : all) {
            if (isFree(packer, c)) {
                free.add(c);
            } else if (packer.placedInOrder == null) { // else the greedy loop placed them already, in this order
                packer.place(c);
            }
        }
        ZoneRepack.run(packer);
        Map<GroupKey, List<PodConstraints>> groups = new LinkedHashMap<>();
        Map<Signature, Optional<PoolContext>> poolFor = new java.util.HashMap<>();
        for (PodConstraints c : free) {
            if (packer.placeOnSlots(c) || packer.placeInClaims(c, packer.claims, Packer.Upsize.FORBIDDEN)) {
                continue;
            }
            PoolContext pool = firstPoolThatTakes(packer, c, poolFor);
            if (pool == null) {
                packer.place(c); // records the reason it fits nowhere
                continue;
            }
            groups.computeIfAbsent(new GroupKey(pool, c.nodeRequirements()), k -> new ArrayList<>()).add(c);
        }
        for (var e : groups.entrySet()) {
            packGroup(packer, e.getKey(), e.getValue());
        }
        packer.retryUnschedulable();
        for (Claim claim : packer.claims) {
            claim.rightSize();
        }
    }

    private record GroupKey(PoolContext pool, Requirements requirements) {
    }

    /** Free pods need no topology bookkeeping and have exactly one way to be placed, so they can be packed as a bag. */
    static boolean isFree(Packer packer, PodConstraints c) {
        Pod p = c.pod();
        return c.spreads().isEmpty() && c.affinity().isEmpty() && c.antiAffinity().isEmpty() && p.hostPorts().isEmpty()
                && c.terms().size() == 1 && c.preferredNode().isEmpty() && packer.topology.selecting(p).isEmpty()
                && !hasPreferNoScheduleRelaxation(packer, c);
    }

    /** A pod that only fits after tolerating PreferNoSchedule taints is left to the greedy loop, which relaxes it. */
    private static boolean hasPreferNoScheduleRelaxation(Packer packer, PodConstraints c) {
        for (PoolContext pool : packer.pools) {
            if (c.firstUntolerated(pool.taints) != null && c.relax() != null && c.relax().firstUntolerated(pool.taints) == null) {
                return true;
            }
        }
        return false;
    }

    private static PoolContext firstPoolThatTakes(Packer packer, PodConstraints c, Map<Signature, Optional<PoolContext>> known) {
        return known.computeIfAbsent(Signature.of(c), sig -> {
            for (PoolContext pool : packer.pools) {
                if (pool.nodeAllowed() && Claim.open(pool, -1).fit(c, Map.of()).ok()) {
                    return Optional.of(pool);
                }
            }
            return Optional.empty();
        }).orElse(null);
    }

    private static void packGroup(Packer packer, GroupKey group, List<PodConstraints> pods) {
        List<PodConstraints> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(c -> c.pod().key()));
        Requirements reqs = group.pool().requirements.intersect(group.requirements());
        List<ShapePacking.Bin<PodConstraints, InstanceType>> plan = cheapestPlan(group.pool(), group.pool().typesFor(reqs), reqs, sorted);
        if (plan == null) {
            sorted.forEach(packer::place); // nothing holds some pod: Karpenter's loop sorts it out, with reasons
            return;
        }
        for (ShapePacking.Bin<PodConstraints, InstanceType> bin : plan) {
            Claim claim = null;
            for (PodConstraints c : bin.pods()) {
                if (claim == null) {
                    int before = packer.claims.size();
                    if (packer.openClaim(c, group.pool(), List.of(bin.type())) == null) {
                        claim = packer.claims.get(before);
                        continue;
                    }
                } else if (packer.placeInClaims(c, List.of(claim), Packer.Upsize.ALLOWED)) {
                    continue;
                }
                packer.place(c); // limits or a node limit bit: fall back to the greedy loop for this pod
            }
        }
    }

    /**
     * The cheapest of several packings, each priced with every bin right-sized: one bin type for all (tried for the
     * few types that are cheapest per unit of the group's demand and hold every pod), and an adaptive one where each
     * bin gets the most cost-efficient type that holds its anchor pod (so small pods reach small, cheap types); and
     * for a group mixing GPU pods with plain pods, {@link ExtendedSplit}'s, with the GPU pods on the type that holds them
     * cheapest and on each of {@link RoomierHosts}'.
     */
    static List<ShapePacking.Bin<PodConstraints, InstanceType>> cheapestPlan(PoolContext pool, List<InstanceType> compatible,
                                                                                    Requirements reqs, List<PodConstraints> pods) {
        List<ShapePacking.Bin<PodConstraints, InstanceType>> best = packedAsOne(pool, compatible, reqs, pods, true);
        double bestPrice = best == null ? Double.MAX_VALUE : ExtendedSplit.price(best, compatible, reqs, pool::room);
        Function<List<PodConstraints>, List<ShapePacking.Bin<PodConstraints, InstanceType>>> asOne = ps -> packedAsOne(pool, compatible, reqs, ps, true);
        List<Function<List<PodConstraints>, List<ShapePacking.Bin<PodConstraints, InstanceType>>>> packers = new ArrayList<>(List.of(asOne));
        for (InstanceType roomier : RoomierHosts.of(pool, compatible, reqs, pods)) {
            packers.add(ps -> RoomierHosts.asksExtended(ps.getFirst().requests()) ? RoomierHosts.pack(pool, compatible, reqs, ps, roomier) : asOne.apply(ps));
        }
        for (var pack : packers) {
            List<ShapePacking.Bin<PodConstraints, InstanceType>> split = ExtendedSplit.plan(pods, pack, pool::room);
            double price = split == null ? Double.MAX_VALUE : ExtendedSplit.price(split, compatible, reqs, pool::room);
            if (price < bestPrice - 1e-9) {
                best = split;
                bestPrice = price;
            }
        }
        return best;
    }

    private static List<ShapePacking.Bin<PodConstraints, InstanceType>> packedAsOne(PoolContext pool, List<InstanceType> compatible,
                                                                                   Requirements reqs, List<PodConstraints> pods, boolean exchange) {
        Resources demand = Resources.ZERO;
        Resources largest = Resources.ZERO;
        java.util.Set<Resources> shapes = new java.util.LinkedHashSet<>();
        for (PodConstraints c : pods) {
            demand = demand.plus(c.requests());
            largest = largest.max(c.requests());
            shapes.add(c.requests());
        }
        Menu menu = menu(pool, compatible, reqs, demand, shapes);
        Map<InstanceType, Double> price = menu.price();
        List<InstanceType> byEfficiency = menu.byEfficiency();
        List<List<ShapePacking.Bin<PodConstraints, InstanceType>>> candidates = new ArrayList<>();
        int singles = 0;
        for (InstanceType t : byEfficiency) {
            if (singles == CANDIDATE_TYPES) {
                break;
            }
            if (largest.fitsIn(pool.room(t))) {
                singles++;
                candidates.add(ShapePacking.pack(pods, PodConstraints::requests, anchor -> t, pool::room));
            }
        }
        java.util.function.Function<Resources, InstanceType> adaptive = anchor -> {
            for (InstanceType t : byEfficiency) {
                if (anchor.fitsIn(pool.room(t))) {
                    return t;
                }
            }
            return null;
        };
        candidates.add(ShapePacking.pack(pods, PodConstraints::requests, adaptive, pool::room));
        Map<InstanceType, Double> fleet = LowerBound.fleet(demand, menu.covering(), reqs, pool::room);
        candidates.add(ShapePacking.pack(pods, PodConstraints::requests, fleetChooser(pool, fleet, adaptive), pool::room));
        List<ShapePacking.Bin<PodConstraints, InstanceType>> best = null;
        double bestCost = Double.MAX_VALUE;
        for (List<ShapePacking.Bin<PodConstraints, InstanceType>> plan : candidates) {
            double cost = plan == null ? Double.MAX_VALUE : cost(pool, plan, byEfficiency, price);
            if (cost < bestCost) {
                bestCost = cost;
                best = plan;
            }
        }
        if (best != null && best.size() > 1) {
            List<ShapePacking.Bin<PodConstraints, InstanceType>> repaired = TailRepair.repair(best, PodConstraints::requests, pool::room);
            double repairedCost = cost(pool, repaired, byEfficiency, price);
            if (repairedCost < bestCost - 1e-9) {
                best = repaired;
                bestCost = repairedCost;
            }
        }
        if (exchange && best != null && best.size() > 1) {
            List<ShapePacking.Bin<PodConstraints, InstanceType>> traded = TailExchange.exchange(best, PodConstraints::requests, pool::room,
                    d -> LowerBound.unitPrices(d, menu.frontier(), reqs, pool::room), used -> rightSized(pool, used, byEfficiency, price),
                    ps -> packedAsOne(pool, compatible, reqs, ps, false));
            double tradedCost = traded == null ? Double.MAX_VALUE : cost(pool, traded, byEfficiency, price);
            if (tradedCost < bestCost - 1e-9) {
                best = traded;
                bestCost = tradedCost;
            }
        }
        double bound = 0;
        for (var e : fleet.entrySet()) {
            bound += e.getValue() * price.get(e.getKey());
        }
        // Within 1% of the LP's fractional fleet, a re-packing cannot gain enough to pay for itself.
        if (exchange && best != null && bestCost > TIGHT * bound) {
            // The plan may hold a re-packed tail's bins, of types this menu does not price (a GPU bag's menu prices only
            // GPU types; its plain tail came back on others): those are priced at their own cheapest offering.
            ShapePeel.Peeled<PodConstraints, InstanceType> peeled = ShapePeel.peel(pods, best, PodConstraints::requests, byEfficiency, pool::room,
                    t -> price.containsKey(t) ? price.get(t) : offered(t, reqs));
            List<ShapePacking.Bin<PodConstraints, InstanceType>> rest = peeled == null ? null
                    : peeled.rest().isEmpty() ? List.of() : packedAsOne(pool, compatible, reqs, peeled.rest(), false);
            if (rest != null) {
                List<ShapePacking.Bin<PodConstraints, InstanceType>> both = new ArrayList<>(peeled.bins());
                both.addAll(rest);
                if (cost(pool, both, byEfficiency, price) < bestCost - 1e-9) {
                    best = both;
                }
            }
        }
        return best;
    }

    /**
     * Bin types as the LP's optimal fleet has them: for each type in it, as many bins as whole nodes it uses, the types
     * used least first (so the few nodes of a complementary shape, memory-rich say, take the pods that suit them while
     * there is still a choice, and the majority type gets a remainder of its own shape); then the adaptive choice for
     * the tail. A bin whose anchor does not fit the next type in line also gets the adaptive choice.
     */
    private static java.util.function.Function<Resources, InstanceType> fleetChooser(PoolContext pool, Map<InstanceType, Double> fleet,
                                                                                    java.util.function.Function<Resources, InstanceType> adaptive) {
        List<Map.Entry<InstanceType, Double>> order = new ArrayList<>(fleet.entrySet());
        order.sort(Map.Entry.comparingByValue());
        java.util.ArrayDeque<InstanceType> queue = new java.util.ArrayDeque<>();
        for (var e : order) {
            for (long i = 0; i < (long) Math.floor(e.getValue() + 1e-6); i++) {
                queue.add(e.getKey());
            }
        }
        return anchor -> {
            InstanceType next = queue.peekFirst();
            if (next != null && anchor.fitsIn(pool.room(next))) {
                return queue.pollFirst();
            }
            if (!anchor.extended().isEmpty()) {
                // A GPU pod's anchor takes the first GPU type the fleet has for it, not the plain type at the head.
                for (var it = queue.iterator(); it.hasNext(); ) {
                    InstanceType t = it.next();
                    if (anchor.fitsIn(pool.room(t))) {
                        it.remove();
                        return t;
                    }
                }
            }
            return adaptive.apply(anchor);
        };
    }

    /**
     * The types a group's bins may have, most cost-efficient for its aggregate demand first, each with its price.
     * {@code byEfficiency} holds only the types that hold some pod of the group: the unit prices, the adaptive choice,
     * the peel and the right-sizing read it. {@code covering} also has those that hold none, for the LP's fleet alone:
     * the fleet chooser gives a bin of such a type to the adaptive choice, and measured, the fleet without them made
     * "real generic" dearer (31.86 $/h against 29.72).
     */
    record Menu(List<InstanceType> byEfficiency, List<InstanceType> covering, Map<InstanceType, Double> price, List<InstanceType> frontier) {
    }

    static Menu menu(PoolContext pool, List<InstanceType> compatible, Requirements reqs, Resources demand, java.util.Collection<Resources> shapes) {
        Map<InstanceType, Double> price = new java.util.IdentityHashMap<>();
        Map<InstanceType, Double> unitCost = new java.util.IdentityHashMap<>();
        List<InstanceType> covering = new ArrayList<>();
        for (InstanceType t : compatible) {
            Offering o = t.cheapestOffering(reqs);
            double share = shareOf(pool.room(t), demand);
            if (o == null || share <= 0) {
                continue;
            }
            price.put(t, o.pricePerHour());
            unitCost.put(t, o.pricePerHour() / share);
            covering.add(t);
        }
        covering.sort(Comparator.comparingDouble((InstanceType t) -> unitCost.get(t)).thenComparing(InstanceType::name));
        List<InstanceType> byEfficiency = new ArrayList<>();
        for (InstanceType t : covering) {
            if (holdsOne(pool.room(t), shapes)) {
                byEfficiency.add(t);
            }
        }
        return new Menu(byEfficiency, covering, price, frontier(pool, byEfficiency, price));
    }

    /**
     * The types of {@code menu} that no other type dominates (as much room or more in every resource, for no more):
     * the LP's optimum and its unit prices are the same without the dominated ones, and {@link TailExchange} solves
     * it after every move, so a menu of hundreds of types cost more than the moves.
     */
    static List<InstanceType> frontier(PoolContext pool, List<InstanceType> menu, Map<InstanceType, Double> price) {
        List<InstanceType> byPrice = new ArrayList<>(menu);
        byPrice.sort(Comparator.comparingDouble((InstanceType t) -> price.get(t)).thenComparing(InstanceType::name));
        List<InstanceType> kept = new ArrayList<>();
        for (InstanceType t : byPrice) {
            Resources room = pool.room(t);
            boolean dominated = false;
            for (InstanceType k : kept) {
                if (room.fitsIn(pool.room(k))) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                kept.add(t);
            }
        }
        return kept;
    }

    /**
     * Whether the room holds at least one pod of the group. A type that holds none (a nano node's 15 MiB of memory)
     * still covers the group's aggregate demand cheaply, so left on the menu it would set the LP's fleet and unit
     * prices at a price no pod can get.
     */
    static boolean holdsOne(Resources room, java.util.Collection<Resources> shapes) {
        for (Resources s : shapes) {
            if (s.fitsIn(room)) {
                return true;
            }
        }
        return false;
    }

    /** The fraction of the demand one node's room covers: the binding resource decides. */
    private static double shareOf(Resources room, Resources demand) {
        double share = Double.MAX_VALUE;
        for (var e : demand.asMap().entrySet()) {
            share = Math.min(share, (double) room.get(e.getKey()) / e.getValue());
        }
        return share == Double.MAX_VALUE ? 0 : share;
    }

    /** {@code t}'s cheapest offering under {@code reqs}, infinite if it has none. */
    private static double offered(InstanceType t, Requirements reqs) {
        Offering o = t.cheapestOffering(reqs);
        return o == null ? Double.POSITIVE_INFINITY : o.pricePerHour();
    }

    /** A packing's price with each bin right-sized to the cheapest type that holds what it was given. */
    private static double cost(PoolContext pool, List<ShapePacking.Bin<PodConstraints, InstanceType>> plan,
                               List<InstanceType> menu, Map<InstanceType, Double> price) {
        double cost = 0;
        for (ShapePacking.Bin<PodConstraints, InstanceType> bin : plan) {
            Resources used = Resources.ZERO;
            for (PodConstraints c : bin.pods()) {
                used = used.plus(c.requests());
            }
            // A bin packed on another menu (a re-packed tail) may have a type this one lacks: only the menu prices it.
            double cheapest = Math.min(price.getOrDefault(bin.type(), Double.POSITIVE_INFINITY), rightSized(pool, used, menu, price));
            cost += cheapest;
        }
        return cost;
    }

    /** The price of the cheapest type on the menu whose room holds {@code used}; infinite if none does. */
    private static double rightSized(PoolContext pool, Resources used, List<InstanceType> menu, Map<InstanceType, Double> price) {
        double cheapest = Double.POSITIVE_INFINITY;
        for (InstanceType t : menu) {
            if (price.get(t) < cheapest && used.fitsIn(pool.room(t))) {
                cheapest = price.get(t);
            }
        }
        return cheapest;
    }
}
