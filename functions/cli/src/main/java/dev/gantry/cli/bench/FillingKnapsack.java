package dev.gantry.cli.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The pricing problem of {@link ExactPlacement}'s column generation: max Σ y_c n_c over the pods one node holds (n_c ≤
 * left_c, only the classes allowed on it, within its room in every resource), by depth-first branch and bound. The bound
 * at a search node is the least, over resources and surrogate resources, of the fractional knapsack. {@link #best()} is
 * the best filling found; {@link #proven()} an upper bound on the optimum.
 */
final class FillingKnapsack {
    /** How many branch-and-bound nodes one search may visit before it settles for its proven bound. */
    static final int MAX_NODES = 200_000;
    /** How many more nodes a search visits to improve an improving filling it found. */
    private static final int IMPROVING_NODES = 2_000;
    /** The surrogate constraints' shares of cpu (the rest memory), each as a share of the room. */
    private static final double[] MIX = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    private static final double EPS = 1e-9;

    private final long[] room;
    private final long[][] size;
    private final int[] items;
    private final double[] value;
    private final int[] max;
    private final int[][] orderByDim;
    private final int[] counts;
    private final long[] free;
    private double best;
    private int[] bestCounts;
    private double proven;
    private int visited;
    private double target;
    private boolean stopped;

    FillingKnapsack(long[] room, long[][] size, boolean[] allowed, double[] y, int[] left) {
        this.room = room;
        this.size = size;
        this.value = y;
        int dims = room.length;
        List<Integer> in = new ArrayList<>();
        max = new int[y.length];
        for (int c = 0; c < y.length; c++) {
            if (allowed[c] && left[c] > 0 && y[c] > EPS) {
                long n = left[c];
                for (int d = 0; d < dims; d++) {
                    if (size[c][d] > 0) {
                        n = Math.min(n, room[d] / size[c][d]);
                    }
                }
                max[c] = (int) n;
                if (n > 0) {
                    in.add(c);
                }
            }
        }
        // Densest first: value per share of the node the pod takes, summed over resources.
        in.sort((p, q) -> Double.compare(density(q), density(p)));
        items = in.stream().mapToInt(Integer::intValue).toArray();
        counts = new int[y.length];
        free = room.clone();
        orderByDim = new int[dims + MIX.length][];
        for (int q = 0; q < orderByDim.length; q++) {
            final int qq = q;
            orderByDim[q] = java.util.stream.IntStream.range(0, items.length).boxed()
                    .sorted((p, r) -> Double.compare(perUnit(items[r], qq), perUnit(items[p], qq))).mapToInt(Integer::intValue).toArray();
        }
        bestCounts = new int[y.length];
    }

    private double density(int c) {
        double share = 0;
        for (int d = 0; d < room.length; d++) {
            share += room[d] > 0 ? (double) size[c][d] / room[d] : 0;
        }
        return value[c] / Math.max(share, 1e-12);
    }

    private double perUnit(int c, int q) {
        double w = weight(c, q);
        return w == 0 ? Double.POSITIVE_INFINITY : value[c] / w;
    }

    /**
     * Searches for a filling worth more than {@code target} (the column's price: a filling worth more lowers the
     * master's cost), pruning what cannot beat it, and keeps improving one it found for a few more nodes. When the
     * search ends unstopped, nothing is worth more than max(best, target), and that is the proven bound.
     */
    void run(double target) {
        this.target = target;
        proven = bound(0);
        dfs(0, 0);
        if (!stopped) {
            proven = Math.max(best, target);
        } else if (best > target) {
            stopped = false; // a column was found: this round goes on, and its bound is not needed
        }
    }

    /**
     * The least, over resources and over a few surrogate resources (cpu and memory as shares of the room, mixed in
     * fixed proportions: any mix is a valid constraint, and the best mix is the LP bound of the two), of the
     * fractional knapsack of the items from position {@code from} on in the free room.
     */
    private double bound(int from) {
        double least = Double.POSITIVE_INFINITY;
        for (int q = 0; q < orderByDim.length; q++) {
            double v = 0;
            double cap = capacity(q);
            for (int p : orderByDim[q]) {
                if (p < from) {
                    continue;
                }
                int c = items[p];
                double s = weight(c, q);
                if (s == 0) {
                    v += value[c] * max[c];
                } else if (cap >= s * max[c]) {
                    v += value[c] * max[c];
                    cap -= s * max[c];
                } else {
                    v += value[c] * cap / s;
                    break;
                }
            }
            least = Math.min(least, v);
        }
        return least;
    }

    /** Constraint q: a resource (q below the dimension count) or a surrogate, MIX[q - dims] of cpu's share and the rest memory's. */
    private double weight(int c, int q) {
        int dims = free.length;
        if (q < dims) {
            return size[c][q];
        }
        double a = MIX[q - dims];
        return a * size[c][0] / Math.max(1, room[0]) + (1 - a) * size[c][1] / Math.max(1, room[1]);
    }

    private double capacity(int q) {
        int dims = free.length;
        if (q < dims) {
            return free[q];
        }
        double a = MIX[q - dims];
        return a * free[0] / Math.max(1, room[0]) + (1 - a) * free[1] / Math.max(1, room[1]);
    }

    private void dfs(int pos, double v) {
        if (v > best) {
            best = v;
            bestCounts = counts.clone();
        }
        if (pos == items.length || stopped) {
            return;
        }
        if (++visited > MAX_NODES || (best > target && visited > IMPROVING_NODES)) {
            stopped = true;
            return;
        }
        if (v + bound(pos) <= Math.max(best, target) * (1 + 1e-12) + EPS) {
            return;
        }
        int c = items[pos];
        int n = max[c];
        for (int d = 0; d < free.length; d++) {
            if (size[c][d] > 0) {
                n = (int) Math.min(n, free[d] / size[c][d]);
            }
        }
        for (int take = n; take >= 0 && !stopped; take--) {
            for (int d = 0; d < free.length; d++) {
                free[d] -= take * size[c][d];
            }
            counts[c] = take;
            dfs(pos + 1, v + take * value[c]);
            counts[c] = 0;
            for (int d = 0; d < free.length; d++) {
                free[d] += take * size[c][d];
            }
        }
    }

    double best() {
        return best;
    }

    int[] bestCounts() {
        return bestCounts;
    }

    /** An upper bound on the optimum: the optimum itself when the search ran to its end. */
    double proven() {
        return proven;
    }
}
