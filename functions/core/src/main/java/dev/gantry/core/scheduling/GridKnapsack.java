package dev.gantry.core.scheduling;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's filling by dynamic programming over its room: max Σ value_c n_c with n_c ≤ max_c and Σ n_c size_cd ≤ room_d
 * in every resource d. Each resource is counted in units of the greatest common divisor of the items' sizes in it (a
 * sum of multiples of g fits R exactly when it fits floor(R / g) units), leaving out the resources no filling can fill
 * (the items' whole supply fits) and those another implies (every item takes no larger a share of the room in it than
 * in the other). Bounded counts are split in binary pieces (1, 2, 4, ..., rest): a 0/1 knapsack over the grid.
 * <p>
 * Where the grid is too large, its longest side is coarsened (the unit doubled, each size rounded down): every filling
 * that fits still fits (a sum of sizes rounded down is at most the room in units, rounded down), so the optimum found
 * is an upper bound on the true one, no longer exact, and its filling may overflow the room.
 * <p>
 * {@link PatternPacking} prices its columns with it where the depth-first search would miss the best pattern (a bag of
 * many classes); public for the benchmarks' exact placement, whose pricing knapsack settles with it.
 */
public final class GridKnapsack {
    /** The optimum (exact, or an upper bound where coarsened) and a filling that reaches it on the grid. */
    public record Result(double optimum, boolean exact, int[] filling) {
    }

    private GridKnapsack() {
    }

    /** The optimum over {@code items}, or null where no grid of at most {@code maxStates} states and {@code maxCells} states × pieces is left (or, unless {@code mayCoarsen}, the exact grid is larger). */
    public static Result solve(long[] room, long[][] size, int[] items, int[] max, double[] value, long maxStates, long maxCells, boolean mayCoarsen) {
        int dims = room.length;
        List<Integer> kept = new ArrayList<>();
        for (int d = 0; d < dims; d++) {
            double supply = 0;
            for (int c : items) {
                supply += (double) max[c] * size[c][d];
            }
            if (supply > room[d]) {
                kept.add(d);
            }
        }
        // A resource d is implied by e when every item takes no larger a share of d's room than of e's.
        List<Integer> bind = new ArrayList<>();
        for (int d : kept) {
            boolean implied = false;
            for (int e : kept) {
                if (e == d || implied) {
                    continue;
                }
                boolean all = true;
                for (int c : items) {
                    all &= BigInteger.valueOf(size[c][d]).multiply(BigInteger.valueOf(room[e]))
                            .compareTo(BigInteger.valueOf(size[c][e]).multiply(BigInteger.valueOf(room[d]))) < 0
                            || size[c][d] == 0 && size[c][e] == 0;
                }
                implied = all;
            }
            if (!implied) {
                bind.add(d);
            }
        }
        int k = bind.size();
        int[] cap = new int[k];
        long[] unit = new long[k];
        for (int i = 0; i < k; i++) {
            int d = bind.get(i);
            long g = 0;
            for (int c : items) {
                g = BigInteger.valueOf(g).gcd(BigInteger.valueOf(size[c][d])).longValue();
            }
            unit[i] = Math.max(1, g);
        }
        List<int[]> pieces = new ArrayList<>(); // {class, multiplicity}
        for (int c : items) {
            for (int m = 1, left = max[c]; left > 0; left -= m, m *= 2) {
                pieces.add(new int[]{c, Math.min(m, left)});
            }
        }
        // Too large a grid: coarsen its longest side (see the class comment).
        long states;
        while (true) {
            states = 1;
            int longest = 0;
            for (int i = 0; i < k; i++) {
                long units = room[bind.get(i)] / unit[i];
                cap[i] = (int) Math.min(units, Integer.MAX_VALUE);
                states = Math.min(states * (units + 1), Long.MAX_VALUE / 4);
                longest = cap[i] > cap[longest] ? i : longest;
            }
            if (states <= maxStates && states * pieces.size() <= maxCells) {
                break;
            }
            if (k == 0 || cap[longest] < 2 || !mayCoarsen) {
                return null;
            }
            unit[longest] *= 2;
        }
        boolean exact = true;
        for (int i = 0; i < k; i++) {
            for (int c : items) {
                exact &= size[c][bind.get(i)] % unit[i] == 0;
            }
        }
        int s = (int) states;
        int[] stride = new int[k];
        for (int i = k - 1, st = 1; i >= 0; st *= cap[i] + 1, i--) {
            stride[i] = st;
        }
        double[] f = new double[s];
        long[] took = new long[(int) (((long) s * pieces.size() + 63) / 64)];
        int[] w = new int[k];
        int[] at = new int[k];
        for (int p = 0; p < pieces.size(); p++) {
            int c = pieces.get(p)[0];
            int m = pieces.get(p)[1];
            int offset = 0;
            for (int i = 0; i < k; i++) {
                w[i] = (int) Math.min(cap[i] + 1L, m * (size[c][bind.get(i)] / unit[i]));
                offset += w[i] * stride[i];
            }
            double v = m * value[c];
            if (k >= 1 && k <= 2) { // the common grids, cpu and memory: the box of states that fit, walked directly
                int c0 = k == 2 ? cap[0] : 0;
                int w0 = k == 2 ? w[0] : 0;
                int c1 = cap[k - 1];
                int w1 = w[k - 1];
                int st0 = k == 2 ? stride[0] : 0;
                long base = (long) p * s;
                for (int a = c0; a >= w0; a--) {
                    int row = a * st0;
                    for (int b = c1; b >= w1; b--) {
                        int idx = row + b;
                        double cand = f[idx - offset] + v;
                        if (cand > f[idx]) {
                            f[idx] = cand;
                            long bit = base + idx;
                            took[(int) (bit >>> 6)] |= 1L << (bit & 63);
                        }
                    }
                }
                continue;
            }
            System.arraycopy(cap, 0, at, 0, k);
            for (int idx = s - 1; idx >= 0; idx--) {
                boolean fits = true;
                for (int i = 0; i < k; i++) {
                    fits &= at[i] >= w[i];
                }
                if (fits && f[idx - offset] + v > f[idx]) {
                    f[idx] = f[idx - offset] + v;
                    long bit = (long) p * s + idx;
                    took[(int) (bit >>> 6)] |= 1L << (bit & 63);
                }
                for (int i = k - 1; i >= 0; i--) { // the previous index's coordinates
                    if (--at[i] >= 0) {
                        break;
                    }
                    at[i] = cap[i];
                }
            }
        }
        int[] filling = new int[value.length];
        int idx = s - 1;
        for (int p = pieces.size() - 1; p >= 0; p--) {
            long bit = (long) p * s + idx;
            if ((took[(int) (bit >>> 6)] & 1L << (bit & 63)) != 0) {
                int c = pieces.get(p)[0];
                filling[c] += pieces.get(p)[1];
                for (int i = 0; i < k; i++) {
                    idx -= (int) (pieces.get(p)[1] * (size[c][bind.get(i)] / unit[i])) * stride[i];
                }
            }
        }
        return new Result(f[s - 1], exact, filling);
    }
}
