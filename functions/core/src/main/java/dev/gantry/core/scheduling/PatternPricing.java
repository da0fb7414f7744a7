package dev.gantry.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link PatternPacking}'s pricing by the knapsack's LP ({@link PatternPacking.Effort#lp()}): a bound on every type's
 * best pattern at the master's dual prices, and the search of the types that bound ranks first where the types the
 * greedy dives rank first yield nothing.
 * <p>
 * The greedy dives rank a large type by one shape's most copies at a time, which fills one resource and strands the
 * other, so on a bag of many small shapes the types whose patterns would lower the LP are ranked below the first few
 * searched, the search finds nothing there, and the column generation stops short of the LP's optimum (the benchmark's
 * 10,000 generic pods: at $26.33 an hour where it is $26.06).
 */
final class PatternPricing {
    /** Per-unit prices tried on every type: those of the searched types whose LP is worth most over their price. */
    private static final int PRICES_TRIED = 4;

    private PatternPricing() {
    }

    /**
     * Rounds over which the LP effort's master must still improve by {@link #TAIL_GAIN} of its value to go on. Where the
     * plan to beat costs more than the LP's optimum over 0.995, Farley's bound cannot stop the rounds, and on a bag of
     * few large nodes the last ones gain a hundredth of a percent each (on-demand cmr>4, 1,000 pods: all 60 rounds,
     * 401 ms of CPU, for no cheaper plan; with this stop 117 ms and the same plan).
     */
    private static final int TAIL_ROUNDS = 5;
    private static final double TAIL_GAIN = 5e-4;

    /**
     * Whether the column generation has tailed off: the master's value, now {@code z}, fell by less than
     * {@link #TAIL_GAIN} of it over the last {@link #TAIL_ROUNDS} rounds.
     */
    static boolean tailedOff(List<Double> history, double z) {
        history.add(z);
        int n = history.size();
        return n > TAIL_ROUNDS && history.get(n - 1 - TAIL_ROUNDS) - z < TAIL_GAIN * z;
    }

    /**
     * A bound on every type's best pattern at its dual prices: the least of the fractional bound
     * ({@link PatternKnapsack#bound}), the Lagrangian bound at the type's own LP prices where it was solved (the LP's
     * value, not the value the simplex reports, which stopped short would be below it), and the Lagrangian bounds at
     * the per-unit prices of the searched types' LPs worth most ({@link PatternKnapsack#lagrangian}). Every bound is
     * valid, so Farley's bound over them is too (the master's value over the best ratio of bound to price).
     */
    static double[] bounds(long[][] size, double[] count, double[][] worth, List<long[]> rooms, PatternKnapsack.Relaxation[] relaxed) {
        int n = rooms.size();
        Integer[] all = new Integer[size.length];
        Arrays.setAll(all, i -> i);
        List<Integer> searched = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            if (relaxed[t] != null) {
                searched.add(t);
            }
        }
        searched.sort((a, b) -> Double.compare(relaxed[b].value(), relaxed[a].value()));
        List<double[]> perUnit = new ArrayList<>();
        for (int t : searched.subList(0, Math.min(PRICES_TRIED, searched.size()))) {
            perUnit.add(relaxed[t].perUnit(rooms.get(t)));
        }
        double[] bound = new double[n];
        for (int t = 0; t < n; t++) {
            double b = PatternKnapsack.bound(size, count, worth[t], rooms.get(t));
            if (relaxed[t] != null) { // at the LP's own prices: its value, and a bound even where the simplex stopped short
                b = Math.min(b, PatternKnapsack.lagrangian(size, count, worth[t], rooms.get(t), relaxed[t].perUnit(rooms.get(t)), all, 0));
            }
            for (double[] p : perUnit) {
                b = Math.min(b, PatternKnapsack.lagrangian(size, count, worth[t], rooms.get(t), p, all, 0));
            }
            bound[t] = b;
        }
        return bound;
    }

    /**
     * Where the search found nothing: the types not yet searched whose bound exceeds their price, ranked by their own
     * LP's value over their price, the first {@code searched} of them searched from their LP; what pays is added to
     * {@code found}.
     */
    static void screen(long[][] size, double[] count, double[][] worth, List<long[]> rooms, List<Double> prices, double[] bound,
                       double[] searchedWorth, PatternKnapsack.Relaxation[] relaxed, int searched, int maxSteps,
                       List<double[]> found, List<int[]> foundPatterns) {
        List<double[]> open = new ArrayList<>(); // {LP value over price, type}
        for (int t = 0; t < rooms.size(); t++) {
            double floor = Math.max(searchedWorth[t], prices.get(t) * (1 + 1e-7));
            if (relaxed[t] != null || bound[t] <= floor) {
                continue;
            }
            relaxed[t] = PatternKnapsack.relax(size, count, worth[t], rooms.get(t));
            if (relaxed[t] != null && relaxed[t].value() > floor) {
                open.add(new double[]{relaxed[t].value() / prices.get(t), t});
            }
        }
        open.sort((a, b) -> Double.compare(b[0], a[0]));
        for (int g = 0; g < Math.min(searched, open.size()); g++) {
            int t = (int) open.get(g)[1];
            int[] k = PatternKnapsack.best(size, count, worth[t], rooms.get(t), maxSteps, relaxed[t]);
            double value = PatternKnapsack.value(worth[t], k);
            if (value > prices.get(t) * (1 + 1e-7)) {
                found.add(new double[]{value / prices.get(t), t});
                foundPatterns.add(k);
            }
        }
    }
}
