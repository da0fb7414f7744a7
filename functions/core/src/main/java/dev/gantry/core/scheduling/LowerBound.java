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
 * (three rows, one column per type). {@link #ofPods} also counts the extended resources the pods request (GPUs,
 * Neuron devices, ...): their demand can only be covered by the types that have them.
 */
public final class LowerBound {
    private LowerBound() {
    }

    /** The bound for {@code demand} (cpu, memory and pod slots) over {@code types}, priced under {@code reqs}; 0 for no demand. */
    public static double of(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> overhead) {
        return solve(demand, types, reqs, overhead, true);
    }

    /** How many size thresholds per resource {@link #ofPods} adds at most (any subset keeps the bound valid). */
    private static final int MAX_THRESHOLDS = 6;

    /**
     * A tighter bound that knows the pods' sizes: besides the totals, for thresholds s on memory and on cpu, the pods at
     * least that large can only sit on types whose room is at least s, so those types alone must cover them (cpu,
     * memory and slots). This is what keeps the bound from filling large pods' demand with tiny, cheap nodes they cannot
     * run on. Still a relaxation of every integer packing.
     * <p>Extended resources (nvidia.com/gpu, aws.amazon.com/neuron, ...) count like cpu and memory: a row for their
     * total, and size thresholds, so that the pods requesting at least s of one can only be covered, in cpu, memory and
     * slots too, by the types with at least s of it. Without them a GPU pod's cpu and memory were covered by the
     * cheapest plain nodes, and the bound ignored what GPU nodes cost.
     *
     * @param shapes each distinct request vector with how many pods have it
     */
    public static double ofPods(java.util.Map<Resources, Integer> shapes, List<InstanceType> types, Requirements reqs,
                                Function<InstanceType, Resources> overhead) {
        Resources total = Resources.ZERO;
        for (var e : shapes.entrySet()) {
            total = total.plus(e.getKey().times(e.getValue()));
        }
        List<InstanceType> kept = new java.util.ArrayList<>();
        List<Resources> rooms = new java.util.ArrayList<>();
        List<Double> prices = new java.util.ArrayList<>();
        for (InstanceType t : types) {
            Offering o = t.cheapestOffering(reqs);
            Resources room = t.allocatable().minus(overhead.apply(t));
            if (o != null && room.cpuMillis() > 0 && room.memoryBytes() > 0 && room.pods() > 0) {
                kept.add(t);
                rooms.add(room);
                prices.add(o.pricePerHour());
            }
        }
        int n = kept.size();
        if (n == 0) {
            return 0;
        }
        List<java.util.function.ToLongFunction<Resources>> extended = extendedDimensions(shapes.keySet());
        List<java.util.function.ToLongFunction<Resources>> dims = new java.util.ArrayList<>(List.of(Resources::cpuMillis, Resources::memoryBytes, Resources::pods));
        dims.addAll(extended);
        List<java.util.function.ToLongFunction<Resources>> sized = new java.util.ArrayList<>(List.of(Resources::memoryBytes, Resources::cpuMillis));
        sized.addAll(extended);
        List<double[]> rows = new java.util.ArrayList<>();
        List<Double> rhs = new java.util.ArrayList<>();
        addRows(rows, rhs, rooms, total, r -> true, dims);
        for (java.util.function.ToLongFunction<Resources> dim : sized) {
            long[] sizes = shapes.keySet().stream().mapToLong(dim).filter(v -> v > 0).distinct().sorted().toArray();
            int step = Math.max(1, (sizes.length + MAX_THRESHOLDS - 1) / MAX_THRESHOLDS);
            for (int i = sizes.length - 1; i >= 0; i -= step) {
                long threshold = sizes[i];
                Resources big = Resources.ZERO;
                for (var e : shapes.entrySet()) {
                    if (dim.applyAsLong(e.getKey()) >= threshold) {
                        big = big.plus(e.getKey().times(e.getValue()));
                    }
                }
                if (rooms.stream().anyMatch(r -> dim.applyAsLong(r) >= threshold)) {
                    addRows(rows, rhs, rooms, big, r -> dim.applyAsLong(r) >= threshold, dims);
                }
            }
        }
        double[][] a = rows.toArray(double[][]::new);
        double[] b = rhs.stream().mapToDouble(Double::doubleValue).toArray();
        double[] price = prices.stream().mapToDouble(Double::doubleValue).toArray();
        return Simplex.minCover(a, b, price, n, null);
    }

    /**
     * One measure per extended resource that some of {@code shapes} request (a positive amount), in name order:
     * nvidia.com/gpu, aws.amazon.com/neuron and the like, which only some types have.
     */
    public static List<java.util.function.ToLongFunction<Resources>> extendedDimensions(java.util.Collection<Resources> shapes) {
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        for (Resources s : shapes) {
            s.extended().forEach((k, v) -> {
                if (v > 0) {
                    names.add(k);
                }
            });
        }
        List<java.util.function.ToLongFunction<Resources>> out = new java.util.ArrayList<>();
        for (String name : names) {
            out.add(r -> r.get(name));
        }
        return out;
    }

    private static void addRows(List<double[]> rows, List<Double> rhs, List<Resources> rooms, Resources demand,
                                java.util.function.Predicate<Resources> hosts, List<java.util.function.ToLongFunction<Resources>> dims) {
        for (var d : dims) {
            double need = d.applyAsLong(demand);
            if (need <= 0) {
                continue;
            }
            double[] row = new double[rooms.size()];
            for (int j = 0; j < rooms.size(); j++) {
                row[j] = hosts.test(rooms.get(j)) ? d.applyAsLong(rooms.get(j)) : 0;
            }
            rows.add(row);
            rhs.add(need);
        }
    }

    /** The bound counting cpu and memory only, as it was before pod slots counted: reported beside {@link #of}. */
    public static double cpuAndMemory(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> overhead) {
        return solve(demand, types, reqs, overhead, false);
    }

    /**
     * The optimal fractional fleet for {@code demand}: how many nodes of each type (only types with a positive count), in
     * the order of {@code types}. Empty when there is no demand or no type covers it. Besides cpu, memory and pod slots,
     * each extended resource the demand asks for (nvidia.com/gpu, aws.amazon.com/neuron, ...) is a row of its own that
     * only the types having it cover, so a GPU demand puts GPU types in the fleet (and prices them) as {@link #ofPods}
     * does.
     */
    static java.util.Map<InstanceType, Double> fleet(Resources demand, List<InstanceType> types, Requirements reqs,
                                                     Function<InstanceType, Resources> room) {
        return cover(demand, types, reqs, room, null);
    }

    /**
     * The prices per unit of cpu (per millicore), memory (per byte) and pod slot (per pod) at the optimum of the cover
     * {@link #fleet} solves: what one more unit of each would add to the cheapest fractional fleet (the LP's dual
     * prices). All zero when there is no demand.
     */
    static double[] unitPrices(Resources demand, List<InstanceType> types, Requirements reqs, Function<InstanceType, Resources> room) {
        double[] dual = new double[3 + (int) demand.extended().values().stream().filter(v -> v > 0).count()];
        cover(demand, types, reqs, room, dual);
        return java.util.Arrays.copyOf(dual, 3);
    }

    private static java.util.Map<InstanceType, Double> cover(Resources demand, List<InstanceType> types, Requirements reqs,
                                                            Function<InstanceType, Resources> room, double[] dual) {
        List<String> extended = demand.extended().entrySet().stream().filter(e -> e.getValue() > 0).map(java.util.Map.Entry::getKey).sorted().toList();
        int m = 3 + extended.size();
        double[] b = new double[m];
        b[0] = demand.cpuMillis();
        b[1] = demand.memoryBytes();
        b[2] = demand.pods();
        for (int i = 0; i < extended.size(); i++) {
            b[3 + i] = demand.get(extended.get(i));
        }
        java.util.Map<InstanceType, Double> out = new java.util.LinkedHashMap<>();
        if (java.util.Arrays.stream(b).allMatch(v -> v <= 0)) {
            return out;
        }
        int n = types.size();
        double[][] a = new double[m][n];
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
            for (int i = 0; i < extended.size(); i++) {
                a[3 + i][k] = Math.max(0, r.get(extended.get(i)));
            }
            price[k] = o.pricePerHour();
            kept[k++] = t;
        }
        double[] x = new double[k];
        if (k == 0 || Simplex.minCover(a, b, price, k, x, dual) == 0) {
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

    /**
     * min p·x subject to A x ≥ b, x ≥ 0 for a few rows: the dense tableau method (big-M start, Dantzig pricing). The
     * value returned is read from the dual prices and scaled until they are dual feasible, so it is a valid lower bound
     * even if the iterations stop early or rounding leaves the tableau slightly off; at the optimum it is the optimum.
     * Public for the benchmarks' exact placement (column generation), which solves its master problem with it.
     */
    public static final class Simplex {
        private static final int MAX_ITERATIONS = 50_000;
        /**
         * The least entry the ratio test pivots on. The rows are scaled to a right-hand side of 1, so real entries are
         * far above it and a smaller one is round-off: pivoting on round-off fills the tableau with noise (reduced costs
         * of -10^7 on columns of zeros), and the cover stops unsolved with a bound near zero.
         */
        private static final double PIVOT = 1e-9;

        private Simplex() {
        }

        /** The optimum; with {@code x} non-null, also the optimal amounts of the first {@code n} columns. */
        static double minCover(double[][] a, double[] b, double[] price, int n, double[] x) {
            return minCover(a, b, price, n, x, null);
        }

        /** As above; with {@code dual} non-null (one entry per row of {@code a}), also each row's price per unit (0 for rows with no demand). */
        public static double minCover(double[][] a, double[] b, double[] price, int n, double[] x, double[] dual) {
            // Rows with no demand are dropped; the others are scaled so the right-hand side is 1 (well conditioned).
            int[] rows = java.util.stream.IntStream.range(0, b.length).filter(i -> b[i] > 0).toArray();
            int m = rows.length;
            if (m == 0) {
                return 0;
            }
            // Columns: n types, m surplus, m artificial; the last column is the right-hand side.
            int cols = n + 2 * m;
            double[][] t = new double[m + 1][cols + 1];
            double[][] scaled = new double[m][n];
            double bigM = 0;
            for (int j = 0; j < n; j++) {
                bigM = Math.max(bigM, price[j]);
            }
            bigM = bigM * 1e4 + 1;
            int[] basis = new int[m];
            for (int r = 0; r < m; r++) {
                int i = rows[r];
                for (int j = 0; j < n; j++) {
                    scaled[r][j] = a[i][j] / b[i];
                    t[r][j] = scaled[r][j];
                }
                t[r][n + r] = -1;
                t[r][n + m + r] = 1;
                t[r][cols] = 1;
                basis[r] = n + m + r;
            }
            // Objective row holds reduced costs: c_j - c_B B^-1 A_j, with the artificial columns priced bigM.
            for (int j = 0; j < cols; j++) {
                double c = j < n ? price[j] : j >= n + m ? bigM : 0;
                double sum = 0;
                for (int r = 0; r < m; r++) {
                    sum += bigM * t[r][j];
                }
                t[m][j] = c - sum;
            }
            boolean optimal = false;
            for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
                int enter = -1;
                double most = -1e-12;
                for (int j = 0; j < n + m; j++) { // an artificial never re-enters
                    if (t[m][j] < most) {
                        most = t[m][j];
                        enter = j;
                    }
                }
                if (enter < 0) {
                    optimal = true;
                    break;
                }
                int leave = -1;
                double best = Double.POSITIVE_INFINITY;
                for (int r = 0; r < m; r++) {
                    if (t[r][enter] > PIVOT) {
                        double ratio = t[r][cols] / t[r][enter];
                        if (ratio < best) {
                            best = ratio;
                            leave = r;
                        }
                    }
                }
                if (leave < 0) {
                    break; // cannot happen for a cover with positive prices; the dual bound below stays valid
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
            // Dual prices: the reduced cost of surplus column r is y_r. Scale them into dual feasibility (A^T y ≤ p);
            // then b·y (Σ y, as b is all ones here) is a lower bound by weak duality.
            double[] y = new double[m];
            double value = 0;
            for (int r = 0; r < m; r++) {
                y[r] = Math.max(0, t[m][n + r]);
                value += y[r];
            }
            double theta = 1;
            for (int j = 0; j < n; j++) {
                double used = 0;
                for (int r = 0; r < m; r++) {
                    used += scaled[r][j] * y[r];
                }
                theta = Math.max(theta, used / price[j]);
            }
            if (dual != null) {
                for (int r = 0; r < m; r++) {
                    dual[rows[r]] = y[r] / theta / b[rows[r]];
                }
            }
            if (x != null && optimal) {
                for (int r = 0; r < m; r++) {
                    if (basis[r] < n) {
                        x[basis[r]] = t[r][cols];
                    }
                }
            }
            return value / theta;
        }
    }
}
