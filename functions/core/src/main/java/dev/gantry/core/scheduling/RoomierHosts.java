package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Roomier hosts for a group's GPU (or other extended-resource) pods. {@link ExtendedSplit} packs those pods first, on
 * the type that holds them cheapest, and fills the room they leave with the group's plain pods; but a type that costs
 * a few percent more per pod may leave far more room: g5g.4xlarge holds a 4-vCPU, 16-GiB, one-GPU pod for 0.1877 $/h
 * with 11.9 vCPU to spare, g4dn.2xlarge for 0.1822 with 3.9. This names such types (within {@link #WITHIN} of the
 * cheapest price per pod of the group's commonest extended shape, with more cpu or memory left beside it, at most
 * {@link #AT_MOST}), so that the caller packs the extended pods on each of them in turn and keeps the cheapest
 * packing. Gantry's own rule. Deterministic.
 */
final class RoomierHosts {
    /** A roomier type costs at most this factor of the cheapest price per pod. */
    private static final double WITHIN = 1.10;
    private static final int AT_MOST = 2;

    private RoomierHosts() {
    }

    static boolean asksExtended(Resources r) {
        return r.extended().values().stream().anyMatch(v -> v > 0);
    }

    /** The roomier types for the group's extended pods, best first; empty when the group mixes none with plain pods. */
    static List<InstanceType> of(PoolContext pool, List<InstanceType> compatible, Requirements reqs, List<PodConstraints> pods) {
        Map<Resources, Integer> extended = new LinkedHashMap<>();
        boolean plain = false;
        for (PodConstraints c : pods) {
            if (asksExtended(c.requests())) {
                extended.merge(c.requests(), 1, Integer::sum);
            } else {
                plain = true;
            }
        }
        if (extended.isEmpty() || !plain) {
            return List.of();
        }
        Resources shape = extended.entrySet().stream()
                .max(Comparator.comparingInt((Map.Entry<Resources, Integer> e) -> e.getValue()).thenComparingLong(e -> e.getKey().cpuMillis()))
                .orElseThrow().getKey();
        List<InstanceType> hosts = new ArrayList<>();
        Map<InstanceType, Double> perPod = new java.util.IdentityHashMap<>();
        for (InstanceType t : compatible) {
            Offering o = t.cheapestOffering(reqs);
            long k = o == null ? 0 : TailExchange.copies(shape, pool.room(t));
            if (k > 0) {
                hosts.add(t);
                perPod.put(t, o.pricePerHour() / k);
            }
        }
        if (hosts.isEmpty()) {
            return List.of();
        }
        hosts.sort(Comparator.comparingDouble((InstanceType t) -> perPod.get(t)).thenComparing(InstanceType::name));
        InstanceType cheapest = hosts.getFirst();
        Resources left = spare(pool, cheapest, shape);
        List<InstanceType> out = new ArrayList<>();
        for (InstanceType t : hosts.subList(1, hosts.size())) {
            if (perPod.get(t) > WITHIN * perPod.get(cheapest) || out.size() == AT_MOST) {
                break;
            }
            Resources spare = spare(pool, t, shape);
            if (spare.cpuMillis() > left.cpuMillis() || spare.memoryBytes() > left.memoryBytes()) {
                out.add(t);
            }
        }
        return out;
    }

    /** The room a node of type t has left beside as many pods of the shape as it holds. */
    private static Resources spare(PoolContext pool, InstanceType t, Resources shape) {
        Resources room = pool.room(t);
        return room.minus(shape.times(TailExchange.copies(shape, room)));
    }

    /** The extended pods packed with each bin on {@code host}, or, for a pod it does not hold, the cheapest type that does. */
    static List<ShapePacking.Bin<PodConstraints, InstanceType>> pack(PoolContext pool, List<InstanceType> compatible, Requirements reqs,
                                                                     List<PodConstraints> pods, InstanceType host) {
        List<InstanceType> byPrice = new ArrayList<>();
        for (InstanceType t : compatible) {
            if (t.cheapestOffering(reqs) != null) {
                byPrice.add(t);
            }
        }
        byPrice.sort(Comparator.comparingDouble((InstanceType t) -> t.cheapestOffering(reqs).pricePerHour()).thenComparing(InstanceType::name));
        return ShapePacking.pack(pods, PodConstraints::requests, anchor -> {
            if (anchor.fitsIn(pool.room(host))) {
                return host;
            }
            for (InstanceType t : byPrice) {
                if (anchor.fitsIn(pool.room(t))) {
                    return t;
                }
            }
            return null;
        }, pool::room);
    }
}
