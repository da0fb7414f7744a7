package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Shapes that a small node holds whole, taken out of a packing. A packing's bins are few large types, chosen for the
 * group's aggregate shape; a pod there costs its share of its bin. But a pod that nearly fills a tiny type (1.5 vCPU on
 * a 2-vCPU burstable node, 512 MiB on a 548 MiB one) costs less on that type alone than its share of a large node,
 * because the tiny types' price per vCPU and per GiB is a fraction of the large ones'. This finds, for each shape, the
 * type where one pod of it costs least when the type holds as many copies as fit (a homogeneous bin), and takes out
 * the shapes for which that is cheaper than what they cost in the packing: they go into homogeneous bins, the room
 * those bins leave takes pods of the rest, and the caller packs what is left again and keeps whichever packing is
 * cheaper. Gantry's own rule. Deterministic.
 */
final class ShapePeel {
    private ShapePeel() {
    }

    /** Homogeneous bins for the peeled shapes, and the pods left to pack. */
    record Peeled<T, B>(List<ShapePacking.Bin<T, B>> bins, List<T> rest) {
    }

    /**
     * @param plan   a packing of {@code pods}
     * @param menu   the types a bin may have
     * @param price  a type's price
     * @return the peeled bins and the rest, or null when no shape is cheaper alone
     */
    static <T, B> Peeled<T, B> peel(List<T> pods, List<ShapePacking.Bin<T, B>> plan, Function<T, Resources> requests, List<B> menu,
                                    Function<B, Resources> roomOf, ToDoubleFunction<B> price) {
        Map<T, Double> share = new IdentityHashMap<>();
        for (ShapePacking.Bin<T, B> bin : plan) {
            Resources room = roomOf.apply(bin.type());
            double total = 0;
            for (T p : bin.pods()) {
                total += size(requests.apply(p), room);
            }
            for (T p : bin.pods()) {
                share.put(p, price.applyAsDouble(bin.type()) * size(requests.apply(p), room) / Math.max(1e-12, total));
            }
        }
        Map<Resources, List<T>> byShape = new LinkedHashMap<>();
        for (T p : pods) {
            byShape.computeIfAbsent(requests.apply(p), k -> new ArrayList<>()).add(p);
        }
        List<ShapePacking.Bin<T, B>> homogeneous = new ArrayList<>();
        Map<Resources, B> typeFor = new LinkedHashMap<>();
        List<T> peeled = new ArrayList<>();
        List<T> rest = new ArrayList<>();
        Map<Resources, Double> paid = new IdentityHashMap<>();
        for (var e : byShape.entrySet()) {
            Resources shape = e.getKey();
            B best = null;
            long bestCopies = 0;
            double bestPerPod = Double.MAX_VALUE;
            for (B t : menu) {
                long k = TailExchange.copies(shape, roomOf.apply(t));
                if (k > 0 && price.applyAsDouble(t) / k < bestPerPod) {
                    bestPerPod = price.applyAsDouble(t) / k;
                    best = t;
                    bestCopies = k;
                }
            }
            double current = 0;
            for (T p : e.getValue()) {
                current += share.getOrDefault(p, 0.0);
            }
            current /= e.getValue().size();
            List<T> all = e.getValue();
            paid.put(shape, current);
            if (best == null || bestPerPod >= current) {
                rest.addAll(all);
                continue;
            }
            typeFor.put(shape, best);
            peeled.addAll(all);
            for (int i = 0; i < all.size(); i += (int) bestCopies) {
                homogeneous.add(new ShapePacking.Bin<>(best, new ArrayList<>(all.subList(i, (int) Math.min(all.size(), i + bestCopies)))));
            }
        }
        if (peeled.isEmpty()) {
            return null;
        }
        // Packed together, each bin on its anchor's type: the smaller peeled pods ride in the room the larger ones leave.
        List<ShapePacking.Bin<T, B>> mixed = ShapePacking.pack(peeled, requests, typeFor::get, roomOf);
        List<ShapePacking.Bin<T, B>> chosen = mixed != null && priced(mixed, price) < priced(homogeneous, price) ? mixed : homogeneous;
        return new Peeled<>(chosen, fill(chosen, rest, requests, roomOf, paid));
    }

    /**
     * Fills the room the peeled bins leave with pods of the rest, the shapes that cost most in the packing first (a
     * shape's pods ride there for nothing, instead of paying their share of a node of their own): a 1-vCPU pod alone
     * on a 2-vCPU node leaves room for the small pods. Adds to the bins' pod lists; returns the pods left.
     */
    private static <T, B> List<T> fill(List<ShapePacking.Bin<T, B>> bins, List<T> rest, Function<T, Resources> requests,
                                       Function<B, Resources> roomOf, Map<Resources, Double> paid) {
        Map<Resources, java.util.ArrayDeque<T>> byShape = new LinkedHashMap<>();
        for (T p : rest) {
            byShape.computeIfAbsent(requests.apply(p), k -> new java.util.ArrayDeque<>()).add(p);
        }
        List<Resources> shapes = new ArrayList<>(byShape.keySet());
        shapes.sort(java.util.Comparator.comparingDouble((Resources r) -> -paid.getOrDefault(r, 0.0)));
        for (ShapePacking.Bin<T, B> bin : bins) {
            Resources free = roomOf.apply(bin.type());
            for (T p : bin.pods()) {
                free = free.minus(requests.apply(p));
            }
            for (int i = 0; i < shapes.size(); ) {
                Resources shape = shapes.get(i);
                java.util.ArrayDeque<T> left = byShape.get(shape);
                if (!left.isEmpty() && shape.fitsIn(free)) {
                    bin.pods().add(left.poll());
                    free = free.minus(shape);
                    i = 0;
                } else {
                    i++;
                }
            }
        }
        List<T> out = new ArrayList<>();
        for (T p : rest) {
            // Each shape's pods leave their queue from its head, so those still queued are the ones not placed.
            java.util.ArrayDeque<T> left = byShape.get(requests.apply(p));
            if (!left.isEmpty() && left.peekFirst() == p) {
                out.add(left.poll());
            }
        }
        return out;
    }

    private static <T, B> double priced(List<ShapePacking.Bin<T, B>> bins, ToDoubleFunction<B> price) {
        double total = 0;
        for (ShapePacking.Bin<T, B> bin : bins) {
            total += price.applyAsDouble(bin.type());
        }
        return total;
    }

    /** A pod's size in a bin: its largest share of the room over cpu, memory and pod slots. */
    private static double size(Resources r, Resources room) {
        double s = 0;
        s = Math.max(s, room.cpuMillis() > 0 ? (double) r.cpuMillis() / room.cpuMillis() : 0);
        s = Math.max(s, room.memoryBytes() > 0 ? (double) r.memoryBytes() / room.memoryBytes() : 0);
        s = Math.max(s, room.pods() > 0 ? (double) r.pods() / room.pods() : 0);
        return s;
    }
}
