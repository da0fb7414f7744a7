package dev.gantry.core.headroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DemandHistoryTest {
    private static final long GI = 1L << 30;
    /** A Monday, 09:00 UTC. */
    private static final Instant MONDAY_9 = Instant.parse("2026-11-30T09:00:00Z");

    private static Instant weeksBefore(Instant t, int w) {
        return t.minus(Duration.ofDays(7L * w));
    }

    @Test
    void hourOfWeekCountsFromMondayMidnightUtc() {
        assertThat(DemandHistory.hourOfWeek(Instant.parse("2026-11-30T00:00:00Z"))).isZero();
        assertThat(DemandHistory.hourOfWeek(MONDAY_9)).isEqualTo(9);
        assertThat(DemandHistory.hourOfWeek(Instant.parse("2026-12-06T23:59:59Z"))).isEqualTo(167);
    }

    @Test
    void recordingKeepsTheHoursPeakSoARepeatedObservationChangesNothing() {
        DemandHistory h = DemandHistory.EMPTY
                .record("default", MONDAY_9.plusSeconds(60), Resources.of(4000, 8 * GI))
                .record("default", MONDAY_9.plusSeconds(1200), Resources.of(6000, 2 * GI))
                .record("default", MONDAY_9.plusSeconds(1200), Resources.of(6000, 2 * GI));
        assertThat(h.samples()).containsExactly(new DemandHistory.Sample("default", DemandHistory.epochHour(MONDAY_9), 6000, 8 * GI));
    }

    @Test
    void quantileIsTheNearestRankOverTheSameHourOfPastWeeks() {
        DemandHistory h = DemandHistory.EMPTY;
        long[] cpus = {1000, 2000, 3000, 4000, 10000};
        for (int w = 1; w <= 5; w++) {
            h = h.record("default", weeksBefore(MONDAY_9, w).plusSeconds(30), Resources.of(cpus[w - 1], w * GI));
        }
        // Another hour and another pool do not count.
        h = h.record("default", weeksBefore(MONDAY_9, 1).plus(Duration.ofHours(1)), Resources.of(99000, 99 * GI))
                .record("other", weeksBefore(MONDAY_9, 1), Resources.of(99000, 99 * GI));
        assertThat(h.quantile("default", MONDAY_9, 0.5)).isEqualTo(Resources.of(3000, 3 * GI));
        assertThat(h.quantile("default", MONDAY_9, 0.8)).isEqualTo(Resources.of(4000, 4 * GI));
        assertThat(h.quantile("default", MONDAY_9, 1.0)).isEqualTo(Resources.of(10000, 5 * GI));
        assertThat(h.weeksObserved("default", MONDAY_9)).isEqualTo(5);
    }

    @Test
    void aWeekWithoutDemandCountsAsZeroOnceThePoolWasObserved() {
        DemandHistory h = DemandHistory.EMPTY
                .record("default", weeksBefore(MONDAY_9, 4), Resources.of(8000, 0))
                .record("default", weeksBefore(MONDAY_9, 1), Resources.of(8000, 0));
        // Weeks 2 and 3 had no waiting pods at that hour: the median is zero, the maximum is 8 cpu.
        assertThat(h.quantile("default", MONDAY_9, 0.5).cpuMillis()).isZero();
        assertThat(h.quantile("default", MONDAY_9, 1.0).cpuMillis()).isEqualTo(8000);
        assertThat(h.weeksObserved("default", MONDAY_9)).isEqualTo(4);
    }

    @Test
    void noHistoryPredictsNothing() {
        assertThat(DemandHistory.EMPTY.quantile("default", MONDAY_9, 0.9)).isEqualTo(Resources.ZERO);
        assertThat(DemandHistory.EMPTY.record("default", MONDAY_9, Resources.of(1000, 0))
                .quantile("default", MONDAY_9, 0.9)).isEqualTo(Resources.ZERO);
    }

    @Test
    void onlyTheLastEightWeeksAreConsultedAndKept() {
        DemandHistory h = DemandHistory.EMPTY.record("default", weeksBefore(MONDAY_9, 9), Resources.of(50000, 0))
                .record("default", weeksBefore(MONDAY_9, 1), Resources.of(1000, 0));
        assertThat(h.quantile("default", MONDAY_9, 1.0).cpuMillis()).isEqualTo(1000);
        assertThat(h.prune(MONDAY_9).samples()).hasSize(1);
    }

    @Test
    void rejectsAQuantileOutsideZeroToOne() {
        assertThatThrownBy(() -> DemandHistory.EMPTY.quantile("default", MONDAY_9, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DemandHistory.EMPTY.quantile("default", MONDAY_9, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
