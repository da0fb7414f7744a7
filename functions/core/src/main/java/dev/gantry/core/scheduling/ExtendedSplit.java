package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A group that mixes pods asking for an extended resource (GPUs, Neuron devices, ...) with plain pods, packed in three
 * steps: the extended pods alone, on the types that have the resource; then plain pods into the room those nodes leave
 * (already paid for), the shape most aligned with the free room first; then the plain pods left, alone, on the whole
 * menu. Packed as one bag, each bin a GPU pod anchors fills up with plain pods before the next GPU pod comes, so GPU
 * nodes open for one or two GPUs each and carry plain pods that cheap plain nodes would hold for a fraction of the
 * price. Gantry's own rule; the caller keeps whichever packing is cheaper. Deterministic.
 */
final class ExtendedSplit {
    private ExtendedSplit() {
    }

    /** The three-step packing, or null when the group is not mixed or some part cannot be packed. */
    static List<ShapePacking.Bin<PodConstraints, InstanceType>> plan(List<PodConstraints> pods,
                                                                     Function<List<PodConstraints>, List<ShapePacking.Bin<PodConstraints, InstanceType>>> pack,
                                                                     Function<InstanceType, Resources> roomOf) {
        List<PodConstraints> extended = new ArrayList<>();
        List<PodConstraints> plain = new ArrayList<>();
        for (PodConstraints c : pods) {
            (asksExtended(c.requests()) ? extended : plain).add(c);
        }
        if (extended.isEmpty() || plain.isEmpty()) {
            return null;
        }
        List<ShapePacking.Bin<PodConstraints, InstanceType>> first = pack.apply(extended);
        if (first == null) {
            return null;
        }
        Map<Resources, ArrayDeque<PodConstraints>> byShape = new LinkedHashMap<>();
        for (PodConstraints c : plain) {
            byShape.computeIfAbsent(c.requests(), k -> new ArrayDeque<>()).add(c);
        }
        List<Resources> shapes = new ArrayList<>(byShape.keySet());
        shapes.sort(Comparator.comparingLong((Resources r) -> -((r.memoryBytes() >> 20) + r.cpuMillis())));
        Set<PodConstraints> placed = Collections.newSetFromMap(new IdentityHashMap<>());
        List<ShapePacking.Bin<PodConstraints, InstanceType>> out = new ArrayList<>();
        for (ShapePacking.Bin<PodConstraints, InstanceType> bin : first) {
            Resources room = roomOf.apply(bin.type());
            Resources free = room;
            for (PodConstraints c : bin.pods()) {
                free = free.minus(c.requests());
            }
            List<PodConstraints> in = new ArrayList<>(bin.pods());
            while (true) {
                Resources best = null;
                double bestScore = -1;
                for (Resources shape : shapes) {
                    if (!byShape.get(shape).isEmpty() && shape.fitsIn(free)) {
                        double score = cosine(shape, free, room);
                        if (score > bestScore) {
                            bestScore = score;
                            best = shape;
                        }
                    }
                }
                if (best == null) {
                    break;
                }
                PodConstraints c = byShape.get(best).poll();
                in.add(c);
                placed.add(c);
                free = free.minus(best);
            }
            out.add(new ShapePacking.Bin<>(bin.type(), in));
        }
        List<PodConstraints> rest = plain.stream().filter(c -> !placed.contains(c)).toList();
        if (!rest.isEmpty()) {
            List<ShapePacking.Bin<PodConstraints, InstanceType>> second = pack.apply(rest);
            if (second == null) {
                return null;
            }
            out.addAll(second);
        }
        return out;
    }

    /** A packing's price with each bin at the cheapest type of {@code menu} that holds what it was given (as claims are right-sized). */
    static double price(List<ShapePacking.Bin<PodConstraints, InstanceType>> plan, List<InstanceType> menu, Requirements reqs,
                        Function<InstanceType, Resources> roomOf) {
        List<InstanceType> byPrice = new ArrayList<>();
        Map<InstanceType, Double> price = new IdentityHashMap<>();
        for (InstanceType t : menu) {
            Offering o = t.cheapestOffering(reqs);
            if (o != null) {
                byPrice.add(t);
                price.put(t, o.pricePerHour());
            }
        }
        byPrice.sort(Comparator.comparingDouble(price::get));
        double total = 0;
        for (ShapePacking.Bin<PodConstraints, InstanceType> bin : plan) {
            Resources used = Resources.ZERO;
            for (PodConstraints c : bin.pods()) {
                used = used.plus(c.requests());
            }
            double cheapest = price.getOrDefault(bin.type(), Double.MAX_VALUE);
            for (InstanceType t : byPrice) {
                if (price.get(t) >= cheapest) {
                    break;
                }
                if (used.fitsIn(roomOf.apply(t))) {
                    cheapest = price.get(t);
                    break;
                }
            }
            total += cheapest;
        }
        return total;
    }

    private static boolean asksExtended(Resources r) {
        return r.extended().values().stream().anyMatch(v -> v > 0);
    }

    /** The cosine between a shape and the free room, each as a share of the node's room in cpu, memory and pod slots. */
    private static double cosine(Resources shape, Resources free, Resources room) {
        double[] a = {share(shape.cpuMillis(), room.cpuMillis()), share(shape.memoryBytes(), room.memoryBytes()), share(shape.pods(), room.pods())};
        double[] b = {share(free.cpuMillis(), room.cpuMillis()), share(free.memoryBytes(), room.memoryBytes()), share(free.pods(), room.pods())};
        double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        double norms = Math.sqrt((a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * (b[0] * b[0] + b[1] * b[1] + b[2] * b[2])) + 1e-18;
        return dot / norms + 1e-6 * Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }

    private static double share(long v, long room) {
        return room > 0 ? (double) v / room : 0;
    }
}
