package dev.gantry.core.scheduling;

import java.util.Arrays;

/** The pricing step of {@link PatternPacking}'s column generation: the best pattern for one type at the master's dual prices. */
final class PatternKnapsack {
    private PatternKnapsack() {
    }

    /**
     * The pattern worth most at the dual prices that fits {@code room}, with at most {@code count[i]} pods of shape i:
     * depth-first over the shapes, the densest first, most copies first, pruned by a bound on what the room left can
     * still be worth, within {@code maxSteps}.
     */
    static int[] best(long[][] size, double[] count, double[] dual, long[] room, int maxSteps) {
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
