package dev.gantry.cli.bench;

import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.LowerBound;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The cheapest placement of whole pods on whole new nodes, bracketed from both sides: the classic column generation for
 * bin packing with node types of different prices (Gilmore and Gomory), with an exact pricing knapsack.
 * <ul>
 *   <li><b>Lower bound</b>: the configuration LP, min Σ p_k λ_k over node fillings k (a type and how many pods of each
 *       class it holds, fitting its room in every resource) with Σ_k n_ck λ_k ≥ count_c. Each filling is priced by a
 *       knapsack per type on the master's dual prices ({@link FillingKnapsack}: branch and bound, and dynamic
 *       programming over the room where the search stops at its node limit); the bound reported is Farley's, Σ count_c y_c
 *       ÷ max(1, max_t U_t / p_t), with U_t the knapsack's proven upper bound, so it is valid even where a knapsack
 *       stops at its node limit. No integer placement costs less.</li>
 *   <li><b>Upper bound</b>: a real placement, found by diving: solve the configuration LP on the pods left (a few
 *       rounds of generation), launch the whole part of each filling's amount (or, when none is whole, the largest
 *       one once), and repeat.</li>
 * </ul>
 * Equal bounds prove the optimum. The generation stops when the master's value meets Farley's bound (the configuration
 * LP's optimum, proven) or after a fixed number of rounds, where the lower bound is the best Farley's so far: valid,
 * not always the configuration LP's optimum (the result gives the master's value beside it). What it models: each pod class's request vector (cpu, memory, pod slots and the
 * extended resources the pods request) and the columns it may use (the caller's compatibility rule: arch, capacity
 * type, GPU, ...). What it does not: topology spread and pod (anti-)affinity, so for pods that carry them the optimum
 * is that of a relaxation, a lower bound on the true one.
 */
final class ExactPlacement {
    /** Rounds of column generation for the lower bound, and per step of the dive (its tail improves little). */
    private static final int MAX_ROUNDS = 60;
    private static final int DIVE_ROUNDS = 10;
    private static final double EPS = 1e-9;

    /** A node one could launch: its type's name, the room its pods get, and its price per hour. */
    record Column(String name, Resources room, double price) {
    }

    /** {@code count} pods of request {@code size}, which may go on the columns marked in {@code allowed}. */
    record PodClass(Resources size, int count, boolean[] allowed) {
    }

    /**
     * The bracket on the optimum in $/h, the placement's node count, how many fillings were generated, the placement's
     * nodes by column name, and the lower bound's generation: the restricted master's value when it stopped (an upper
     * bound on the configuration LP; equal to {@code lower} when the generation converged) and its rounds.
     */
    record Result(double lower, double upper, int nodes, int fillings, java.util.SortedMap<String, Integer> fleet, double master, int rounds) {
        double gap() {
            return lower > 0 ? upper / lower : Double.NaN;
        }
    }

    private record Filling(int column, int[] counts) {
    }

    private final List<Column> columns;
    private final long[][] room;
    private final long[][] size;
    private final boolean[][] allowed;
    private final boolean[] dominated;
    private final List<Filling> pool = new ArrayList<>();

    private ExactPlacement(List<PodClass> classes, List<Column> columns) {
        this.columns = columns;
        List<ToLongFunction<Resources>> dims = new ArrayList<>(List.of(Resources::cpuMillis, Resources::memoryBytes,
                Resources::ephemeralBytes, Resources::pods));
        dims.addAll(LowerBound.extendedDimensions(classes.stream().map(PodClass::size).toList()));
        room = columns.stream().map(c -> dims.stream().mapToLong(d -> d.applyAsLong(c.room())).toArray()).toArray(long[][]::new);
        size = classes.stream().map(p -> dims.stream().mapToLong(d -> d.applyAsLong(p.size())).toArray()).toArray(long[][]::new);
        allowed = new boolean[classes.size()][];
        for (int c = 0; c < classes.size(); c++) {
            allowed[c] = classes.get(c).allowed().clone();
            for (int j = 0; j < columns.size(); j++) {
                allowed[c][j] &= classes.get(c).size().fitsIn(columns.get(j).room()) && columns.get(j).price() > 0;
            }
        }
        dominated = new boolean[columns.size()];
        for (int j = 0; j < columns.size(); j++) {
            for (int i = 0; i < columns.size() && !dominated[j]; i++) {
                dominated[j] = i != j && dominates(i, j);
            }
        }
    }

    /**
     * Column {@code i} makes {@code j} useless: no dearer, at least as much room in every resource, and open to every
     * class {@code j} is open to (ties go to the lower index). Any filling of {@code j} then fits {@code i}.
     */
    private boolean dominates(int i, int j) {
        double pi = columns.get(i).price();
        double pj = columns.get(j).price();
        if (pi > pj) {
            return false;
        }
        boolean strict = pi < pj;
        for (int d = 0; d < room[j].length; d++) {
            if (room[i][d] < room[j][d]) {
                return false;
            }
            strict |= room[i][d] > room[j][d];
        }
        for (boolean[] a : allowed) {
            if (a[j] && !a[i]) {
                return false;
            }
            strict |= a[i] && !a[j];
        }
        return strict || i < j;
    }

    /** The bracket for placing {@code classes} on {@code columns}; classes no column may hold are left out, as no placement holds them. */
    static Result solve(List<PodClass> classes, List<Column> columns) {
        return solve(classes, columns, null);
    }

    /** As above; with {@code trace} non-null, prints the lower bound's generation there, a line a round. */
    static Result solve(List<PodClass> classes, List<Column> columns, java.io.PrintStream trace) {
        ExactPlacement s = new ExactPlacement(classes, columns);
        int[] left = new int[classes.size()];
        for (int c = 0; c < left.length; c++) {
            boolean placeable = false;
            for (boolean a : s.allowed[c]) {
                placeable |= a;
            }
            left[c] = placeable ? classes.get(c).count() : 0;
        }
        if (trace != null) {
            trace.printf("%d classes, %d columns (%d undominated)%n", classes.size(), columns.size(),
                    java.util.stream.IntStream.range(0, columns.size()).filter(j -> !s.dominated[j]).count());
        }
        Lp bound = s.configurationLp(left, MAX_ROUNDS, true, trace);
        double lower = bound.lower;
        double upper = 0;
        int nodes = 0;
        java.util.SortedMap<String, Integer> fleet = new java.util.TreeMap<>();
        while (Arrays.stream(left).sum() > 0) {
            Lp lp = s.configurationLp(left, DIVE_ROUNDS, false, null);
            int[] copies = new int[lp.x.length];
            int best = 0;
            boolean whole = false;
            for (int k = 0; k < lp.x.length; k++) {
                copies[k] = (int) Math.floor(lp.x[k] + 1e-6);
                whole |= copies[k] > 0;
                best = lp.x[k] > lp.x[best] ? k : best;
            }
            if (!whole) {
                copies[best] = 1;
            }
            for (int k = 0; k < copies.length; k++) {
                Filling f = lp.fillings.get(k);
                for (int i = 0; i < copies[k] && useful(f, left); i++) {
                    for (int c = 0; c < left.length; c++) {
                        left[c] -= Math.min(left[c], f.counts[c]);
                    }
                    upper += columns.get(f.column).price();
                    nodes++;
                    fleet.merge(columns.get(f.column).name(), 1, Integer::sum);
                }
            }
        }
        return new Result(lower, upper, nodes, s.pool.size(), fleet, bound.master, bound.rounds);
    }

    private static boolean useful(Filling f, int[] left) {
        for (int c = 0; c < left.length; c++) {
            if (f.counts[c] > 0 && left[c] > 0) {
                return true;
            }
        }
        return false;
    }

    /** A solved restricted master: Farley's lower bound, the fillings with their amounts, its value, and the rounds it took. */
    private record Lp(double lower, List<Filling> fillings, double[] x, double master, int rounds) {
    }

    /** With {@code prove} false (the dive's steps), no knapsack is settled: the bound is not needed, the columns are. */
    private Lp configurationLp(int[] left, int maxRounds, boolean prove, java.io.PrintStream trace) {
        int[] rows = java.util.stream.IntStream.range(0, left.length).filter(c -> left[c] > 0).toArray();
        for (int c : rows) {
            if (pool.stream().noneMatch(f -> f.counts[c] > 0)) {
                pool.add(alone(c, left));
            }
        }
        double lower = 0;
        for (int round = 0; ; round++) {
            List<Filling> active = pool.stream().filter(f -> useful(f, left)).toList();
            double[][] a = new double[rows.length][active.size()];
            double[] b = new double[rows.length];
            double[] price = new double[active.size()];
            for (int r = 0; r < rows.length; r++) {
                b[r] = left[rows[r]];
                for (int k = 0; k < active.size(); k++) {
                    a[r][k] = Math.min(left[rows[r]], active.get(k).counts[rows[r]]);
                }
            }
            for (int k = 0; k < active.size(); k++) {
                price[k] = columns.get(active.get(k).column).price();
            }
            double[] x = new double[active.size()];
            double[] dualRows = new double[rows.length];
            double value = LowerBound.Simplex.minCover(a, b, price, active.size(), x, dualRows);
            double[] y = new double[left.length];
            for (int r = 0; r < rows.length; r++) {
                y[rows[r]] = dualRows[r];
            }
            double theta = 1;
            int unproven = 0;
            int worst = -1;
            List<Filling> found = new ArrayList<>();
            FillingKnapsack[] priced = new FillingKnapsack[columns.size()];
            for (int j = 0; j < columns.size(); j++) {
                if (!dominated[j]) {
                    priced[j] = new FillingKnapsack(room[j], size, allowedOn(j), y, left);
                    priced[j].run(columns.get(j).price() * (1 + 1e-7) + EPS, prove);
                }
            }
            // Farley's theta is the largest bound per price: settle the knapsack that has it until it is settled.
            while (true) {
                worst = -1;
                theta = 1;
                for (int j = 0; j < columns.size(); j++) {
                    if (priced[j] != null && priced[j].proven() / columns.get(j).price() > theta) {
                        theta = priced[j].proven() / columns.get(j).price();
                        worst = j;
                    }
                }
                if (worst < 0 || priced[worst].settled() || !prove) {
                    break;
                }
                priced[worst].settle();
            }
            for (int j = 0; j < columns.size(); j++) {
                if (priced[j] != null) {
                    unproven += priced[j].rootBound() ? 1 : 0;
                    if (priced[j].best() > columns.get(j).price() * (1 + 1e-7) + EPS) {
                        found.add(new Filling(j, priced[j].bestCounts()));
                    }
                }
            }
            double dualValue = 0;
            for (int c : rows) {
                dualValue += left[c] * y[c];
            }
            lower = Math.max(lower, dualValue / theta);
            if (trace != null) {
                trace.printf("round %3d: master %.4f, Farley %.4f (best so far %.4f; theta %.5f on %s), %d fillings, %d new, %d knapsacks on their root bound%n",
                        round, value, dualValue / theta, lower, theta, worst < 0 ? "none" : columns.get(worst).name(), active.size(), found.size(), unproven);
            }
            if (found.isEmpty() || round >= maxRounds || value <= lower * (1 + 1e-9)) {
                return new Lp(lower, active, x, value, round + 1);
            }
            pool.addAll(found);
        }
    }

    private boolean[] allowedOn(int j) {
        boolean[] out = new boolean[allowed.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = allowed[c][j];
        }
        return out;
    }

    /** The most pods of class {@code c} alone that fit the cheapest column allowed for it (a feasible start). */
    private Filling alone(int c, int[] left) {
        int bestColumn = -1;
        long bestCount = 0;
        for (int j = 0; j < columns.size(); j++) {
            if (!allowed[c][j] || dominated[j]) {
                continue;
            }
            long n = left[c];
            for (int d = 0; d < size[c].length; d++) {
                if (size[c][d] > 0) {
                    n = Math.min(n, room[j][d] / size[c][d]);
                }
            }
            if (n > 0 && (bestColumn < 0 || columns.get(j).price() / n < columns.get(bestColumn).price() / bestCount)) {
                bestColumn = j;
                bestCount = n;
            }
        }
        int[] counts = new int[left.length];
        counts[c] = (int) bestCount;
        return new Filling(bestColumn, counts);
    }
}
