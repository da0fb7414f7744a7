package dev.gantry.simulator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Axis ticks for the report's charts: distinct, round values (1, 2, 2.5 or 5 times a power of ten) from zero to the
 * first tick at or above the data's maximum, about four intervals, labelled at the precision the step needs. A count
 * axis never steps by less than one, so it never labels a fraction (the nodes chart of a two-node cluster read
 * "2, 2, 1, 1, 0"); a cost axis of a few cents steps by a cent or half a cent, not "$0.01, $0.01, $0.00".
 *
 * @param values   the tick values, from 0 up, evenly spaced
 * @param decimals the digits after the point every label needs to tell the ticks apart
 */
record ReportTicks(List<Double> values, int decimals) {
    private static final double[] NICE = {1, 2, 2.5, 5, 10};
    private static final int INTERVALS = 4;

    /** Ticks for data up to {@code max}; {@code integers} for counts. */
    static ReportTicks of(double max, boolean integers) {
        double top = max > 0 && Double.isFinite(max) ? max : 1;
        double raw = top / INTERVALS;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = 10 * magnitude;
        double chosen = 10;
        for (double m : NICE) {
            double s = m * magnitude;
            if (s >= raw * (1 - 1e-9) && !(integers && s < 1) && !(integers && Math.abs(s - Math.rint(s)) > 1e-9)) {
                step = s;
                chosen = m;
                break;
            }
        }
        if (integers && step < 1) {
            step = 1;
            chosen = 1;
            magnitude = 1;
        }
        int n = (int) Math.ceil(top / step - 1e-9);
        List<Double> values = new ArrayList<>(n + 1);
        for (int i = 0; i <= n; i++) {
            values.add(round(i * step));
        }
        int decimals = integers ? 0 : Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9) + (chosen == 2.5 ? 1 : 0));
        return new ReportTicks(List.copyOf(values), decimals);
    }

    /** The axis top: the last tick. */
    double max() {
        return values.getLast();
    }

    /** A tick's label: {@code prefix} then the value at {@link #decimals} places. */
    String label(double v, String prefix) {
        return prefix + String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static double round(double v) {
        return Math.round(v * 1e9) / 1e9;
    }

    /**
     * Time ticks over {@code [0, total]} seconds: a round step (1, 2, 5, 10, 15 or 30 minutes, 1, 2, 3, 4, 6 or 12
     * hours, a day) that gives at most eight intervals.
     */
    static List<Long> time(long total) {
        long[] steps = {60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400};
        long step = steps[steps.length - 1];
        for (long s : steps) {
            if (total / s <= 8) {
                step = s;
                break;
            }
        }
        List<Long> out = new ArrayList<>();
        for (long t = 0; t <= total; t += step) {
            out.add(t);
        }
        return out;
    }
}
