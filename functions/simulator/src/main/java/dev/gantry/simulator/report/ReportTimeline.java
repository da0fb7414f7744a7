package dev.gantry.simulator.report;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.observe.Recorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The report's timeline of decisions, for a reader of a long run: one checkbox per kind of entry (launch,
 * consolidation, interruption, kept, ...) shows or hides its rows, and repeats are collapsed. A 12-hour run had 1,123
 * rows, 888 of them "kept": "kept" starts hidden, and its count is on its checkbox.
 *
 * <p>Filtering is CSS only (a checked checkbox shows the rows of its kind), so the page still runs no script. An entry
 * is a repeat of the open group of its kind when its text has the same shape (numbers and the names of nodes,
 * instances, claims and commands blanked) and it comes within {@link #REPEAT_WINDOW_SECONDS} of the group's last entry;
 * a group is one row that says how many entries it holds and until when, with every entry behind a disclosure.
 */
final class ReportTimeline {
    /** Kinds whose rows start hidden. */
    static final java.util.Set<String> HIDDEN_AT_FIRST = java.util.Set.of("kept");
    static final long REPEAT_WINDOW_SECONDS = 30 * 60;
    private static final Pattern NAMES = Pattern.compile(
            "ip-[0-9a-z.-]+|i-[0-9a-f]+|nodeclaim/[\\w.-]+|c-[0-9a-z]+(-r\\d+)?|[\\w-]+/[\\w.-]+-[0-9a-z]+|\\d+(\\.\\d+)?");

    /** A row: the entries it stands for (one, or a group of repeats). */
    record Row(String kind, List<Recorder.Entry> entries) {
        Recorder.Entry first() {
            return entries.getFirst();
        }
    }

    private ReportTimeline() {
    }

    /** The entries as rows, repeats collapsed, in the order of each row's first entry. */
    static List<Row> rows(List<Recorder.Entry> entries) {
        List<Row> rows = new ArrayList<>();
        Map<String, Row> open = new LinkedHashMap<>();
        Map<String, String> openShape = new LinkedHashMap<>();
        for (Recorder.Entry e : entries) {
            String shape = shape(e.text());
            Row group = open.get(e.kind());
            if (group != null && shape.equals(openShape.get(e.kind()))
                    && e.t() - group.entries().getLast().t() <= REPEAT_WINDOW_SECONDS) {
                group.entries().add(e);
                continue;
            }
            Row row = new Row(e.kind(), new ArrayList<>(List.of(e)));
            rows.add(row);
            open.put(e.kind(), row);
            openShape.put(e.kind(), shape);
        }
        return rows;
    }

    /** The text with numbers and the names of nodes, instances, claims, commands and pods blanked. */
    static String shape(String text) {
        return NAMES.matcher(text).replaceAll("#");
    }

    /** The filters, then the table. */
    static String html(List<Recorder.Entry> entries, int dropped, java.util.function.Function<String, String> kindColor) {
        Map<String, Integer> counts = new TreeMap<>();
        entries.forEach(e -> counts.merge(e.kind(), 1, Integer::sum));
        StringBuilder css = new StringBuilder();
        StringBuilder inputs = new StringBuilder();
        StringBuilder labels = new StringBuilder("<div class=\"filters\"><span class=\"sub\">Show:</span> ");
        for (var c : counts.entrySet()) {
            String id = "f-" + c.getKey();
            inputs.append("<input type=\"checkbox\" class=\"f\" id=\"").append(id).append('"')
                    .append(HIDDEN_AT_FIRST.contains(c.getKey()) ? "" : " checked").append('>');
            labels.append("<label for=\"").append(id).append("\"><span class=\"k\" style=\"background:")
                    .append(kindColor.apply(c.getKey())).append("\">").append(HtmlReport.esc(c.getKey())).append("</span> ")
                    .append(c.getValue()).append("</label>");
            css.append('#').append(id).append(":not(:checked)~table tr.k-").append(c.getKey()).append("{display:none}");
            css.append('#').append(id).append(":not(:checked)~.filters label[for=").append(id).append("]{opacity:.45}");
        }
        labels.append("</div>");
        StringBuilder b = new StringBuilder("<style>").append(css).append("</style><div class=\"timeline\">").append(inputs)
                .append(labels).append("<table>");
        for (Row row : rows(entries)) {
            Recorder.Entry e = row.first();
            b.append("<tr class=\"k-").append(row.kind()).append("\"><td class=\"t\">").append(VirtualClock.format(e.t()))
                    .append("</td><td><span class=\"k\" style=\"background:").append(kindColor.apply(row.kind())).append("\">")
                    .append(HtmlReport.esc(row.kind())).append("</span></td><td>");
            if (row.entries().size() == 1) {
                b.append(HtmlReport.esc(e.text()));
            } else {
                b.append("<details><summary>").append(HtmlReport.esc(e.text())).append(" <span class=\"rep\">×")
                        .append(row.entries().size()).append(", the last at ")
                        .append(VirtualClock.format(row.entries().getLast().t())).append("</span></summary>");
                for (Recorder.Entry x : row.entries().subList(1, row.entries().size())) {
                    b.append("<div><span class=\"t\">").append(VirtualClock.format(x.t())).append("</span> ")
                            .append(HtmlReport.esc(x.text())).append("</div>");
                }
                b.append("</details>");
            }
            b.append("</td></tr>");
        }
        b.append("</table></div>");
        if (dropped > 0) {
            b.append("<p class=\"sub\">… and ").append(dropped).append(" more entries.</p>");
        }
        return b.toString();
    }
}
