package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.observe.Invariants;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.scenario.Scenario;
/**
 * One self-contained HTML page for a run: inline SVG charts (nodes by instance type, pending pods, $/h) with the
 * scenario's events marked on them, the summary, the invariant violations and the timeline of decisions, filterable
 * by kind with repeats collapsed. No scripts, fonts or anything fetched over the network. Text wraps at the page's
 * width: nothing is hidden behind a horizontal scrollbar.
 */
public final class HtmlReport {
    private static final String STYLE = "body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;"
            + "margin:24px auto;max-width:1160px;padding:0 16px;color:#222}"
            + "h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}"
            + ".sub{color:#666}pre{background:#f6f8fa;padding:12px;border-radius:6px;font-size:12.5px;"
            + "white-space:pre-wrap;overflow-wrap:anywhere}"
            + "table{border-collapse:collapse;width:100%;font-size:12.5px}td{padding:3px 8px;border-bottom:1px solid #eee;"
            + "vertical-align:top;overflow-wrap:anywhere}"
            + "td.t,span.t{font-family:ui-monospace,Menlo,monospace;white-space:nowrap;color:#555}"
            + ".k{display:inline-block;min-width:84px;padding:1px 6px;border-radius:4px;color:#fff;font-size:11.5px;text-align:center}"
            + ".ok{color:#1a7f37;font-weight:600}.bad{color:#cf222e;font-weight:600}.warn{color:#9a6700;font-weight:600}"
            + ".legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:10px;"
            + "height:10px;margin-right:4px;border-radius:2px}"
            + "ol.markers{columns:2 320px;font-size:12px;margin:8px 0 0;padding-left:28px}"
            + "ol.markers li::marker{color:var(--c);font-weight:700}"
            + "input.f{display:none}.filters{margin:0 0 8px}.filters label{cursor:pointer;margin-right:10px;font-size:12px;"
            + "user-select:none}summary{cursor:pointer}.rep{color:#666;font-size:11.5px}"
            + "details div{margin:2px 0 0 12px;color:#444}"
            + "svg{background:#fff;border:1px solid #e5e5e5;border-radius:6px}";

    private HtmlReport() {
    }

    /**
     * The page for one run: {@code approximatePrices} when the catalogue priced the scenario's region with another
     * region's prices (the summary says so too).
     */
    public static String render(Summary summary, Scenario scenario, Recorder r, Invariants invariants, boolean approximatePrices) {
        long total = scenario.run().duration().toSeconds();
        ReportCharts charts = new ReportCharts(total, ReportMarkers.of(scenario));
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>gantry simulate: ")
                .append(esc(scenario.name())).append("</title><style>").append(STYLE).append("</style></head><body>");
        b.append("<h1>gantry simulate: ").append(esc(scenario.name())).append("</h1><div class=\"sub\">")
                .append(esc(scenario.file().getFileName().toString())).append(" · seed ").append(scenario.run().seed())
                .append(" · ").append(VirtualClock.format(total)).append(" simulated · region ")
                .append(esc(scenario.cluster().region())).append(" · ").append(invariants.total() == 0
                        ? "<span class=\"ok\">all invariants held</span>" : "<span class=\"bad\">" + invariants.total()
                        + " invariant violations</span>").append("</div>");
        if (approximatePrices) {
            b.append("<p class=\"warn\">Prices: no ").append(esc(scenario.cluster().region()))
                    .append(" prices in the built-in catalogue; costs use us-east-1's on-demand prices, which differ by region.</p>");
        }
        b.append("<h2>Nodes by instance type</h2>").append(charts.nodes(r.samples()));
        b.append("<h2>Pending pods</h2>").append(charts.line("pending", r.samples(), s -> s.pending(), "#e15759", true, ""));
        b.append("<h2>Cost ($/h)</h2>").append(charts.line("cost", r.samples(), Recorder.Sample::perHour, "#4e79a7", false, "$"));
        b.append("<h2>Summary</h2><pre id=\"summary\">").append(esc(summary.table())).append("</pre>");
        b.append("<h2>What Gantry costs to run</h2>").append(SelfCostTable.html(summary.tree().get("selfCost")));
        if (!invariants.kept().isEmpty()) {
            b.append("<h2>Invariant violations</h2><pre id=\"violations\">");
            invariants.kept().forEach(v -> b.append(esc(v.toString())).append('\n'));
            b.append("</pre>");
        }
        b.append("<h2>Timeline of decisions</h2>").append(ReportTimeline.html(r.timeline(), r.timelineDropped(), HtmlReport::kindColor));
        b.append("<h2>Summary JSON</h2><pre>").append(esc(summary.json())).append("</pre></body></html>\n");
        return b.toString();
    }

    static String kindColor(String kind) {
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

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
