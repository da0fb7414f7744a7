package dev.gantry.simulator.report;

import dev.gantry.simulator.observe.Recorder;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's timeline: repeats collapse, each kind can be hidden, and "kept" starts hidden. */
class ReportTimelineTest {
    private static Recorder.Entry e(long t, String kind, String text) {
        return new Recorder.Entry(t, kind, text);
    }

    @Test
    void repeatsOfAKindCollapseIntoOneRowEvenWithOtherKindsBetween() {
        List<ReportTimeline.Row> rows = ReportTimeline.rows(List.of(
                e(91, "kept", "node ip-10-0-1-2.ec2.internal: Unconsolidatable: consolidateAfter (PT30S) has not passed"),
                e(91, "launch", "nodeclaim/web-abcde → i-0a1b t3a.large us-east-1a on-demand $0.0752/h for 3 pods"),
                e(91, "kept", "node ip-10-0-9-7.ec2.internal: Unconsolidatable: consolidateAfter (PT30S) has not passed"),
                e(150, "kept", "node ip-10-0-9-7.ec2.internal: Unconsolidatable: NodePool \"default\" has consolidation policy WhenEmpty"),
                e(4000, "kept", "node ip-10-0-9-8.ec2.internal: Unconsolidatable: NodePool \"default\" has consolidation policy WhenEmpty")));
        assertThat(rows).extracting(r -> r.kind() + " " + r.entries().size())
                .containsExactly("kept 2", "launch 1", "kept 1", "kept 1"); // the last is more than 30 minutes later
    }

    @Test
    void everyKindHasACheckboxAndKeptStartsHidden() {
        String html = ReportTimeline.html(List.of(e(1, "launch", "a"), e(2, "kept", "b"), e(3, "consolidation", "c"),
                e(4, "interruption", "d")), 0, HtmlReport::kindColor);
        assertThat(html).contains("<input type=\"checkbox\" class=\"f\" id=\"f-launch\" checked>",
                "<input type=\"checkbox\" class=\"f\" id=\"f-consolidation\" checked>",
                "<input type=\"checkbox\" class=\"f\" id=\"f-interruption\" checked>",
                "<input type=\"checkbox\" class=\"f\" id=\"f-kept\">",
                "#f-kept:not(:checked)~table tr.k-kept{display:none}", "<tr class=\"k-kept\">");
        assertThat(html).doesNotContain("<script");
    }
}
