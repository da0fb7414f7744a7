package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Vector bin packing by shape: pods with identical requests form one class (pods of a Deployment share a shape, so
 * classes are few). Bins are filled one at a time. Each bin is anchored by the largest pod left, and its type is
 * chosen for that anchor; then each step adds a pod of the class whose request, normalised by the bin's room, points
 * most nearly the way the free room does (the largest cosine; size breaks ties), so CPU and memory fill together
 * instead of one running out while the other idles. Deterministic; O(pods × classes).
 */
final class ShapePacking {
    private ShapePacking() {
    }

    /** A bin: its type and the pods in it. */
    record Bin<T, B>(B type, List<T> pods) {
    }

    /** What the bins cost, each at its type's price. */
    static <T, B> double price(List<Bin<T, B>> bins, java.util.function.ToDoubleFunction<B> priceOf) {
        return bins.stream().mapToDouble(b -> priceOf.applyAsDouble(b.type())).sum();
    }

    /** Packs into bins that are all of one room; null if some pod exceeds it. */
    static <T> List<List<T>> pack(List<T> pods, Function<T, Resources> requests, Resources room) {
        List<Bin<T, Resources>> bins = pack(pods, requests, anchor -> anchor.fitsIn(room) ? room : null, r -> r);
        return bins == null ? null : bins.stream().map(Bin::pods).toList();
    }

    /**
     * Packs choosing each bin's type for its anchor (the remaining pod with the largest requests); {@code choose}
     * returns null when nothing holds the anchor, and then the whole packing is null.
     */
    static <T, B> List<Bin<T, B>> pack(List<T> pods, Function<T, Resources> requests, Function<Resources, B> choose,
                                       Function<B, Resources> roomOf) {
        Map<Resources, List<T>> byShape = new LinkedHashMap<>();
        for (T p : pods) {
            byShape.computeIfAbsent(requests.apply(p), k -> new ArrayList<>()).add(p);
        }
        List<Resources> shapes = new ArrayList<>(byShape.keySet());
        // Largest first, so the anchor of each bin is the first class with pods left.
        shapes.sort((a, b) -> Long.compare(weight(b), weight(a)));
        int n = shapes.size();
        int[] next = new int[n];
        int left = pods.size();
        List<Bin<T, B>> bins = new ArrayList<>();
        while (left > 0) {
            int anchor = 0;
            while (next[anchor] >= byShape.get(shapes.get(anchor)).size()) {
                anchor++;
            }
            B type = choose.apply(shapes.get(anchor));
            if (type == null) {
                return null;
            }
            Resources room = roomOf.apply(type);
            List<T> bin = new ArrayList<>();
            bin.add(byShape.get(shapes.get(anchor)).get(next[anchor]++));
            left--;
            Resources free = room.minus(shapes.get(anchor));
            while (left > 0) {
                double[] freeNorm = normalised(free, room);
                int best = -1;
                double bestScore = -1;
                for (int i = 0; i < n; i++) {
                    Resources shape = shapes.get(i);
                    if (next[i] < byShape.get(shape).size() && shape.fitsIn(free)) {
                        double[] v = normalised(shape, room);
                        // Direction first: the shape most like the free room keeps CPU and memory running out together.
                        double score = dot(v, freeNorm) / Math.sqrt(dot(v, v) * dot(freeNorm, freeNorm) + 1e-18) + 1e-6 * Math.sqrt(dot(v, v));
                        if (score > bestScore) {
                            bestScore = score;
                            best = i;
                        }
                    }
                }
                if (best < 0) {
                    break;
                }
                bin.add(byShape.get(shapes.get(best)).get(next[best]++));
                free = free.minus(shapes.get(best));
                left--;
            }
            bins.add(new Bin<>(type, bin));
        }
        return bins;
    }

    /** A size order for shapes: memory in MiB plus CPU in millicores, roughly comparable magnitudes. */
    private static long weight(Resources r) {
        return (r.memoryBytes() >> 20) + r.cpuMillis() + 1000L * r.extended().values().stream().mapToLong(Long::longValue).sum();
    }

    private static double[] normalised(Resources r, Resources room) {
        double[] v = new double[3 + room.extended().size()];
        v[0] = room.cpuMillis() > 0 ? (double) r.cpuMillis() / room.cpuMillis() : 0;
        v[1] = room.memoryBytes() > 0 ? (double) r.memoryBytes() / room.memoryBytes() : 0;
        v[2] = room.pods() > 0 ? (double) r.pods() / room.pods() : 0;
        int i = 3;
        for (var e : room.extended().entrySet()) {
            v[i++] = e.getValue() > 0 ? (double) r.get(e.getKey()) / e.getValue() : 0;
        }
        return v;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
