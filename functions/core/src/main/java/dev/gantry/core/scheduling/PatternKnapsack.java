package dev.gantry.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The pricing step of {@link PatternPacking}'s column generation: the best pattern for one type at the master's dual
 * prices. Public for its knapsack LP ({@link #relax}), which the benchmarks' exact knapsack also bounds with.
 */
public final class PatternKnapsack {
    private PatternKnapsack() {
    }

    /**
     * The pattern worth most at the dual prices that fits {@code room}, with at most {@code count[i]} pods of shape i:
     * depth-first over the shapes, the densest first, most copies first, pruned by a bound on what the room left can
     * still be worth, within {@code maxSteps}.
     */
    static int[] best(long[][] size, double[] count, double[] dual, long[] room, int maxSteps) {
        return best(size, count, dual, room, maxSteps, null);
    }

    /**
     * As above; given the knapsack's LP ({@link #relax}), the search starts from the LP's solution rounded down and
     * then filled (on a large node, a few pods short of the LP's worth, where the depth-first search's own first dive,
     * one shape's most copies at a time, fills one resource and strands the other), and is also pruned by the
     * Lagrangian bound at the LP's prices per unit of room.
     */
    static int[] best(long[][] size, double[] count, double[] dual, long[] room, int maxSteps, Relaxation lp) {
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
        Search s = new Search(size, count, dual, order, worth, maxSteps, lp == null ? null : lp.perUnit(room));
        if (lp != null) {
            s.best = lp.rounded(size, count, dual, room, order);
            s.bestValue = value(dual, s.best);
        }
        s.dive(0, room.clone(), new int[m], 0);
        return s.best;
    }

    /**
     * The knapsack's LP relaxation (max Σ dual_i x_i with Σ_i x_i size_i ≤ room and 0 ≤ x_i ≤ cap_i, the copies of
     * shape i that fit, at most its count): {@code value} bounds every pattern's worth, far tighter than {@link #bound}
     * (which fills each resource alone); {@code roomPrice} is its dual price of each resource, per whole room;
     * {@code amounts} its solution. Where the simplex stops short of the optimum, {@code value} is below it and bounds
     * nothing; {@link #lagrangian} at {@link #perUnit} is a bound whatever the prices.
     */
    public record Relaxation(double value, double[] roomPrice, double[] amounts) {
        /** The prices per unit of each resource: the room's price over its size (zero where there is none of it). */
        public double[] perUnit(long[] room) {
            double[] p = new double[room.length];
            for (int r = 0; r < room.length; r++) {
                p[r] = room[r] > 0 ? roomPrice[r] / room[r] : 0;
            }
            return p;
        }

        /** The amounts rounded down, then filled in {@code order} with the most copies that fit. */
        int[] rounded(long[][] size, double[] count, double[] dual, long[] room, Integer[] order) {
            int m = size.length;
            int[] k = new int[m];
            long[] free = room.clone();
            for (int i = 0; i < m; i++) {
                k[i] = dual[i] <= 0 ? 0 : (int) Math.min(count[i], Math.floor(amounts[i] + 1e-9));
                for (int r = 0; r < free.length; r++) {
                    free[r] -= k[i] * size[i][r];
                }
            }
            for (long f : free) {
                if (f < 0) { // round-off past the room: start empty
                    return new int[m];
                }
            }
            for (int i : order) {
                long more = dual[i] <= 0 ? 0 : Math.min((long) count[i] - k[i], copies(size[i], free));
                k[i] += (int) more;
                for (int r = 0; r < free.length; r++) {
                    free[r] -= more * size[i][r];
                }
            }
            return k;
        }
    }

    /**
     * {@link Relaxation}, solved as its dual (a cover: min Σ_r y_r + Σ_i cap_i z_i with Σ_r y_r size_ir / room_r + z_i ≥
     * dual_i, by {@link LowerBound.Simplex#minCover}); null where no shape that fits is worth anything. Where the
     * simplex stops unsolved, its value is below the optimum and its prices and amounts zero or partial (see
     * {@link Relaxation}).
     */
    public static Relaxation relax(long[][] size, double[] count, double[] dual, long[] room) {
        int m = size.length;
        int d = room.length;
        int[] items = java.util.stream.IntStream.range(0, m).filter(i -> dual[i] > 0 && Math.min(count[i], copies(size[i], room)) >= 1).toArray();
        int n = items.length;
        if (n == 0) {
            return null;
        }
        // Columns: the d resources, then one per shape that fits and is worth something (no empty column: the
        // simplex's scaling divides by each column's price).
        double[][] a = new double[m][d + n];
        double[] b = new double[m];
        double[] price = new double[d + n];
        Arrays.fill(price, 0, d, 1);
        for (int j = 0; j < n; j++) {
            int i = items[j];
            b[i] = dual[i];
            for (int r = 0; r < d; r++) {
                a[i][r] = room[r] > 0 ? (double) size[i][r] / room[r] : 0;
            }
            a[i][d + j] = 1;
            price[d + j] = Math.min(count[i], copies(size[i], room));
        }
        double[] x = new double[d + n];
        double[] amounts = new double[m];
        double v = LowerBound.Simplex.minCover(a, b, price, d + n, x, amounts);
        return Double.isFinite(v) && v > 0 ? new Relaxation(v, Arrays.copyOf(x, d), amounts) : null;
    }

    private static final class Search {
        final long[][] size;
        final double[] count;
        final double[] dual;
        final Integer[] order;
        final double[][] worth;
        final double[] perUnit;
        /** The shapes worth more than their price at {@code perUnit}, in the search's order (the rest add nothing to the bound). */
        final Integer[] gaining;
        /** For each position in the order, the first of {@link #gaining} at or after it. */
        final int[] gainingFrom;
        int[] best;
        double bestValue = 0;
        int steps = 0;
        final int maxSteps;

        Search(long[][] size, double[] count, double[] dual, Integer[] order, double[][] worth, int maxSteps, double[] perUnit) {
            this.maxSteps = maxSteps;
            this.size = size;
            this.count = count;
            this.dual = dual;
            this.order = order;
            this.worth = worth;
            this.perUnit = perUnit;
            List<Integer> gain = new ArrayList<>();
            this.gainingFrom = new int[order.length + 1];
            for (int p = 0; p < order.length; p++) {
                gainingFrom[p] = gain.size();
                double g = dual[order[p]];
                for (int r = 0; perUnit != null && r < perUnit.length; r++) {
                    g -= perUnit[r] * size[order[p]][r];
                }
                if (perUnit != null && g > 0) {
                    gain.add(order[p]);
                }
            }
            gainingFrom[order.length] = gain.size();
            this.gaining = gain.toArray(new Integer[0]);
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
            if (perUnit != null) { // the Lagrangian bound at the LP's prices: valid at any prices, tight near the root
                bound = Math.min(bound, lagrangian(size, count, dual, free, perUnit, gaining, gainingFrom[p]));
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

    /**
     * The Lagrangian bound on what the shapes {@code order[from..]} can be worth in {@code room} at {@code perUnit}
     * prices of each resource: the room at those prices, plus each shape's worth above its price at them times the
     * copies that fit. Any prices at or above zero give an upper bound (every pattern pays for the room it takes at
     * most once); the knapsack LP's own ({@link Relaxation#perUnit}) give the LP's value, and a type's LP prices bound
     * another type's patterns too, only less tightly.
     */
    static double lagrangian(long[][] size, double[] count, double[] dual, long[] room, double[] perUnit, Integer[] order, int from) {
        double v = 0;
        for (int r = 0; r < room.length; r++) {
            v += perUnit[r] * Math.max(0, room[r]);
        }
        for (int q = from; q < order.length; q++) {
            int i = order[q];
            double gain = dual[i];
            for (int r = 0; r < room.length; r++) {
                gain -= perUnit[r] * size[i][r];
            }
            if (gain > 0) {
                v += gain * Math.min(count[i], copies(size[i], room));
            }
        }
        return v;
    }

    /** How many copies of a pod of size {@code s} fit {@code room}. */
    static long copies(long[] s, long[] room) {
        long k = Long.MAX_VALUE;
        for (int r = 0; r < s.length; r++) {
            if (s[r] > 0) {
                k = Math.min(k, Math.max(0, room[r]) / s[r]);
            }
        }
        return k == Long.MAX_VALUE ? 0 : k;
    }

    /**
     * An upper bound on every pattern's worth at the dual prices: the least, over the resources, of the room in that
     * resource alone filled with the pods worth most per unit of it, the last one in part.
     */
    static double bound(long[][] size, double[] count, double[] dual, long[] room) {
        int m = size.length;
        double[] max = new double[m];
        for (int i = 0; i < m; i++) {
            max[i] = dual[i] > 0 ? copiesLeft(size[i], count[i], room) : 0;
        }
        double bound = Double.POSITIVE_INFINITY;
        Integer[] order = new Integer[m];
        for (int r = 0; r < room.length; r++) {
            int dim = r;
            Arrays.setAll(order, i -> i);
            Arrays.sort(order, (a, b) -> Double.compare(perUnit(dual[b], size[b][dim]), perUnit(dual[a], size[a][dim])));
            double left = room[r];
            double v = 0;
            for (int i : order) {
                if (max[i] <= 0) {
                    continue;
                }
                if (size[i][r] == 0) { // takes none of the resource (another's room may be all it has)
                    v += max[i] * dual[i];
                    continue;
                }
                if (left <= 0) {
                    break; // the pods worth less per unit that follow take some, and none is left
                }
                double take = Math.min(max[i], left / size[i][r]);
                v += take * dual[i];
                left -= take * size[i][r];
            }
            bound = Math.min(bound, v);
        }
        return bound;
    }

    private static double perUnit(double value, long size) {
        return size == 0 ? Double.POSITIVE_INFINITY : value / size;
    }

    /** How many pods of this size fit the room alone, at most {@code count}. */
    private static double copiesLeft(long[] size, double count, long[] room) {
        double c = count;
        for (int r = 0; r < room.length; r++) {
            if (size[r] > 0) {
                c = Math.min(c, room[r] / size[r]);
            }
        }
        return c;
    }

    /**
     * The pattern worth most at the dual prices, exactly, by {@link GridKnapsack} on a grid of at most
     * {@code maxStates} states (coarsened where the exact one is larger); null where no pattern is worth anything or
     * the coarsened grid's filling does not fit the room.
     */
    static int[] exact(long[][] size, double[] count, double[] dual, long[] room, long maxStates) {
        int m = size.length;
        int[] max = new int[m];
        int[] items = java.util.stream.IntStream.range(0, m).filter(i -> dual[i] > 0 && copiesLeft(size[i], count[i], room) >= 1).toArray();
        for (int i : items) {
            max[i] = (int) copiesLeft(size[i], count[i], room);
        }
        if (items.length == 0) {
            return null;
        }
        GridKnapsack.Result r = GridKnapsack.solve(room, size, items, max, dual, maxStates, maxStates * 64, true);
        if (r == null) {
            return null;
        }
        for (int d = 0; d < room.length; d++) {
            long used = 0;
            for (int i = 0; i < m; i++) {
                used += r.filling()[i] * size[i][d];
            }
            if (used > room[d]) {
                return null;
            }
        }
        return r.filling();
    }

    /** The duals with the classes a type does not allow at zero: the knapsack takes none of them. */
    static double[] masked(double[] dual, boolean[] open) {
        double[] d = dual.clone();
        for (int i = 0; i < d.length; i++) {
            if (!open[i]) {
                d[i] = 0;
            }
        }
        return d;
    }

    /** A pattern's worth at the dual prices. */
    static double value(double[] dual, int[] k) {
        double v = 0;
        for (int i = 0; i < k.length; i++) {
            v += dual[i] * k[i];
        }
        return v;
    }
}
