package dev.gantry.core.scheduling;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Packs a bag of few pod shapes by patterns: how many pods of each shape one node of a type holds. Bin-by-bin filling
 * decides each node alone, so a bag whose pods pair badly on the cheap small types (two pods fill a 2-vCPU node's cpu,
 * a third would not fit, and the memory-heavy ones fit only alone) leaves many nodes with one pod. This solves the
 * cutting-stock LP instead (Gilmore–Gomory column generation): the master is {@link LowerBound.Simplex#minCover} with
 * one row per shape, and each round adds, for the types whose best pattern at the master's dual prices is worth more
 * than the node costs, that pattern (a bounded knapsack, searched depth-first within a node budget). The LP's patterns,
 * rounded up, become bins. The caller keeps the result only if it is cheaper. Deterministic; null when the bag has too many shapes or a pod fits no
 * type.
 */
final class PatternPacking {
    /** Bags with more shapes are left to bin-by-bin filling. */
    private static final int MAX_SHAPES = 48;
    private static final int MAX_ROUNDS = 30;
    /** New columns per round, at most: those whose pattern is worth most over its price. */
    private static final int COLUMNS_PER_ROUND = 8;
    /** The rounds stop once the LP shows no packing can cost less than this share of the plan to beat. */
    private static final double WORTH = 0.995;
    /** Depth-first steps per knapsack; the best pattern found by then is taken (the first dive is the greedy one). */
    private static final int MAX_STEPS = 300;
    /** Per round, the types whose greedy pattern prices best are searched depth-first; this many. */
    private static final int SEARCHED = 8;

    private PatternPacking() {
    }

    /**
     * @param types   the types a node may be, cheapest first
     * @param priceOf a type's price per hour
     * @param toBeat  what the group's current packing costs: no packing is sought once the LP shows none can cost
     *                {@link #WORTH} of it or less (Farley's bound: the master's value over the best pattern's worth
     *                per dollar; a true bound only with {@link Effort#lp()}, which bounds every type's best pattern,
     *                where the search's best found may fall short of it)
     */
    static <T, B> List<ShapePacking.Bin<T, B>> pack(List<T> pods, Function<T, Resources> requests, List<B> types, Function<B, Resources> roomOf,
                                                   ToDoubleFunction<B> priceOf, double toBeat) {
        return pack(pods, requests, p -> "", types, roomOf, priceOf, (kind, t) -> true, toBeat, GROUP, List.of());
    }

    /**
     * How hard the column generation works: at most {@code rounds} rounds, a depth-first search of {@code steps} steps
     * for each of the {@code searched} types whose greedy pattern prices best, and bags of at most {@code classes}
     * classes. With {@code gridTypes} above zero, once the search finds no pattern that pays (a few thousand steps find
     * the best of a few classes, not of a hundred), each round also prices exactly ({@link GridKnapsack}, at most
     * {@code gridStates} states) the first {@code gridTypes} types in the greedy order whose fractional bound beats what
     * the search found; the plan rounded where the search stalled stays a candidate, the cheaper is returned. With
     * {@code lp}, each searched type's knapsack LP is solved first and the search starts from it ({@link PatternKnapsack#relax}),
     * and where the search finds nothing, the types ranked first by their LP are searched ({@link PatternPricing}).
     */
    record Effort(int rounds, int searched, int steps, int classes, int gridTypes, long gridStates, boolean lp) {
        Effort(int rounds, int searched, int steps, int classes) {
            this(rounds, searched, steps, classes, 0, 0, false);
        }
    }

    /** For one group of claims with the same requirements. */
    static final Effort GROUP = new Effort(MAX_ROUNDS, SEARCHED, MAX_STEPS, MAX_SHAPES);
    /**
     * Wider: more rounds, and each searching more types deeper. Its LP is tighter, but rounding decides the plan, so
     * neither effort's plan is always the cheaper (on the benchmark's 10,000 generic pods the wider one is 0.7%
     * cheaper; on 300 mixed pods, 1.3% dearer).
     */
    static final Effort WIDE = new Effort(2 * MAX_ROUNDS, 4 * SEARCHED, 2_000, MAX_SHAPES);
    /**
     * The wider effort priced by the knapsack LP: on the benchmark's 10,000 generic pods its LP reaches $26.12 an hour
     * where the search alone stalls at $26.33 (the optimum is at least $26.06), and its plan is 0.7% cheaper, for about
     * 110-150 ms more. On smaller bags it found nothing cheaper for several times the rounds' time, bar one (300
     * on-demand pods, 5% cheaper for 0.4 s more), so {@link ZoneRepack} runs it only where it runs the wider effort.
     */
    static final Effort LP = new Effort(2 * MAX_ROUNDS, 4 * SEARCHED, 2_000, MAX_SHAPES, 0, 0, true);

    /**
     * The same over pods of several kinds, each kind allowed only on some types ({@code allows}): a class is a shape of
     * one kind, a pattern holds only the classes its type allows, and the bins too (their repair moves no pod onto a
     * type its kind may not use).
     *
     * @param kindOf     a pod's kind (equal kinds, equal allowances)
     * @param allows     whether a kind's pods may go on a type
     * @param effort     how hard to search; bags with more classes than it allows are left alone (null)
     * @param seeds      the pods of each node of a packing the master starts with as patterns (the current plan, say),
     *                   each on the cheapest type that holds and allows it, so it starts no dearer than that packing
     */
    static <T, B, K> List<ShapePacking.Bin<T, B>> pack(List<T> pods, Function<T, Resources> requests, Function<T, K> kindOf, List<B> types,
                                                      Function<B, Resources> roomOf, ToDoubleFunction<B> priceOf, BiPredicate<K, B> allows,
                                                      double toBeat, Effort effort, List<List<T>> seeds) {
        return pack(pods, requests, kindOf, types, roomOf, priceOf, allows, toBeat, effort, seeds, Quotas.none());
    }

    /**
     * The same where some pods must keep a count per cell ({@link Quotas}): one more master row per group and cell,
     * whose dual price a pattern earns per pod of the group in a type of that cell; the rounding fills no cell past its
     * count, gives the pods it could not fit a node of a cell with room left in its count, and the repair moves no such
     * pod out of its cell. The kind of a pod with a quota must carry its group (pods of one class share a group).
     */
    static <T, B, K> List<ShapePacking.Bin<T, B>> pack(List<T> pods, Function<T, Resources> requests, Function<T, K> kindOf, List<B> types,
                                                      Function<B, Resources> roomOf, ToDoubleFunction<B> priceOf, BiPredicate<K, B> allows,
                                                      double toBeat, Effort effort, List<List<T>> seeds, Quotas<T, B> quotas) {
        Map<List<Object>, List<T>> byShape = new LinkedHashMap<>();
        for (T p : pods) {
            byShape.computeIfAbsent(List.of(requests.apply(p), kindOf.apply(p)), k -> new ArrayList<>()).add(p);
        }
        int m = byShape.size();
        if (m == 0 || m > effort.classes()) {
            return null;
        }
        List<List<Object>> shapes = new ArrayList<>(byShape.keySet());
        List<String> dims = PatternMenu.dimensions(shapes.stream().map(k -> (Resources) k.get(0)).toList());
        long[][] size = new long[m][];
        double[] count = new double[m + quotas.rows()];
        int[] group = new int[m];
        for (int i = 0; i < m; i++) {
            size[i] = PatternMenu.vector((Resources) shapes.get(i).get(0), dims);
            count[i] = byShape.get(shapes.get(i)).size();
            group[i] = quotas.groupOf.applyAsInt(byShape.get(shapes.get(i)).get(0));
        }
        for (int g = 0; g < quotas.groups(); g++) {
            for (int c = 0; c < quotas.cells(g); c++) {
                if (quotas.row(g, c) >= 0) {
                    count[m + quotas.row(g, c)] = quotas.count(g, c);
                }
            }
        }
        @SuppressWarnings("unchecked")
        Function<Integer, K> kindOfClass = i -> (K) shapes.get(i).get(1);
        PatternMenu<B> menu = PatternMenu.of(types, roomOf, priceOf, quotas.cellOf, dims, size,
                (i, t) -> allows.test(kindOfClass.apply(i), t) && quotas.allows(group[i], quotas.cellOf.applyAsInt(t)));
        List<long[]> rooms = menu.rooms;
        List<Double> prices = menu.prices;
        List<int[]> patterns = new ArrayList<>();
        List<Integer> typeOf = new ArrayList<>();
        for (int i = 0; i < m; i++) { // one single-class column per class, on the cheapest type holding it, so the cover is feasible
            int t = menu.firstHolding(size[i], i, -1);
            if (t < 0) {
                return null;
            }
            int[] k = new int[m];
            k[i] = (int) Math.min(count[i], PatternKnapsack.copies(size[i], rooms.get(t)));
            patterns.add(k);
            typeOf.add(t);
        }
        if (!QuotaFill.coverQuotas(quotas, group, size, count, menu, patterns, typeOf)) {
            return null;
        }
        seed(seeds, requests, kindOf, quotas, shapes, size, menu, patterns, typeOf);
        double[] x = null;
        boolean exactPricing = false;
        List<ShapePacking.Bin<T, B>> searchedPlan = null; // the plan where the search alone stalled, if it did
        Map<T, K> kinds = new java.util.IdentityHashMap<>();
        pods.forEach(p -> kinds.put(p, kindOf.apply(p)));
        BiPredicate<T, B> allowed = (p, t) -> allows.test(kinds.get(p), t)
                && quotas.allows(quotas.groupOf.applyAsInt(p), quotas.cellOf.applyAsInt(t));
        int maxRounds = effort.rounds();
        int searched = effort.searched();
        int maxSteps = effort.steps();
        List<Double> history = new ArrayList<>(); // the LP effort's master value, round by round
        for (int round = 0; round <= maxRounds; round++) {
            double[] dual = new double[count.length];
            x = master(patterns, typeOf, menu, group, quotas, count, dual);
            if (round == maxRounds) {
                break;
            }
            // Every type's greedy pattern first (cheap); the depth-first search only for the types that price best by it.
            Integer[] byGreedy = new Integer[menu.size()];
            double[] greedy = new double[menu.size()];
            double[][] worth = new double[menu.size()][];
            for (int t = 0; t < menu.size(); t++) {
                byGreedy[t] = t;
                worth[t] = QuotaFill.worth(dual, m, group, quotas, menu, t);
                greedy[t] = PatternKnapsack.value(worth[t], PatternKnapsack.best(size, count, worth[t], rooms.get(t), m)) / prices.get(t); // m steps: the first dive
            }
            Arrays.sort(byGreedy, (a, b) -> Double.compare(greedy[b], greedy[a]));
            List<double[]> found = new ArrayList<>(); // {value over price, type}
            List<int[]> foundPatterns = new ArrayList<>();
            double[] searchedWorth = new double[menu.size()];
            PatternKnapsack.Relaxation[] relaxed = new PatternKnapsack.Relaxation[menu.size()];
            for (int g = 0; g < Math.min(searched, byGreedy.length); g++) {
                int t = byGreedy[g];
                double[] d = worth[t];
                relaxed[t] = effort.lp() ? PatternKnapsack.relax(size, count, d, rooms.get(t)) : null;
                int[] k = PatternKnapsack.best(size, count, d, rooms.get(t), maxSteps, relaxed[t]);
                double value = PatternKnapsack.value(d, k);
                searchedWorth[t] = value;
                if (value > prices.get(t) * (1 + 1e-7)) {
                    found.add(new double[]{value / prices.get(t), t});
                    foundPatterns.add(k);
                }
            }
            // With the LP pricing: a bound on every type's best pattern, so that Farley's bound below is valid (the best
            // pattern the search found may be worth less than another type's best), and where the search finds
            // nothing, the types whose bound says a pattern could pay for the node are searched.
            double[] bound = effort.lp() ? PatternPricing.bounds(size, count, worth, rooms, relaxed) : null;
            if (found.isEmpty() && effort.lp()) {
                PatternPricing.screen(size, count, worth, rooms, prices, bound, searchedWorth, relaxed, searched, maxSteps, found, foundPatterns);
            }
            if (found.isEmpty() && !exactPricing && effort.gridTypes() > 0) {
                // The search alone stalls here. A tighter LP does not always round to a cheaper plan (on 300 mixed
                // pods it rounds 1.3% dearer), so its plan stays a candidate, and the exact pricing goes on from here.
                searchedPlan = rounded(byShape, shapes, patterns, typeOf, menu, x, requests, roomOf, allowed, quotas, size);
                exactPricing = true;
            }
            // Exact pricing for the first types, in the same order, whose bound says a pattern could pay for a node and
            // beat what the search found.
            for (int g = 0, gridded = 0; exactPricing && g < byGreedy.length && gridded < effort.gridTypes(); g++) {
                int t = byGreedy[g];
                double[] d = worth[t];
                double floor = Math.max(searchedWorth[t], prices.get(t) * (1 + 1e-7));
                if (PatternKnapsack.bound(size, count, d, rooms.get(t)) <= floor) {
                    continue;
                }
                gridded++;
                int[] k = PatternKnapsack.exact(size, count, d, rooms.get(t), effort.gridStates());
                if (k != null && PatternKnapsack.value(d, k) > floor) {
                    found.add(new double[]{PatternKnapsack.value(d, k) / prices.get(t), t});
                    foundPatterns.add(k);
                }
            }
            double best = 1;
            for (double[] f : found) {
                best = Math.max(best, f[0]);
            }
            for (int t = 0; bound != null && t < bound.length; t++) {
                best = Math.max(best, bound[t] / prices.get(t));
            }
            double z = 0;
            for (int j = 0; j < x.length; j++) {
                z += x[j] * prices.get(typeOf.get(j));
            }
            if (z / best >= WORTH * toBeat) {
                return null;
            }
            if (found.isEmpty()) {
                break;
            }
            if (effort.lp() && PatternPricing.tailedOff(history, z)) {
                break;
            }
            Integer[] order = new Integer[found.size()];
            Arrays.setAll(order, i -> i);
            Arrays.sort(order, (a, b) -> Double.compare(found.get(b)[0], found.get(a)[0]));
            for (int j = 0; j < Math.min(COLUMNS_PER_ROUND, order.length); j++) {
                patterns.add(foundPatterns.get(order[j]));
                typeOf.add((int) found.get(order[j])[1]);
            }
        }
        List<ShapePacking.Bin<T, B>> plan = rounded(byShape, shapes, patterns, typeOf, menu, x, requests, roomOf, allowed, quotas, size);
        return searchedPlan != null && (plan == null || ShapePacking.price(searchedPlan, priceOf) < ShapePacking.price(plan, priceOf)) ? searchedPlan : plan;
    }

    /**
     * Adds each distinct seed as a pattern, on the cheapest menu type that holds it and allows its classes, in the cell
     * its pods with a quota start in.
     */
    private static <T, B, K> void seed(List<List<T>> seeds, Function<T, Resources> requests, Function<T, K> kindOf, Quotas<T, B> quotas,
                                       List<List<Object>> shapes, long[][] size, PatternMenu<B> menu, List<int[]> patterns, List<Integer> typeOf) {
        if (seeds.isEmpty()) {
            return;
        }
        Map<List<Object>, Integer> classOf = new java.util.HashMap<>();
        for (int i = 0; i < shapes.size(); i++) {
            classOf.put(shapes.get(i), i);
        }
        java.util.Set<List<Integer>> seen = new java.util.HashSet<>();
        for (List<T> s : seeds) {
            int[] k = new int[shapes.size()];
            boolean known = true;
            int cell = -1;
            for (T p : s) {
                Integer i = classOf.get(List.of(requests.apply(p), kindOf.apply(p)));
                if (i == null) {
                    known = false;
                    break;
                }
                k[i]++;
                cell = Math.max(cell, quotas.startCell.applyAsInt(p));
            }
            List<Integer> key = new ArrayList<>(Arrays.stream(k).boxed().toList());
            key.add(cell);
            if (!known || !seen.add(key)) {
                continue;
            }
            long[] need = new long[size.length == 0 ? 0 : size[0].length];
            for (int i = 0; i < k.length; i++) {
                for (int r = 0; r < need.length; r++) {
                    need[r] += k[i] * size[i][r];
                }
            }
            for (int t = 0; t < menu.size(); t++) { // cheapest first
                boolean ok = cell < 0 || menu.cells.get(t) == cell;
                for (int i = 0; i < k.length && ok; i++) {
                    ok = k[i] == 0 || menu.open.get(t)[i];
                }
                if (ok && PatternMenu.fits(need, menu.rooms.get(t))) {
                    patterns.add(k);
                    typeOf.add(t);
                    break;
                }
            }
        }
    }

    /**
     * Each pattern as many whole times as the LP uses it, then once more for the patterns used fractionally, the largest
     * fraction first, until every pod has a bin (the cover's rows guarantee it); never more pods of a shape than are
     * left, nor of a group than its cell's count leaves, so the last bins may be part full (the caller right-sizes
     * them). A pod with a quota still without a bin then gets one in a cell with room in its count
     * ({@link QuotaFill}). Then the emptiest bins are repaired ({@link TailRepair}), no pod with a quota leaving its cell.
     */
    private static <T, B> List<ShapePacking.Bin<T, B>> rounded(Map<List<Object>, List<T>> byShape, List<List<Object>> shapes, List<int[]> patterns,
                                                              List<Integer> typeOf, PatternMenu<B> menu, double[] x, Function<T, Resources> requests,
                                                              Function<B, Resources> roomOf, BiPredicate<T, B> allowed, Quotas<T, B> quotas,
                                                              long[][] size) {
        int m = shapes.size();
        int[] next = new int[m];
        int[][] quota = quotas.left();
        int left = 0;
        for (List<T> ps : byShape.values()) {
            left += ps.size();
        }
        List<ShapePacking.Bin<T, B>> out = new ArrayList<>();
        Integer[] byFraction = new Integer[patterns.size()];
        Arrays.setAll(byFraction, j -> j);
        Arrays.sort(byFraction, (a, b) -> Double.compare(x[b] - Math.floor(x[b] + 1e-9), x[a] - Math.floor(x[a] + 1e-9)));
        for (int pass = 0; pass < 2 && left > 0; pass++) {
            for (int j : byFraction) {
                long copies = pass == 0 ? (long) Math.floor(x[j] + 1e-9) : x[j] - Math.floor(x[j] + 1e-9) > 1e-9 ? 1 : 0;
                int[] k = patterns.get(j);
                int cell = menu.cells.get(typeOf.get(j));
                for (long copy = 0; copy < copies && left > 0; copy++) {
                    List<T> bin = new ArrayList<>();
                    for (int i = 0; i < m; i++) {
                        List<T> ps = byShape.get(shapes.get(i));
                        for (int c = 0; c < k[i] && next[i] < ps.size(); c++) {
                            int g = quotas.groupOf.applyAsInt(ps.get(next[i]));
                            if (g >= 0 && quota[g][cell]-- <= 0) {
                                quota[g][cell]++;
                                break;
                            }
                            bin.add(ps.get(next[i]++));
                        }
                    }
                    left -= bin.size();
                    if (!bin.isEmpty()) {
                        out.add(new ShapePacking.Bin<>(menu.types.get(typeOf.get(j)), bin));
                    }
                }
            }
        }
        if (left > 0 && !QuotaFill.place(byShape, shapes, next, quota, quotas, menu, size, requests, roomOf, out)) {
            return null; // the simplex stopped unsolved
        }
        return out.size() > 1 ? TailRepair.repair(out, requests, roomOf, QuotaFill.keepingCells(out, allowed, quotas)) : out;
    }

    /** The master LP over the patterns so far: the amounts of each (all zero if the simplex stopped unsolved), and the duals per row. */
    private static double[] master(List<int[]> patterns, List<Integer> typeOf, PatternMenu<?> menu, int[] group, Quotas<?, ?> quotas,
                                   double[] count, double[] dual) {
        int m = group.length;
        int n = patterns.size();
        double[][] a = new double[count.length][n];
        double[] price = new double[n];
        for (int j = 0; j < n; j++) {
            int cell = menu.cells.get(typeOf.get(j));
            for (int i = 0; i < m; i++) {
                a[i][j] = patterns.get(j)[i];
                int r = quotas.row(group[i], cell);
                if (r >= 0) {
                    a[m + r][j] += patterns.get(j)[i];
                }
            }
            price[j] = menu.prices.get(typeOf.get(j));
        }
        double[] x = new double[n];
        LowerBound.Simplex.minCover(a, count.clone(), price, n, x, dual);
        return x;
    }
}
