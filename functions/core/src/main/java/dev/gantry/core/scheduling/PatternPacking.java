package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Packs a bag of few pod shapes by patterns: how many pods of each shape one node of a type holds. Bin-by-bin filling
 * decides each node alone, so a bag whose pods pair badly on the cheap small types (two pods fill a 2-vCPU node's cpu,
 * a third would not fit, and the memory-heavy ones fit only alone) leaves many nodes with one pod. This solves the
 * cutting-stock LP instead (Gilmore–Gomory column generation): the master is {@link LowerBound.Simplex#minCover} with
 * one row per shape, and each round adds, for the types whose best pattern at the master's dual prices is worth more
 * than the node costs, that pattern (a bounded knapsack, searched depth-first within a node budget). The LP's patterns,
 * rounded up, become bins. The caller keeps the result only if it is cheaper. Deterministic; null when the bag has too many shapes or a pod fits no
 * type.
 */
final class PatternPacking {
    /** Bags with more shapes are left to bin-by-bin filling. */
    private static final int MAX_SHAPES = 48;
    private static final int MAX_ROUNDS = 30;
    /** New columns per round, at most: those whose pattern is worth most over its price. */
    private static final int COLUMNS_PER_ROUND = 8;
    /** The rounds stop once the LP shows no packing can cost less than this share of the plan to beat. */
    private static final double WORTH = 0.995;
    /** Depth-first steps per knapsack; the best pattern found by then is taken (the first dive is the greedy one). */
    private static final int MAX_STEPS = 300;
    /** Per round, the types whose greedy pattern prices best are searched depth-first; this many. */
    private static final int SEARCHED = 8;

    private PatternPacking() {
    }

    /**
     * @param types   the types a node may be, cheapest first
     * @param priceOf a type's price per hour
     * @param toBeat  what the group's current packing costs: no packing is sought once the LP shows none can cost
     *                {@link #WORTH} of it or less (Farley's bound: the master's value over the best pattern's worth
     *                per dollar)
     */
    static <T, B> List<ShapePacking.Bin<T, B>> pack(List<T> pods, Function<T, Resources> requests, List<B> types, Function<B, Resources> roomOf,
                                                   ToDoubleFunction<B> priceOf, double toBeat) {
        Map<Resources, List<T>> byShape = new LinkedHashMap<>();
        for (T p : pods) {
            byShape.computeIfAbsent(requests.apply(p), k -> new ArrayList<>()).add(p);
        }
        int m = byShape.size();
        if (m == 0 || m > MAX_SHAPES) {
            return null;
        }
        List<Resources> shapes = new ArrayList<>(byShape.keySet());
        List<String> dims = dimensions(shapes);
        long[][] size = new long[m][];
        double[] count = new double[m];
        for (int i = 0; i < m; i++) {
            size[i] = vector(shapes.get(i), dims);
            count[i] = byShape.get(shapes.get(i)).size();
        }
        List<B> menu = new ArrayList<>();
        List<long[]> rooms = new ArrayList<>();
        List<Double> prices = new ArrayList<>();
        menu(types, roomOf, priceOf, dims, size, menu, rooms, prices);
        List<int[]> patterns = new ArrayList<>();
        List<Integer> typeOf = new ArrayList<>();
        for (int i = 0; i < m; i++) { // one single-shape column per shape, on the cheapest type holding it, so the cover is feasible
            int t = firstHolding(rooms, size[i]);
            if (t < 0) {
                return null;
            }
            int[] k = new int[m];
            k[i] = (int) Math.min(count[i], copies(size[i], rooms.get(t)));
            patterns.add(k);
            typeOf.add(t);
        }
        double[] x = null;
        for (int round = 0; round <= MAX_ROUNDS; round++) {
            double[] dual = new double[m];
            x = master(patterns, typeOf, prices, count, dual);
            if (round == MAX_ROUNDS) {
                break;
            }
            // Every type's greedy pattern first (cheap); the depth-first search only for the types that price best by it.
            Integer[] byGreedy = new Integer[menu.size()];
            double[] greedy = new double[menu.size()];
            for (int t = 0; t < menu.size(); t++) {
                byGreedy[t] = t;
                greedy[t] = value(dual, knapsack(size, count, dual, rooms.get(t), m)) / prices.get(t); // m steps: the first dive
            }
            Arrays.sort(byGreedy, (a, b) -> Double.compare(greedy[b], greedy[a]));
            List<double[]> found = new ArrayList<>(); // {value over price, type}
            List<int[]> foundPatterns = new ArrayList<>();
            for (int g = 0; g < Math.min(SEARCHED, byGreedy.length); g++) {
                int t = byGreedy[g];
                int[] k = knapsack(size, count, dual, rooms.get(t), MAX_STEPS);
                double value = value(dual, k);
                if (value > prices.get(t) * (1 + 1e-7)) {
                    found.add(new double[]{value / prices.get(t), t});
                    foundPatterns.add(k);
                }
            }
            double best = 1;
            for (double[] f : found) {
                best = Math.max(best, f[0]);
            }
            double z = 0;
            for (int j = 0; j < x.length; j++) {
                z += x[j] * prices.get(typeOf.get(j));
            }
            if (z / best >= WORTH * toBeat) {
                return null;
            }
            if (found.isEmpty()) {
                break;
            }
            Integer[] order = new Integer[found.size()];
            Arrays.setAll(order, i -> i);
            Arrays.sort(order, (a, b) -> Double.compare(found.get(b)[0], found.get(a)[0]));
            for (int j = 0; j < Math.min(COLUMNS_PER_ROUND, order.length); j++) {
                patterns.add(foundPatterns.get(order[j]));
                typeOf.add((int) found.get(order[j])[1]);
            }
        }
        return rounded(byShape, shapes, patterns, typeOf, menu, x, requests, roomOf);
    }

    /**
     * Each pattern as many whole times as the LP uses it, then once more for the patterns used fractionally, the largest
     * fraction first, until every pod has a bin (the cover's rows guarantee it); never more pods of a shape than are
     * left, so the last bins may be part full (the caller right-sizes them). Then the emptiest bins are repaired
     * ({@link TailRepair}).
     */
    private static <T, B> List<ShapePacking.Bin<T, B>> rounded(Map<Resources, List<T>> byShape, List<Resources> shapes, List<int[]> patterns,
                                                              List<Integer> typeOf, List<B> menu, double[] x, Function<T, Resources> requests,
                                                              Function<B, Resources> roomOf) {
        int m = shapes.size();
        int[] next = new int[m];
        int left = 0;
        for (List<T> ps : byShape.values()) {
            left += ps.size();
        }
        List<ShapePacking.Bin<T, B>> out = new ArrayList<>();
        Integer[] byFraction = new Integer[patterns.size()];
        Arrays.setAll(byFraction, j -> j);
        Arrays.sort(byFraction, (a, b) -> Double.compare(x[b] - Math.floor(x[b] + 1e-9), x[a] - Math.floor(x[a] + 1e-9)));
        for (int pass = 0; pass < 2 && left > 0; pass++) {
            for (int j : byFraction) {
                long copies = pass == 0 ? (long) Math.floor(x[j] + 1e-9) : x[j] - Math.floor(x[j] + 1e-9) > 1e-9 ? 1 : 0;
                int[] k = patterns.get(j);
                for (long copy = 0; copy < copies && left > 0; copy++) {
                    List<T> bin = new ArrayList<>();
                    for (int i = 0; i < m; i++) {
                        List<T> ps = byShape.get(shapes.get(i));
                        for (int c = 0; c < k[i] && next[i] < ps.size(); c++) {
                            bin.add(ps.get(next[i]++));
                        }
                    }
                    left -= bin.size();
                    if (!bin.isEmpty()) {
                        out.add(new ShapePacking.Bin<>(menu.get(typeOf.get(j)), bin));
                    }
                }
            }
        }
        if (left > 0) {
            return null; // the simplex stopped unsolved
        }
        return out.size() > 1 ? TailRepair.repair(out, requests, roomOf) : out;
    }

    /** The master LP over the patterns so far: the amounts of each (all zero if the simplex stopped unsolved), and the duals per shape. */
    private static double[] master(List<int[]> patterns, List<Integer> typeOf, List<Double> prices, double[] count, double[] dual) {
        int m = count.length;
        int n = patterns.size();
        double[][] a = new double[m][n];
        double[] price = new double[n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                a[i][j] = patterns.get(j)[i];
            }
            price[j] = prices.get(typeOf.get(j));
        }
        double[] x = new double[n];
        LowerBound.Simplex.minCover(a, count.clone(), price, n, x, dual);
        return x;
    }

    /**
     * The menu: the types that hold some shape, less each one another type at most as dear holds everything of (every
     * dimension the pods ask for at least as large).
     */
    private static <B> void menu(List<B> types, Function<B, Resources> roomOf, ToDoubleFunction<B> priceOf, List<String> dims, long[][] size,
                                 List<B> menu, List<long[]> rooms, List<Double> prices) {
        List<B> sorted = new ArrayList<>(types);
        sorted.sort(java.util.Comparator.comparingDouble(priceOf)); // stable: ties keep the caller's order
        for (B t : sorted) {
            double price = priceOf.applyAsDouble(t);
            long[] room = vector(roomOf.apply(t), dims);
            if (!(price > 0) || Arrays.stream(size).noneMatch(s -> fits(s, room))) {
                continue;
            }
            boolean dominated = false;
            for (long[] kept : rooms) {
                if (fits(room, kept)) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                menu.add(t);
                rooms.add(room);
                prices.add(price);
            }
        }
    }

    /**
     * The pattern worth most at the dual prices that fits {@code room}, with at most {@code count[i]} pods of shape i:
     * depth-first over the shapes, the densest first, most copies first, pruned by a bound on what the room left can
     * still be worth, within {@link #MAX_STEPS}.
     */
    static int[] knapsack(long[][] size, double[] count, double[] dual, long[] room, int maxSteps) {
        int m = size.length;
        int d = room.length;
        Integer[] order = new Integer[m];
        Arrays.setAll(order, i -> i);
        double[] density = new double[m];
        for (int i = 0; i < m; i++) {
            double share = 0;
            for (int r = 0; r < d; r++) {
                share = Math.max(share, room[r] > 0 ? (double) size[i][r] / room[r] : (size[i][r] > 0 ? Double.POSITIVE_INFINITY : 0));
            }
            density[i] = dual[i] <= 0 || share == Double.POSITIVE_INFINITY ? 0 : dual[i] / Math.max(share, 1e-12);
        }
        Arrays.sort(order, (a, b) -> Double.compare(density[b], density[a]));
        // worth[r][p]: the most one unit of dimension r is worth among the shapes from position p on.
        double[][] worth = new double[d][m + 1];
        for (int r = 0; r < d; r++) {
            for (int p = m - 1; p >= 0; p--) {
                int i = order[p];
                double w = dual[i] <= 0 ? 0 : size[i][r] > 0 ? dual[i] / size[i][r] : Double.POSITIVE_INFINITY;
                worth[r][p] = Math.max(worth[r][p + 1], w);
            }
        }
        Search s = new Search(size, count, dual, order, worth, maxSteps);
        s.dive(0, room.clone(), new int[m], 0);
        return s.best;
    }

    private static final class Search {
        final long[][] size;
        final double[] count;
        final double[] dual;
        final Integer[] order;
        final double[][] worth;
        int[] best;
        double bestValue = 0;
        int steps = 0;
        final int maxSteps;

        Search(long[][] size, double[] count, double[] dual, Integer[] order, double[][] worth, int maxSteps) {
            this.maxSteps = maxSteps;
            this.size = size;
            this.count = count;
            this.dual = dual;
            this.order = order;
            this.worth = worth;
            this.best = new int[size.length];
        }

        void dive(int p, long[] free, int[] k, double value) {
            if (value > bestValue + 1e-12) {
                bestValue = value;
                best = k.clone();
            }
            if (p == order.length || steps++ >= maxSteps) {
                return;
            }
            double bound = Double.POSITIVE_INFINITY;
            for (int r = 0; r < free.length; r++) {
                bound = Math.min(bound, worth[r][p] == Double.POSITIVE_INFINITY ? Double.POSITIVE_INFINITY : worth[r][p] * free[r]);
            }
            if (value + bound <= bestValue + 1e-12) {
                return;
            }
            int i = order[p];
            long most = dual[i] <= 0 ? 0 : Math.min((long) count[i], copies(size[i], free));
            for (long c = most; c >= 0; c--) {
                long[] left = free.clone();
                for (int r = 0; r < left.length; r++) {
                    left[r] -= c * size[i][r];
                }
                k[i] = (int) c;
                dive(p + 1, left, k, value + c * dual[i]);
                k[i] = 0;
                if (steps >= maxSteps) {
                    return;
                }
            }
        }
    }

    private static double value(double[] dual, int[] k) {
        double v = 0;
        for (int i = 0; i < k.length; i++) {
            v += dual[i] * k[i];
        }
        return v;
    }

    /** The dimensions some shape asks for: cpu, memory, pod slots, ephemeral storage and each extended resource. */
    private static List<String> dimensions(List<Resources> shapes) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>();
        for (Resources s : shapes) {
            s.asMap().forEach((k, v) -> {
                if (v > 0) {
                    keys.add(k);
                }
            });
        }
        return List.copyOf(keys);
    }

    private static long[] vector(Resources r, List<String> dims) {
        long[] v = new long[dims.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.get(dims.get(i));
        }
        return v;
    }

    private static boolean fits(long[] s, long[] room) {
        for (int r = 0; r < s.length; r++) {
            if (s[r] > room[r]) {
                return false;
            }
        }
        return true;
    }

    private static long copies(long[] s, long[] room) {
        long k = Long.MAX_VALUE;
        for (int r = 0; r < s.length; r++) {
            if (s[r] > 0) {
                k = Math.min(k, Math.max(0, room[r]) / s[r]);
            }
        }
        return k == Long.MAX_VALUE ? 0 : k;
    }

    private static int firstHolding(List<long[]> rooms, long[] s) {
        for (int t = 0; t < rooms.size(); t++) {
            if (fits(s, rooms.get(t))) {
                return t;
            }
        }
        return -1;
    }
}
