package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.observe.Recorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The report's inline SVG charts: nodes by instance type (stacked), pending pods and $/h (steps), each with round ticks
 * ({@link ReportTicks}) and the scenario's events as numbered vertical markers ({@link ReportMarkers}) whose legend
 * follows the first chart.
 */
final class ReportCharts {
    static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
        "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    private static final int W = 1100;
    private static final int H = 230;
    private static final int PAD_L = 64;
    private static final int PAD_B = 28;
    /** Room above the plot for the markers' numbers. */
    private static final int PAD_T = 22;
    /** Room on the right for the last time label, centred on the chart's end. */
    private static final int PAD_R = 32;

    private final long total;
    private final List<ReportMarkers.Marker> markers;

    ReportCharts(long total, List<ReportMarkers.Marker> markers) {
        this.total = total;
        this.markers = markers;
    }

    /** A stacked area per instance type (the eight most used, the rest as "other"), with the markers' legend. */
    String nodes(List<Recorder.Sample> samples) {
        Map<String, Integer> use = new TreeMap<>();
        samples.forEach(s -> s.nodesByType().forEach((t, n) -> use.merge(t, n, Integer::sum)));
        List<String> types = new ArrayList<>(use.keySet());
        types.sort((a, c) -> use.get(c) - use.get(a) != 0 ? use.get(c) - use.get(a) : a.compareTo(c));
        List<String> shown = types.subList(0, Math.min(8, types.size()));
        List<String> series = new ArrayList<>(shown);
        if (types.size() > shown.size()) {
            series.add("other");
        }
        List<Map<String, Integer>> rows = new ArrayList<>();
        int max = 0;
        for (Recorder.Sample s : samples) {
            Map<String, Integer> row = new LinkedHashMap<>();
            int sum = 0;
            for (var e : s.nodesByType().entrySet()) {
                row.merge(shown.contains(e.getKey()) ? e.getKey() : "other", e.getValue(), Integer::sum);
                sum += e.getValue();
            }
            rows.add(row);
            max = Math.max(max, sum);
        }
        ReportTicks ticks = ReportTicks.of(max, true);
        StringBuilder b = new StringBuilder(frame("nodes", ticks, ""));
        double[] base = new double[samples.size()];
        for (int k = 0; k < series.size(); k++) {
            String type = series.get(k);
            StringBuilder top = new StringBuilder();
            StringBuilder bottom = new StringBuilder();
            for (int i = 0; i < samples.size(); i++) {
                double x = x(samples.get(i).t());
                double lo = base[i];
                double hi = lo + rows.get(i).getOrDefault(type, 0);
                top.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(hi, ticks.max())));
                bottom.insert(0, String.format(Locale.ROOT, "%.1f,%.1f ", x, y(lo, ticks.max())));
                base[i] = hi;
            }
            b.append("<polygon fill=\"").append(PALETTE[k % PALETTE.length]).append("\" fill-opacity=\"0.85\" points=\"")
                    .append(top).append(bottom).append("\"/>");
        }
        b.append(markerLines(true)).append("</svg><div class=\"legend\">");
        for (int k = 0; k < series.size(); k++) {
            b.append("<span><i style=\"background:").append(PALETTE[k % PALETTE.length]).append("\"></i>")
                    .append(HtmlReport.esc(series.get(k))).append("</span>");
        }
        b.append("</div>");
        return b.append(markerLegend()).toString();
    }

    /** A step line of one value per sample; {@code integers} for counts, {@code prefix} before each tick ("$"). */
    String line(String name, List<Recorder.Sample> samples, ToDoubleFunction<Recorder.Sample> f, String color, boolean integers,
                String prefix) {
        double max = 0;
        for (Recorder.Sample s : samples) {
            max = Math.max(max, f.applyAsDouble(s));
        }
        ReportTicks ticks = ReportTicks.of(max, integers);
        StringBuilder pts = new StringBuilder();
        double prevY = -1;
        for (Recorder.Sample s : samples) {
            double x = x(s.t());
            double y = y(f.applyAsDouble(s), ticks.max());
            if (prevY >= 0) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, prevY)); // a step: values hold until the next sample
            }
            pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            prevY = y;
        }
        return frame(name, ticks, prefix) + "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + pts
                + "\"/>" + markerLines(false) + "</svg>";
    }

    /** The SVG element with its axes: round ticks up the y axis, round times along the bottom. */
    private String frame(String name, ReportTicks ticks, String prefix) {
        StringBuilder b = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"" + name
                + "\" width=\"100%\" viewBox=\"0 0 " + W + " " + H + "\" font-size=\"11\" font-family=\"system-ui,sans-serif\">");
        for (double v : ticks.values()) {
            double y = y(v, ticks.max());
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", PAD_L, W - PAD_R, y, y));
            b.append(String.format(Locale.ROOT, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">%s</text>",
                    PAD_L - 6, y + 4, ticks.label(v, prefix)));
        }
        for (long t : ReportTicks.time(total)) {
            b.append(String.format(Locale.ROOT, "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#666\">%s</text>", x(t),
                    H - 8, VirtualClock.format(t)));
        }
        return b.toString();
    }

    /** A dashed line per marker, and on the first chart its number in a disc above the plot; each has a tooltip. */
    private String markerLines(boolean numbered) {
        StringBuilder b = new StringBuilder();
        double lastX = -100;
        int level = 0;
        for (ReportMarkers.Marker m : markers) {
            double x = x(m.t());
            level = x - lastX < 17 ? level + 1 : 0; // discs of events at about the same time go down a row each
            lastX = x;
            b.append("<g class=\"marker\"><title>").append(HtmlReport.esc(m.number() + ". " + VirtualClock.format(m.t()) + " " + m.label()))
                    .append("</title>");
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\" "
                    + "stroke-dasharray=\"3,3\" opacity=\"0.8\"/>", x, x, PAD_T - 4, H - PAD_B, m.kind().color));
            if (numbered) {
                int cy = PAD_T - 12 + 17 * level;
                b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"8\" fill=\"%s\"/><text x=\"%.1f\" y=\"%d\" "
                        + "text-anchor=\"middle\" fill=\"#fff\" font-size=\"9.5\">%d</text>", x, cy, m.kind().color, x,
                        cy + 3, m.number()));
            }
            b.append("</g>");
        }
        return b.toString();
    }

    /** The markers' legend: number, time and what happened, coloured by kind. */
    private String markerLegend() {
        if (markers.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<ol class=\"markers\">");
        for (ReportMarkers.Marker m : markers) {
            b.append("<li value=\"").append(m.number()).append("\" style=\"--c:").append(m.kind().color).append("\"><span class=\"t\">")
                    .append(VirtualClock.format(m.t())).append("</span> ").append(HtmlReport.esc(m.label())).append("</li>");
        }
        return b.append("</ol>").toString();
    }

    private double x(long t) {
        return PAD_L + (W - PAD_L - PAD_R) * (total == 0 ? 0 : (double) t / total);
    }

    private static double y(double v, double max) {
        return PAD_T + (H - PAD_B - PAD_T) * (1 - v / max);
    }
}
