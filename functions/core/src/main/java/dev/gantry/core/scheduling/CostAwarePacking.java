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

/**
 * Gantry's placement. Constrained pods (topology spread, pod affinity, host ports, or counted by someone's selector)
 * go through Karpenter's loop first, since their placement is what is hard. The remaining "free" pods then:
 * <ol>
 *   <li>take room on existing nodes and in-flight claims, as the greedy would;</li>
 *   <li>fill slack in the claims already opened, where it costs nothing (the expected type stays as cheap);</li>
 *   <li>are packed by shape ({@link ShapePacking}), per NodePool and requirement set, into the instance type that is
 *       cheapest for their aggregate shape (tried over the few most cost-efficient types, cheapest packing wins);</li>
 * </ol>
 * and finally every claim is right-sized to the cheapest type that holds it. Deterministic.
 */
final class CostAwarePacking {
    /** How many of the most cost-efficient types are tried as the bin type for a group. */
    private static final int CANDIDATE_TYPES = 4;

    private CostAwarePacking() {
    }

    static void run(Packer packer, List<Pod> pending) {
        List<PodConstraints> all = packer.prepare(pending);
        List<PodConstraints> free = new ArrayList<>();
        for (PodConstraints c : all) {
            if (isFree(packer, c)) {
                free.add(c);
            } else {
                packer.place(c);
            }
        }
        Map<GroupKey, List<PodConstraints>> groups = new LinkedHashMap<>();
        for (PodConstraints c : free) {
            if (packer.placeOnSlots(c) || packer.placeInClaims(c, packer.claims, true)) {
                continue;
            }
            PoolContext pool = firstPoolThatTakes(packer, c);
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
    private static boolean isFree(Packer packer, PodConstraints c) {
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

    private static PoolContext firstPoolThatTakes(Packer packer, PodConstraints c) {
        for (PoolContext pool : packer.pools) {
            if (pool.nodeAllowed() && Claim.open(pool, -1).fit(c, Map.of()).ok()) {
                return pool;
            }
        }
        return null;
    }

    private static void packGroup(Packer packer, GroupKey group, List<PodConstraints> pods) {
        List<PodConstraints> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(c -> c.pod().key()));
        Resources demand = Resources.ZERO;
        for (PodConstraints c : sorted) {
            demand = demand.plus(c.requests());
        }
        Requirements reqs = group.pool().requirements.intersect(group.requirements());
        List<InstanceType> compatible = new ArrayList<>();
        for (InstanceType t : group.pool().types) {
            if (reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null) {
                compatible.add(t);
            }
        }
        InstanceType best = cheapestBinType(group.pool(), compatible, reqs, sorted, demand);
        if (best == null) {
            sorted.forEach(packer::place); // nothing holds every pod: Karpenter's loop sorts it out, with reasons
            return;
        }
        Resources room = best.allocatable().minus(group.pool().daemonOverhead(best));
        for (List<PodConstraints> bin : ShapePacking.pack(sorted, PodConstraints::requests, room)) {
            Claim claim = null;
            for (PodConstraints c : bin) {
                if (claim == null) {
                    int before = packer.claims.size();
                    if (packer.openClaim(c, group.pool(), List.of(best)) == null) {
                        claim = packer.claims.get(before);
                        continue;
                    }
                } else if (packer.placeInClaims(c, List.of(claim), false)) {
                    continue;
                }
                packer.place(c); // limits or a node limit bit: fall back to the greedy loop for this pod
            }
        }
    }

    /**
     * Among the types that are cheapest per unit of the group's demand shape, the one whose packing (every bin then
     * right-sized) costs least. A dry run: nothing is placed.
     */
    private static InstanceType cheapestBinType(PoolContext pool, List<InstanceType> compatible, Requirements reqs,
                                                List<PodConstraints> pods, Resources demand) {
        List<InstanceType> byEfficiency = new ArrayList<>();
        Map<InstanceType, Double> price = new java.util.IdentityHashMap<>();
        Map<InstanceType, Double> unitCost = new java.util.IdentityHashMap<>();
        Resources largest = Resources.ZERO;
        for (PodConstraints c : pods) {
            largest = largest.max(c.requests());
        }
        for (InstanceType t : compatible) {
            Offering o = t.cheapestOffering(reqs);
            Resources room = t.allocatable().minus(pool.daemonOverhead(t));
            double share = shareOf(room, demand);
            if (o == null || share <= 0 || !largest.fitsIn(room)) {
                continue; // a bin type must hold any pod of the group
            }
            price.put(t, o.pricePerHour());
            unitCost.put(t, o.pricePerHour() / share);
            byEfficiency.add(t);
        }
        byEfficiency.sort(Comparator.comparingDouble((InstanceType t) -> unitCost.get(t)).thenComparing(InstanceType::name));
        InstanceType best = null;
        double bestCost = Double.MAX_VALUE;
        for (InstanceType t : byEfficiency.subList(0, Math.min(CANDIDATE_TYPES, byEfficiency.size()))) {
            double cost = dryRunCost(pool, t, byEfficiency, price, pods);
            if (cost < bestCost) {
                bestCost = cost;
                best = t;
            }
        }
        return best;
    }

    /** The fraction of the demand one node's room covers: the binding resource decides. */
    private static double shareOf(Resources room, Resources demand) {
        double share = Double.MAX_VALUE;
        for (var e : demand.asMap().entrySet()) {
            share = Math.min(share, (double) room.get(e.getKey()) / e.getValue());
        }
        return share == Double.MAX_VALUE ? 0 : share;
    }

    private static double dryRunCost(PoolContext pool, InstanceType bin, List<InstanceType> menu, Map<InstanceType, Double> price,
                                     List<PodConstraints> pods) {
        Resources room = bin.allocatable().minus(pool.daemonOverhead(bin));
        List<List<PodConstraints>> bins = ShapePacking.pack(pods, PodConstraints::requests, room);
        if (bins == null) {
            return Double.MAX_VALUE;
        }
        double cost = 0;
        for (List<PodConstraints> contents : bins) {
            Resources used = Resources.ZERO;
            for (PodConstraints c : contents) {
                used = used.plus(c.requests());
            }
            double cheapest = price.get(bin);
            for (InstanceType t : menu) {
                if (price.get(t) < cheapest && used.plus(pool.daemonOverhead(t)).fitsIn(t.allocatable())) {
                    cheapest = price.get(t);
                }
            }
            cost += cheapest;
        }
        return cost;
    }
}
