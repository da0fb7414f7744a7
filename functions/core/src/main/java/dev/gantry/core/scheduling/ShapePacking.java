package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Vector bin packing by shape: pods with identical requests form one class (pods of a Deployment share a shape, so
 * classes are few). Bins are filled one at a time; each step adds a pod of the class whose request, normalised by the
 * bin's room, best aligns with the room still free (the dot-product heuristic), so CPU and memory fill together
 * instead of one running out while the other idles. Deterministic; O(pods × classes).
 */
final class ShapePacking {
    private ShapePacking() {
    }

    /** Packs {@code pods} into bins of {@code room}; returns the bins' contents, or null if some pod exceeds the room. */
    static <T> List<List<T>> pack(List<T> pods, java.util.function.Function<T, Resources> requests, Resources room) {
        Map<Resources, List<T>> byShape = new LinkedHashMap<>();
        for (T p : pods) {
            byShape.computeIfAbsent(requests.apply(p), k -> new ArrayList<>()).add(p);
        }
        List<Resources> shapes = new ArrayList<>(byShape.keySet());
        int n = shapes.size();
        double[][] norm = new double[n][];
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            if (!shapes.get(i).fitsIn(room)) {
                return null;
            }
            norm[i] = normalised(shapes.get(i), room);
        }
        int left = pods.size();
        List<List<T>> bins = new ArrayList<>();
        while (left > 0) {
            List<T> bin = new ArrayList<>();
            Resources free = room;
            while (true) {
                double[] freeNorm = normalised(free, room);
                int best = -1;
                double bestScore = -1;
                for (int i = 0; i < n; i++) {
                    if (next[i] < byShape.get(shapes.get(i)).size() && shapes.get(i).fitsIn(free)) {
                        double score = dot(norm[i], freeNorm);
                        if (score > bestScore) {
                            bestScore = score;
                            best = i;
                        }
                    }
                }
                if (best < 0) {
                    break;
                }
                List<T> cls = byShape.get(shapes.get(best));
                // Take as many of this shape as still fit while it stays the best choice; one at a time is exact.
                bin.add(cls.get(next[best]++));
                free = free.minus(shapes.get(best));
                left--;
            }
            bins.add(bin);
        }
        return bins;
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
