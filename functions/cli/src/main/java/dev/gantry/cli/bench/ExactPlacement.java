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
 * type, GPU, ...), and, where the caller gives them, zone rows: a zonal spread's least count per zone ({@link ZoneRow},
 * on columns of one zone each). What it does not: the rest of topology spread (hostname, the skew beyond each zone's
 * least count) and pod (anti-)affinity, so for pods that carry them the optimum is that of a relaxation, a lower bound
 * on the true one.
 */
final class ExactPlacement {
    /** Rounds of column generation for the lower bound, and per step of the dive (its tail improves little). */
    private static final int MAX_ROUNDS = 60;
    private static final int DIVE_ROUNDS = 10;
    private static final double EPS = 1e-9;

    /** A node one could launch: its type's name, the room its pods get, its price per hour, and its zone (null: any). */
    record Column(String name, Resources room, double price, String zone) {
        Column(String name, Resources room, double price) {
            this(name, room, price, null);
        }
    }

    /**
     * At least {@code count} pods of the classes {@code classes} on columns of zone {@code zone}: a zonal topology
     * spread's least count per zone (a spread of n pods with maxSkew s over Z zones puts at least
     * ⌈(n − (Z − 1)·s) ÷ Z⌉ in each), which every placement that keeps the spread meets.
     */
    record ZoneRow(int[] classes, String zone, int count) {
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
    private final List<ZoneRow> zoneRows;

    private ExactPlacement(List<PodClass> classes, List<Column> columns, List<ZoneRow> zoneRows) {
        this.columns = columns;
        this.zoneRows = zoneRows;
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
        if (!zoneRows.isEmpty() && !java.util.Objects.equals(columns.get(i).zone(), columns.get(j).zone())) {
            return false; // a zone row may pay for j's zone and not i's
        }
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
        return solve(classes, columns, List.of(), null);
    }

    /**
     * As above, with each zone row's least count in its zone too; with {@code trace} non-null, prints the lower bound's
     * generation there, a line a round. The dive meets a zone row as far as its classes have pods left (a dive that put
     * too many of a spread's pods in one zone early may leave a later zone short: its placement is then the
     * relaxation's, as without zone rows).
     */
    static Result solve(List<PodClass> classes, List<Column> columns, List<ZoneRow> zoneRows, java.io.PrintStream trace) {
        ExactPlacement s = new ExactPlacement(classes, columns, zoneRows);
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
        int[] zoneLeft = zoneRows.stream().mapToInt(ZoneRow::count).toArray();
        Lp bound = s.configurationLp(left, zoneLeft, MAX_ROUNDS, true, trace);
        double lower = bound.lower;
        double upper = 0;
        int nodes = 0;
        java.util.SortedMap<String, Integer> fleet = new java.util.TreeMap<>();
        while (Arrays.stream(left).sum() > 0) {
            Lp lp = s.configurationLp(left, zoneLeft, DIVE_ROUNDS, false, null);
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
                    for (int r = 0; r < zoneLeft.length; r++) {
                        zoneLeft[r] -= Math.min(zoneLeft[r], s.inZone(r, f, left));
                    }
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
    private Lp configurationLp(int[] left, int[] zoneLeft, int maxRounds, boolean prove, java.io.PrintStream trace) {
        int[] rows = java.util.stream.IntStream.range(0, left.length).filter(c -> left[c] > 0).toArray();
        // A zone row asks no more than its classes have left (see the dive).
        int[] need = new int[zoneLeft.length];
        for (int r = 0; r < need.length; r++) {
            int pods = 0;
            for (int c : zoneRows.get(r).classes()) {
                pods += left[c];
            }
            need[r] = Math.min(zoneLeft[r], pods);
        }
        for (int c : rows) {
            if (pool.stream().noneMatch(f -> f.counts[c] > 0)) {
                pool.add(alone(c, left, null));
            }
        }
        for (int r = 0; r < need.length; r++) {
            for (int c : zoneRows.get(r).classes()) {
                String zone = zoneRows.get(r).zone();
                if (left[c] > 0 && pool.stream().noneMatch(f -> f.counts[c] > 0 && zone.equals(columns.get(f.column).zone()))) {
                    Filling f = alone(c, left, zone);
                    if (f.column >= 0) {
                        pool.add(f);
                    }
                }
            }
        }
        int m = rows.length + need.length;
        double lower = 0;
        for (int round = 0; ; round++) {
            List<Filling> active = pool.stream().filter(f -> useful(f, left)).toList();
            double[][] a = new double[m][active.size()];
            double[] b = new double[m];
            double[] price = new double[active.size()];
            for (int r = 0; r < rows.length; r++) {
                b[r] = left[rows[r]];
                for (int k = 0; k < active.size(); k++) {
                    a[r][k] = Math.min(left[rows[r]], active.get(k).counts[rows[r]]);
                }
            }
            for (int r = 0; r < need.length; r++) {
                b[rows.length + r] = need[r];
                for (int k = 0; k < active.size(); k++) {
                    a[rows.length + r][k] = Math.min(need[r], inZone(r, active.get(k), left));
                }
            }
            for (int k = 0; k < active.size(); k++) {
                price[k] = columns.get(active.get(k).column).price();
            }
            double[] x = new double[active.size()];
            double[] dualRows = new double[m];
            double value = LowerBound.Simplex.minCover(a, b, price, active.size(), x, dualRows);
            double[] y = new double[left.length];
            for (int r = 0; r < rows.length; r++) {
                y[rows[r]] = dualRows[r];
            }
            double[] yz = java.util.Arrays.copyOfRange(dualRows, rows.length, m);
            double theta = 1;
            int unproven = 0;
            int worst = -1;
            List<Filling> found = new ArrayList<>();
            FillingKnapsack[] priced = new FillingKnapsack[columns.size()];
            for (int j = 0; j < columns.size(); j++) {
                if (!dominated[j]) {
                    priced[j] = new FillingKnapsack(room[j], size, allowedOn(j), valueOn(j, y, yz), left);
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
            for (int r = 0; r < need.length; r++) {
                dualValue += need[r] * yz[r];
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

    /**
     * Each class's value on column {@code j}: its row's price, plus the price of every zone row of {@code j}'s zone
     * that counts it. A filling's knapsack value is then its reduced value in the master with zone rows.
     */
    private double[] valueOn(int j, double[] y, double[] yz) {
        String zone = columns.get(j).zone();
        if (zone == null || zoneRows.isEmpty()) {
            return y;
        }
        double[] out = y.clone();
        for (int r = 0; r < yz.length; r++) {
            if (yz[r] > 0 && zone.equals(zoneRows.get(r).zone())) {
                for (int c : zoneRows.get(r).classes()) {
                    out[c] += yz[r];
                }
            }
        }
        return out;
    }

    /** How many of zone row {@code r}'s pods filling {@code f} places (as far as they are left), 0 outside its zone. */
    private int inZone(int r, Filling f, int[] left) {
        ZoneRow row = zoneRows.get(r);
        if (!row.zone().equals(columns.get(f.column).zone())) {
            return 0;
        }
        int n = 0;
        for (int c : row.classes()) {
            n += Math.min(left[c], f.counts[c]);
        }
        return n;
    }

    private boolean[] allowedOn(int j) {
        boolean[] out = new boolean[allowed.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = allowed[c][j];
        }
        return out;
    }

    /**
     * The most pods of class {@code c} alone that fit the cheapest column allowed for it, in {@code zone} unless it is
     * null (a feasible start; column -1 when none).
     */
    private Filling alone(int c, int[] left, String zone) {
        int bestColumn = -1;
        long bestCount = 0;
        for (int j = 0; j < columns.size(); j++) {
            if (!allowed[c][j] || dominated[j] || (zone != null && !zone.equals(columns.get(j).zone()))) {
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
