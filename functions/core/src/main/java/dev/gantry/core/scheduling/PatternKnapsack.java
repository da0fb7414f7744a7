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
}
