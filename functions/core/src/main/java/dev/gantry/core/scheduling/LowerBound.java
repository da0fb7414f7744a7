package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.function.Function;

/**
 * The cheapest fractional cover of a demand by instance types' room (allocatable less DaemonSets): the optimum of the
 * linear program min Σ p_t x_t subject to Σ cpu_t x_t ≥ C, Σ mem_t x_t ≥ M, Σ pods_t x_t ≥ P, x ≥ 0, where pods_t is
 * how many more pods a node of type t takes. No integer packing can cost less. Solved exactly with a small simplex
 * (three rows, one column per type).
 */
public final class LowerBound {
    private LowerBound() {
    }

    /** The bound for {@code demand} (cpu, memory and pod slots) over {@code types}, priced under {@code reqs}; 0 for no demand. */
    public static double of(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> overhead) {
        return solve(demand, types, reqs, overhead, true);
    }

    /** The bound counting cpu and memory only, as it was before pod slots counted: reported beside {@link #of}. */
    public static double cpuAndMemory(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> overhead) {
        return solve(demand, types, reqs, overhead, false);
    }

    /**
     * The optimal fractional fleet for {@code demand}: how many nodes of each type (only types with a positive count), in
     * the order of {@code types}. Empty when there is no demand or no type covers it.
     */
    static java.util.Map<InstanceType, Double> fleet(Resources demand, List<InstanceType> types, Requirements reqs,
                                                     Function<InstanceType, Resources> room) {
        double[] b = {demand.cpuMillis(), demand.memoryBytes(), demand.pods()};
        java.util.Map<InstanceType, Double> out = new java.util.LinkedHashMap<>();
        if (b[0] <= 0 && b[1] <= 0 && b[2] <= 0) {
            return out;
        }
        int n = types.size();
        double[][] a = new double[3][n];
        double[] price = new double[n];
        InstanceType[] kept = new InstanceType[n];
        int k = 0;
        for (InstanceType t : types) {
            Offering o = t.cheapestOffering(reqs);
            Resources r = room.apply(t);
            if (o == null || r.cpuMillis() <= 0 || r.memoryBytes() <= 0 || r.pods() <= 0) {
                continue;
            }
            a[0][k] = r.cpuMillis();
            a[1][k] = r.memoryBytes();
            a[2][k] = r.pods();
            price[k] = o.pricePerHour();
            kept[k++] = t;
        }
        double[] x = new double[k];
        if (k == 0 || Simplex.minCover(a, b, price, k, x) == 0) {
            return out;
        }
        for (int j = 0; j < k; j++) {
            if (x[j] > 1e-9) {
                out.put(kept[j], x[j]);
            }
        }
        return out;
    }

    private static double solve(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> overhead,
                                boolean pods) {
        double[] b = {demand.cpuMillis(), demand.memoryBytes(), pods ? demand.pods() : 0};
        if (b[0] <= 0 && b[1] <= 0 && b[2] <= 0) {
            return 0;
        }
        int n = types.size();
        double[][] a = new double[3][n];
        double[] price = new double[n];
        int k = 0;
        for (InstanceType t : types) {
            Offering o = t.cheapestOffering(reqs);
            Resources room = t.allocatable().minus(overhead.apply(t));
            if (o == null || room.cpuMillis() <= 0 || room.memoryBytes() <= 0 || (pods && b[2] > 0 && room.pods() <= 0)) {
                continue;
            }
            a[0][k] = room.cpuMillis();
            a[1][k] = room.memoryBytes();
            a[2][k] = room.pods();
            price[k] = o.pricePerHour();
            k++;
        }
        if (k == 0) {
            return 0;
        }
        return Simplex.minCover(a, b, price, k, null);
    }

    /** min p·x subject to A x ≥ b, x ≥ 0 for a few rows: the dense tableau method with Bland's rule. */
    static final class Simplex {
        private Simplex() {
        }

        /** The optimum; with {@code x} non-null, also the optimal amounts of the first {@code n} columns. */
        static double minCover(double[][] a, double[] b, double[] price, int n, double[] x) {
            // Rows with no demand are dropped; the others are scaled so the right-hand side is 1 (well conditioned).
            int[] rows = java.util.stream.IntStream.range(0, b.length).filter(i -> b[i] > 0).toArray();
            int m = rows.length;
            // Columns: n types, m surplus, m artificial; the last column is the right-hand side.
            int cols = n + 2 * m;
            double[][] t = new double[m + 1][cols + 1];
            double bigM = 0;
            for (int j = 0; j < n; j++) {
                bigM = Math.max(bigM, price[j]);
            }
            bigM = bigM * 1e4 + 1;
            int[] basis = new int[m];
            for (int r = 0; r < m; r++) {
                int i = rows[r];
                for (int j = 0; j < n; j++) {
                    t[r][j] = a[i][j] / b[i];
                }
                t[r][n + r] = -1;
                t[r][n + m + r] = 1;
                t[r][cols] = 1;
                basis[r] = n + m + r;
            }
            // Objective row holds reduced costs: c_j - c_B B^-1 A_j, with the artificial columns priced bigM.
            for (int j = 0; j < cols; j++) {
                double c = j < n ? price[j] : j >= n + m ? bigM : 0;
                double s = 0;
                for (int r = 0; r < m; r++) {
                    s += bigM * t[r][j];
                }
                t[m][j] = c - s;
            }
            double z = 0;
            for (int r = 0; r < m; r++) {
                z += bigM * t[r][cols];
            }
            t[m][cols] = -z;
            for (int iter = 0; iter < 10_000; iter++) {
                int enter = -1;
                for (int j = 0; j < cols; j++) {
                    if (t[m][j] < -1e-12) {
                        enter = j; // Bland: the first improving column
                        break;
                    }
                }
                if (enter < 0) {
                    break;
                }
                int leave = -1;
                double best = Double.POSITIVE_INFINITY;
                for (int r = 0; r < m; r++) {
                    if (t[r][enter] > 1e-12) {
                        double ratio = t[r][cols] / t[r][enter];
                        if (ratio < best - 1e-15 || (Math.abs(ratio - best) <= 1e-15 && basis[r] < basis[leave])) {
                            best = ratio;
                            leave = r;
                        }
                    }
                }
                if (leave < 0) {
                    return 0; // unbounded cannot happen for a cover with positive prices; be safe
                }
                double pv = t[leave][enter];
                for (int j = 0; j <= cols; j++) {
                    t[leave][j] /= pv;
                }
                for (int r = 0; r <= m; r++) {
                    if (r != leave && t[r][enter] != 0) {
                        double f = t[r][enter];
                        for (int j = 0; j <= cols; j++) {
                            t[r][j] -= f * t[leave][j];
                        }
                    }
                }
                basis[leave] = enter;
            }
            for (int r = 0; r < m; r++) {
                if (basis[r] >= n + m && t[r][cols] > 1e-9) {
                    return 0; // infeasible: some demand no type covers
                }
            }
            if (x != null) {
                for (int r = 0; r < m; r++) {
                    if (basis[r] < n) {
                        x[basis[r]] = t[r][cols];
                    }
                }
            }
            return -t[m][cols];
        }
    }
}
