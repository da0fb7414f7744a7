package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A lower bound on the $/h of any placement of a set of pods onto new nodes that knows the pods are whole: the best
 * of two relaxations of the packing, each provably no dearer than any real placement.
 * <ul>
 *   <li><b>The linear program</b> of {@link LowerBound#ofPods} (totals, and size thresholds per resource), plus
 *       <em>count rows</em>: for a group of pods (all of them; those at least a threshold large), a node of type t holds
 *       at most W_t of them, where W_t is how many of the group's smallest pods fit its room in each resource alone
 *       (the most pods any subset can have under one capacity is the smallest ones first), and its pod slots. Every
 *       placement then has Σ W_t n_t ≥ |group|.</li>
 *   <li><b>The integer cover</b> of the all-pods count row, solved exactly: min Σ p_t n_t over whole n_t with
 *       Σ W_t n_t ≥ N. It forgets how pods mix but keeps that nodes come whole; for pods of one shape it is the true
 *       optimum. The same for the pods that request each extended resource, alone (a subset's cost bounds the
 *       whole's): whole GPU nodes for the GPU pods.</li>
 * </ul>
 * Every resource counts that the pods request: cpu, memory and pod slots, and the extended ones (GPUs, Neuron
 * devices, ...), each in the rows, the thresholds and the counts. Room is what a node's pods get: allocatable less the DaemonSets certain to run on every node of the type (the
 * caller's to say, and only those, or the bound is not one). Pods that fit no column's room are left out: no
 * placement holds them.
 */
public final class PackingBound {
    /** The integer cover is solved for at most this many pods (beyond, whole nodes matter little and the LP stands). */
    static final int MAX_COVER_PODS = 50_000;
    private static final int MAX_THRESHOLDS = 6;

    /** One kind of node one could launch: the room its pods get and its price per hour. */
    public record Column(Resources room, double price) {
    }

    private PackingBound() {
    }

    /**
     * The bound, in $/h.
     *
     * @param shapes each distinct effective request vector (one pod slot included) with how many pods have it
     */
    public static double of(Map<Resources, Integer> shapes, List<Column> columns) {
        List<Column> cols = columns.stream().filter(c -> c.price() > 0 && c.room().cpuMillis() > 0 && c.room().memoryBytes() > 0
                && c.room().pods() > 0).toList();
        List<Map.Entry<Resources, Integer>> pods = shapes.entrySet().stream()
                .filter(e -> e.getValue() > 0 && cols.stream().anyMatch(c -> fits(e.getKey(), c.room()))).toList();
        if (pods.isEmpty() || cols.isEmpty()) {
            return 0;
        }
        List<ToLongFunction<Resources>> dims = new ArrayList<>(DIMS);
        List<ToLongFunction<Resources>> extended = LowerBound.extendedDimensions(pods.stream().map(Map.Entry::getKey).toList());
        dims.addAll(extended);
        double best = Math.max(linear(pods, cols, dims), cover(pods, cols, dims));
        for (ToLongFunction<Resources> d : extended) {
            // The pods that need this resource, alone: the nodes that hold them cost at least their own whole cover.
            List<Map.Entry<Resources, Integer>> needing = pods.stream().filter(e -> d.applyAsLong(e.getKey()) > 0).toList();
            best = Math.max(best, cover(needing, cols, dims));
        }
        return best;
    }

    /** Every resource, extended ones and ephemeral storage included: a pod no room holds is in no placement's cost. */
    private static boolean fits(Resources pod, Resources room) {
        return pod.fitsIn(room);
    }

    private static final List<ToLongFunction<Resources>> DIMS = List.of(Resources::cpuMillis, Resources::memoryBytes, Resources::pods);

    private static double linear(List<Map.Entry<Resources, Integer>> pods, List<Column> cols, List<ToLongFunction<Resources>> dims) {
        List<double[]> rows = new ArrayList<>();
        List<Double> rhs = new ArrayList<>();
        group(rows, rhs, pods, cols, s -> true, r -> true, dims);
        List<ToLongFunction<Resources>> sized = new ArrayList<>(dims.subList(0, 2)); // cpu, memory
        sized.addAll(dims.subList(DIMS.size(), dims.size())); // and the extended resources
        for (ToLongFunction<Resources> dim : sized) {
            long[] sizes = pods.stream().map(Map.Entry::getKey).mapToLong(dim).filter(v -> v > 0).distinct().sorted().toArray();
            int step = Math.max(1, (sizes.length + MAX_THRESHOLDS - 1) / MAX_THRESHOLDS);
            for (int i = sizes.length - 1; i >= 0; i -= step) {
                long threshold = sizes[i];
                group(rows, rhs, pods, cols, s -> dim.applyAsLong(s) >= threshold, r -> dim.applyAsLong(r) >= threshold, dims);
            }
        }
        double[] price = cols.stream().mapToDouble(Column::price).toArray();
        return LowerBound.Simplex.minCover(rows.toArray(double[][]::new), rhs.stream().mapToDouble(Double::doubleValue).toArray(),
                price, cols.size(), null);
    }

    /**
     * The rows for one group of pods: its cpu, memory and slots can only be covered by the rooms that could hold one
     * of them, and its count by each room's {@link #most}.
     */
    private static void group(List<double[]> rows, List<Double> rhs, List<Map.Entry<Resources, Integer>> pods, List<Column> cols,
                              Predicate<Resources> member, Predicate<Resources> hosts, List<ToLongFunction<Resources>> dims) {
        List<Map.Entry<Resources, Integer>> g = pods.stream().filter(e -> member.test(e.getKey())).toList();
        if (g.isEmpty()) {
            return;
        }
        Resources total = Resources.ZERO;
        long count = 0;
        for (var e : g) {
            total = total.plus(e.getKey().times(e.getValue()));
            count += e.getValue();
        }
        for (ToLongFunction<Resources> d : dims) {
            if (d.applyAsLong(total) > 0) {
                double[] row = new double[cols.size()];
                for (int j = 0; j < cols.size(); j++) {
                    Resources room = cols.get(j).room();
                    row[j] = hosts.test(room) ? d.applyAsLong(room) : 0;
                }
                rows.add(row);
                rhs.add((double) d.applyAsLong(total));
            }
        }
        double[] row = new double[cols.size()];
        for (int j = 0; j < cols.size(); j++) {
            row[j] = most(g, cols.get(j).room(), dims);
        }
        rows.add(row);
        rhs.add((double) count);
    }

    /**
     * An upper bound on how many of the pods fit one room together: in each resource alone, the most that fit is
     * the smallest ones first (any set of k pods uses at least as much as the k smallest), so the least of those
     * counts over cpu, memory and pod slots.
     */
    static long most(List<Map.Entry<Resources, Integer>> pods, Resources room) {
        return most(pods, room, DIMS);
    }

    /** {@link #most(List, Resources)} over {@code dims} (the extended resources the pods request as well). */
    static long most(List<Map.Entry<Resources, Integer>> pods, Resources room, List<ToLongFunction<Resources>> dims) {
        long best = Long.MAX_VALUE;
        for (ToLongFunction<Resources> d : dims) {
            List<Map.Entry<Resources, Integer>> bySize = new ArrayList<>(pods);
            bySize.sort(java.util.Comparator.comparingLong(e -> d.applyAsLong(e.getKey())));
            long left = d.applyAsLong(room);
            long n = 0;
            for (var e : bySize) {
                long size = d.applyAsLong(e.getKey());
                long take = size == 0 ? e.getValue() : Math.min(e.getValue(), left / size);
                n += take;
                left -= take * size;
                if (take < e.getValue()) {
                    break; // the rest are at least this large
                }
            }
            best = Math.min(best, n);
        }
        return best;
    }

    /** The integer cover of the all-pods count row (min Σ p_t n_t, Σ W_t n_t ≥ N, n whole), or 0 past {@link #MAX_COVER_PODS}. */
    private static double cover(List<Map.Entry<Resources, Integer>> pods, List<Column> cols, List<ToLongFunction<Resources>> dims) {
        long total = pods.stream().mapToLong(Map.Entry::getValue).sum();
        if (total > MAX_COVER_PODS) {
            return 0;
        }
        int n = (int) total;
        // Only the cheapest column per capacity matters.
        Map<Integer, Double> cheapest = new java.util.TreeMap<>();
        for (Column c : cols) {
            int w = (int) Math.min(n, most(pods, c.room(), dims));
            if (w > 0) {
                cheapest.merge(w, c.price(), Math::min);
            }
        }
        if (cheapest.isEmpty()) {
            return 0;
        }
        double[] best = new double[n + 1];
        for (int k = 1; k <= n; k++) {
            double b = Double.POSITIVE_INFINITY;
            for (var e : cheapest.entrySet()) {
                b = Math.min(b, e.getValue() + best[Math.max(0, k - e.getKey())]);
            }
            best[k] = b;
        }
        return best[n];
    }
}
