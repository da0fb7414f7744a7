package dev.gantry.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * One self-contained HTML page for a run: inline SVG charts (nodes by instance type, pending pods, $/h), the summary,
 * the invariant violations and the timeline of decisions. No scripts, fonts or anything fetched over the network.
 */
public final class HtmlReport {
    private static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
        "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    private static final int W = 1100;
    private static final int H = 220;
    private static final int PAD_L = 60;
    private static final int PAD_B = 28;
    /** Room on the right for the last time label, centred on the chart's end. */
    private static final int PAD_R = 32;

    private HtmlReport() {
    }

    public static String render(Simulation.Result result) {
        Simulation sim = result.simulation();
        Recorder r = sim.recorder;
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>gantry simulate: ")
                .append(esc(sim.scenario.name())).append("</title><style>")
                .append("body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1160px;color:#222}")
                .append("h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}")
                .append(".sub{color:#666}pre{background:#f6f8fa;padding:12px;border-radius:6px;overflow:auto;font-size:12.5px}")
                .append("table{border-collapse:collapse;width:100%;font-size:12.5px}td{padding:3px 8px;border-bottom:1px solid #eee;vertical-align:top}")
                .append("td.t{font-family:ui-monospace,Menlo,monospace;white-space:nowrap;color:#555}")
                .append(".k{display:inline-block;min-width:84px;padding:1px 6px;border-radius:4px;color:#fff;font-size:11.5px;text-align:center}")
                .append(".ok{color:#1a7f37;font-weight:600}.bad{color:#cf222e;font-weight:600}")
                .append(".legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}")
                .append("svg{background:#fff;border:1px solid #e5e5e5;border-radius:6px}</style></head><body>");
        b.append("<h1>gantry simulate: ").append(esc(sim.scenario.name())).append("</h1><div class=\"sub\">")
                .append(esc(sim.scenario.file().getFileName().toString())).append(" · seed ").append(sim.scenario.seed())
                .append(" · ").append(Progress.clock(sim.scenario.duration().toSeconds())).append(" simulated · region ")
                .append(esc(sim.scenario.region())).append(" · ").append(sim.invariants.total() == 0
                        ? "<span class=\"ok\">all invariants held</span>" : "<span class=\"bad\">" + sim.invariants.total()
                        + " invariant violations</span>").append("</div>");
        b.append("<h2>Nodes by instance type</h2>").append(nodesChart(r.samples, sim.scenario.duration().toSeconds()));
        b.append("<h2>Pending pods</h2>").append(line(r.samples, s -> s.pending(), "#e15759", sim.scenario.duration().toSeconds(), "%.0f"));
        b.append("<h2>Cost ($/h)</h2>").append(line(r.samples, Recorder.Sample::perHour, "#4e79a7", sim.scenario.duration().toSeconds(), "$%.2f"));
        b.append("<h2>Summary</h2><pre>").append(esc(result.summary().table())).append("</pre>");
        if (!sim.invariants.kept().isEmpty()) {
            b.append("<h2>Invariant violations</h2><pre>");
            sim.invariants.kept().forEach(v -> b.append(esc(v.toString())).append('\n'));
            b.append("</pre>");
        }
        b.append("<h2>Timeline of decisions</h2><table>");
        for (Recorder.Entry e : r.timeline) {
            b.append("<tr><td class=\"t\">").append(Progress.clock(e.t())).append("</td><td><span class=\"k\" style=\"background:")
                    .append(kindColor(e.kind())).append("\">").append(esc(e.kind())).append("</span></td><td>")
                    .append(esc(e.text())).append("</td></tr>");
        }
        b.append("</table>");
        if (r.timelineDropped > 0) {
            b.append("<p class=\"sub\">… and ").append(r.timelineDropped).append(" more entries.</p>");
        }
        b.append("<h2>Summary JSON</h2><pre>").append(esc(result.summary().json())).append("</pre></body></html>\n");
        return b.toString();
    }

    private static String kindColor(String kind) {
        return switch (kind) {
            case "launch" -> "#2da44e";
            case "terminate" -> "#8250df";
            case "interruption", "deadline" -> "#cf222e";
            case "scenario" -> "#0969da";
            case "fault", "error" -> "#bc4c00";
            case "unschedulable", "launch-failed" -> "#9a6700";
            case "recovered" -> "#1a7f37";
            case "consolidation" -> "#0a7ea4";
            case "kept" -> "#8c959f";
            default -> "#6e7781";
        };
    }

    /** A stacked area per instance type (the eight most used, the rest as "other"). */
    private static String nodesChart(List<Recorder.Sample> samples, long total) {
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
        int max = 1;
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
        StringBuilder b = new StringBuilder(frame(total, max, "%.0f"));
        double[] base = new double[samples.size()];
        for (int k = 0; k < series.size(); k++) {
            String type = series.get(k);
            StringBuilder top = new StringBuilder();
            StringBuilder bottom = new StringBuilder();
            for (int i = 0; i < samples.size(); i++) {
                double x = x(samples.get(i).t(), total);
                double lo = base[i];
                double hi = lo + rows.get(i).getOrDefault(type, 0);
                top.append(String.format("%.1f,%.1f ", x, y(hi, max)));
                bottom.insert(0, String.format("%.1f,%.1f ", x, y(lo, max)));
                base[i] = hi;
            }
            b.append("<polygon fill=\"").append(PALETTE[k % PALETTE.length]).append("\" fill-opacity=\"0.85\" points=\"")
                    .append(top).append(bottom).append("\"/>");
        }
        b.append("</svg><div class=\"legend\">");
        for (int k = 0; k < series.size(); k++) {
            b.append("<span><i style=\"background:").append(PALETTE[k % PALETTE.length]).append("\"></i>")
                    .append(esc(series.get(k))).append("</span>");
        }
        return b.append("</div>").toString();
    }

    private static String line(List<Recorder.Sample> samples, ToDoubleFunction<Recorder.Sample> f, String color, long total,
                               String fmt) {
        double max = 0;
        for (Recorder.Sample s : samples) {
            max = Math.max(max, f.applyAsDouble(s));
        }
        max = max <= 0 ? 1 : max * 1.1;
        StringBuilder pts = new StringBuilder();
        double prevY = -1;
        for (Recorder.Sample s : samples) {
            double x = x(s.t(), total);
            double y = y(f.applyAsDouble(s), max);
            if (prevY >= 0) {
                pts.append(String.format("%.1f,%.1f ", x, prevY)); // a step: values hold until the next sample
            }
            pts.append(String.format("%.1f,%.1f ", x, y));
            prevY = y;
        }
        return frame(total, max, fmt) + "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + pts
                + "\"/></svg>";
    }

    /** The SVG element with its axes: time along the bottom, {@code max} at the top of the y axis. */
    private static String frame(long total, double max, String fmt) {
        StringBuilder b = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 " + W + " " + H + "\" font-size=\"11\" font-family=\"system-ui,sans-serif\">");
        for (int i = 0; i <= 4; i++) {
            double v = max * i / 4;
            double y = y(v, max);
            b.append(String.format("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", PAD_L, W - PAD_R, y, y));
            b.append(String.format("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">%s</text>", PAD_L - 6, y + 4,
                    String.format(fmt, v)));
        }
        for (int i = 0; i <= 8; i++) {
            long t = total * i / 8;
            double x = x(t, total);
            b.append(String.format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#666\">%s</text>", x, H - 8,
                    Progress.clock(t)));
        }
        return b.toString();
    }

    private static double x(long t, long total) {
        return PAD_L + (W - PAD_L - PAD_R) * (total == 0 ? 0 : (double) t / total);
    }

    private static double y(double v, double max) {
        return 10 + (H - PAD_B - 10) * (1 - v / max);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
