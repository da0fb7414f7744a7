package dev.gantry.cli.bench;

import dev.gantry.core.scheduling.GridKnapsack;
import dev.gantry.core.scheduling.PatternKnapsack;
import java.util.ArrayList;
import java.util.List;

/**
 * The pricing problem of {@link ExactPlacement}'s column generation: max Σ y_c n_c over the pods one node holds (n_c ≤
 * left_c, only the classes allowed on it, within its room in every resource), by depth-first branch and bound, and by
 * {@link GridKnapsack}'s dynamic programming where the search stops at its node limit. The bound at a search node is the
 * least, over resources and surrogate resources, of the fractional knapsack; one surrogate weighs the resources by the
 * root LP relaxation's optimal duals (so the root bound is that LP's value, pod slots included). {@link #best()} is the
 * best filling found; {@link #proven()} an upper bound on the optimum.
 */
final class FillingKnapsack {
    /** How many branch-and-bound nodes one search may visit before it settles for its proven bound. */
    static final int MAX_NODES = 200_000;
    /** How many more nodes a search visits to improve an improving filling it found. */
    private static final int IMPROVING_NODES = 2_000;
    /** The surrogate constraints' shares of cpu (the rest memory), each as a share of the room. */
    private static final double[] MIX = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    private static final double EPS = 1e-9;
    /**
     * The most states of {@link GridKnapsack}'s grid, and of states × pieces: where the proof needs it, where a column
     * was found, and where the search stopped with none.
     */
    private static final long GRID_STATES = 1L << 22;
    private static final long PROOF_CELLS = 1L << 29;
    private static final long FOUND_CELLS = 1L << 26;
    private static final long STOPPED_CELLS = 1L << 24;

    private final long[] room;
    private final long[][] size;
    private final int[] items;
    private final double[] value;
    private final int[] max;
    /** Per surrogate constraint: its multiplier per unit of each resource, its weight per class, its classes by value per weight. */
    private final double[][] surrogate;
    private final double[][] weight;
    private final int[][] orderByDim;
    private final int[] counts;
    private final long[] free;
    /** What the classes of value too small to search (at most EPS a pod) could add: part of every proven bound. */
    private double negligible;
    private double best;
    private int[] bestCounts;
    private double proven;
    private int visited;
    private double target;
    private boolean stopped;
    private boolean settled;
    private boolean rootBound = true;

    FillingKnapsack(long[] room, long[][] size, boolean[] allowed, double[] y, int[] left) {
        this.room = room;
        this.size = size;
        this.value = y;
        int dims = room.length;
        List<Integer> in = new ArrayList<>();
        max = new int[y.length];
        for (int c = 0; c < y.length; c++) {
            if (allowed[c] && left[c] > 0 && y[c] > 0) {
                long n = left[c];
                for (int d = 0; d < dims; d++) {
                    if (size[c][d] > 0) {
                        n = Math.min(n, room[d] / size[c][d]);
                    }
                }
                if (y[c] <= EPS) {
                    negligible += n * y[c]; // left out of the search, but not of the proven bound
                    continue;
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
        List<double[]> rows = new ArrayList<>();
        for (int d = 0; d < dims; d++) {
            double[] a = new double[dims];
            a[d] = 1;
            rows.add(a);
        }
        for (double mix : MIX) {
            double[] a = new double[dims];
            a[0] = mix / Math.max(1, room[0]);
            a[1] = (1 - mix) / Math.max(1, room[1]);
            rows.add(a);
        }
        double[] mu = lpMultipliers();
        if (mu != null) {
            rows.add(mu);
        }
        surrogate = rows.toArray(double[][]::new);
        weight = new double[surrogate.length][y.length];
        orderByDim = new int[surrogate.length][];
        for (int q = 0; q < surrogate.length; q++) {
            for (int c : items) {
                for (int d = 0; d < dims; d++) {
                    weight[q][c] += surrogate[q][d] * size[c][d];
                }
            }
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
     * search ends unstopped, nothing is worth more than max(best, target), and that is the proven bound. When it stops
     * at its node limit, {@link GridKnapsack} takes over where its grid is small: having found a column, to find the best
     * one (exact grid only); without, to find one or lower the bound (grid coarsened as far as needed). A larger grid
     * may lower the bound further in {@link #settle()}.
     */
    void run(double target) {
        run(target, true);
    }

    /** As above; without {@code prove}, a search that stops with no column is left on its root bound (no grid). */
    void run(double target, boolean prove) {
        this.target = target;
        proven = bound(0) + negligible;
        dfs(0, 0);
        if (!stopped) {
            proven = Math.max(best, target) + negligible;
            settled = true;
            rootBound = false;
        } else if (best > target) {
            settled = grid(FOUND_CELLS, false);
        } else if (prove) {
            grid(STOPPED_CELLS, true);
        }
    }

    /**
     * Lowers the proven bound of a search that stopped to {@link GridKnapsack}'s optimum, on a grid coarsened as far as
     * needed (costly: the caller settles only the knapsacks whose bound decides its own).
     */
    void settle() {
        if (!settled) {
            settled = true;
            grid(PROOF_CELLS, true);
        }
    }


    /** Whether the proven bound is as low as this knapsack can make it (else {@link #settle()} may lower it). */
    boolean settled() {
        return settled;
    }

    /**
     * The optimum by {@link GridKnapsack}: lowers {@link #proven} to its optimum (an upper bound where the grid was
     * coarsened, then not always below the root's) and keeps its filling where it fits and beats the best; false, having changed nothing, where the grid
     * is too large.
     */
    private boolean grid(long maxCells, boolean mayCoarsen) {
        GridKnapsack.Result r = GridKnapsack.solve(room, size, items, max, value, GRID_STATES, maxCells, mayCoarsen);
        if (r == null) {
            return false;
        }
        proven = Math.min(proven, Math.max(best, r.optimum()) * (1 + 1e-12) + negligible);
        rootBound = false;
        double v = 0;
        boolean fits = true;
        for (int d = 0; d < room.length; d++) {
            long used = 0;
            for (int c : items) {
                used += (long) r.filling()[c] * size[c][d];
            }
            fits &= used <= room[d];
        }
        for (int c : items) {
            v += r.filling()[c] * value[c];
        }
        if (fits && v > best) {
            best = v;
            bestCounts = r.filling();
        }
        return true;
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
        return weight[q][c];
    }

    private double capacity(int q) {
        double cap = 0;
        for (int d = 0; d < free.length; d++) {
            cap += surrogate[q][d] * free[d];
        }
        return cap;
    }

    /**
     * The multipliers of the best surrogate constraint at the root: the optimal duals of the cpu, memory, pod-slot
     * (and other) rows of the knapsack's LP relaxation, each per unit of the resource. The surrogate they weigh is a
     * valid constraint whatever they are; these make its fractional knapsack equal the LP relaxation's value. The LP
     * is the scheduler's own pricing LP ({@link PatternKnapsack#relax}).
     */
    private double[] lpMultipliers() {
        if (items.length == 0) {
            return null;
        }
        // The search's shapes only: the others (not allowed, none left, negligible) are worth nothing to the LP.
        double[] worth = new double[size.length];
        double[] count = new double[size.length];
        for (int c : items) {
            worth[c] = value[c];
            count[c] = max[c];
        }
        PatternKnapsack.Relaxation lp = PatternKnapsack.relax(size, count, worth, room);
        if (lp == null) {
            return null;
        }
        double[] mu = lp.perUnit(room);
        boolean any = false;
        for (double u : mu) {
            any |= u > 0;
        }
        return any ? mu : null;
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

    /** Whether the proven bound is still the root's fractional bound (the search stopped and no grid was small enough). */
    boolean rootBound() {
        return rootBound;
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
