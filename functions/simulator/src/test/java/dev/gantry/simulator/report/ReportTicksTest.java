package dev.gantry.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The report's axes: distinct, round ticks at a precision that fits the range (issues #23 and #27). */
class ReportTicksTest {
    private static List<String> labels(ReportTicks t, String prefix) {
        return t.values().stream().map(v -> t.label(v, prefix)).toList();
    }

    @Test
    void aTwoNodeClusterIsCountedInWholeNodes() {
        // Was 0, 1, 1, 2, 2 (max 2.2 split in four and rounded): integer counts at fractional ticks.
        assertThat(labels(ReportTicks.of(2, true), "")).containsExactly("0", "1", "2");
    }

    @Test
    void oddCountsGetRoundSteps() {
        // Was 18/36/53/71 (a max of 71 split in four).
        assertThat(labels(ReportTicks.of(71, true), "")).containsExactly("0", "20", "40", "60", "80");
        assertThat(labels(ReportTicks.of(9, true), "")).containsExactly("0", "5", "10");
    }

    @Test
    void aSmallClustersCostIsTickedAtAPrecisionThatTellsTheTicksApart() {
        // Was $0.00, $0.01, $0.01, $0.01 for a peak of $0.012/h.
        assertThat(labels(ReportTicks.of(0.012, false), "$")).containsExactly("$0.000", "$0.005", "$0.010", "$0.015");
        assertThat(labels(ReportTicks.of(0.353, false), "$")).containsExactly("$0.0", "$0.1", "$0.2", "$0.3", "$0.4");
        assertThat(labels(ReportTicks.of(3.1, false), "$")).containsExactly("$0", "$1", "$2", "$3", "$4");
        assertThat(labels(ReportTicks.of(9, false), "")).containsExactly("0.0", "2.5", "5.0", "7.5", "10.0");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 0.0004, 0.012, 0.07, 0.353, 1, 2, 3, 7, 9, 13, 71, 99, 101, 1234, 20_000})
    void ticksAreDistinctRoundAndCoverTheData(double max) {
        for (boolean integers : new boolean[] {true, false}) {
            ReportTicks t = ReportTicks.of(max, integers);
            List<String> labels = labels(t, "");
            assertThat(labels).doesNotHaveDuplicates();
            assertThat(t.max()).isGreaterThanOrEqualTo(max);
            assertThat(t.values().size()).isBetween(2, 6);
            if (integers) {
                assertThat(t.values()).allSatisfy(v -> assertThat(v % 1).isZero());
            }
        }
    }

    @Test
    void timeTicksAreRoundAndAtMostEightIntervals() {
        assertThat(ReportTicks.time(12 * 3600)).containsExactly(0L, 7200L, 14400L, 21600L, 28800L, 36000L, 43200L);
        assertThat(ReportTicks.time(30 * 60)).hasSize(7).startsWith(0L, 300L);
        assertThat(ReportTicks.time(24 * 3600)).hasSize(9).contains(10800L);
    }

    @Test
    void ticksAndChartCoordinatesUseADotWhateverTheDefaultLocale() {
        // Under a comma-decimal locale the labels read "$0,005" and the SVG points "12,5,30,0 ", which no browser can
        // draw: the charts are a file format, not prose.
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            assertThat(labels(ReportTicks.of(0.012, false), "$")).containsExactly("$0.000", "$0.005", "$0.010", "$0.015");
            ReportCharts charts = new ReportCharts(600, List.of());
            var samples = List.of(new dev.gantry.simulator.observe.Recorder.Sample(0, java.util.Map.of("m5.large", 1), 0, 0.0125),
                    new dev.gantry.simulator.observe.Recorder.Sample(300, java.util.Map.of("m5.large", 2), 1, 0.025));
            String svg = charts.line("cost", samples, dev.gantry.simulator.observe.Recorder.Sample::perHour, "#000", false, "$")
                    + charts.nodes(samples);
            assertThat(svg).doesNotContainPattern("\\d,\\d+,\\d").doesNotContain("$0,0");
            assertThat(svg).containsPattern("points=\"[0-9. ,]+\"");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }
}
