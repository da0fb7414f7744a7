package dev.gantry.core.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
    static Instant at(String iso) {
        return Instant.parse(iso);
    }

    @Test
    void matchesValuesListsRangesAndSteps() {
        CronSchedule s = CronSchedule.parse("0,30 9-17/2 * * *");
        assertThat(s.matches(at("2025-06-02T09:30:00Z"))).isTrue();
        assertThat(s.matches(at("2025-06-02T11:00:59Z"))).isTrue();
        assertThat(s.matches(at("2025-06-02T10:00:00Z"))).isFalse();
        assertThat(s.matches(at("2025-06-02T09:15:00Z"))).isFalse();
        assertThat(s.matches(at("2025-06-02T19:00:00Z"))).isFalse();
    }

    @Test
    void starWithStepCountsFromTheLowestValue() {
        CronSchedule s = CronSchedule.parse("*/15 * * * *");
        assertThat(s.matches(at("2025-06-02T01:45:00Z"))).isTrue();
        assertThat(s.matches(at("2025-06-02T01:50:00Z"))).isFalse();
    }

    @Test
    void understandsMonthAndWeekdayNamesAndSundayAsSeven() {
        assertThat(CronSchedule.parse("0 0 * jun mon-fri").matches(at("2025-06-02T00:00:00Z"))).isTrue(); // a Monday
        assertThat(CronSchedule.parse("0 0 * jun mon-fri").matches(at("2025-06-01T00:00:00Z"))).isFalse(); // a Sunday
        assertThat(CronSchedule.parse("0 0 * * 7").matches(at("2025-06-01T00:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("0 0 * * SUN").matches(at("2025-06-01T00:00:00Z"))).isTrue();
    }

    @Test
    void dayOfMonthAndDayOfWeekCombineWithOrWhenBothAreRestricted() {
        CronSchedule s = CronSchedule.parse("0 0 13 * 5");
        assertThat(s.matches(at("2025-06-13T00:00:00Z"))).isTrue(); // Friday the 13th
        assertThat(s.matches(at("2025-06-06T00:00:00Z"))).isTrue(); // a Friday
        assertThat(s.matches(at("2025-07-13T00:00:00Z"))).isTrue(); // a 13th (Sunday)
        assertThat(s.matches(at("2025-06-07T00:00:00Z"))).isFalse();
        assertThat(CronSchedule.parse("0 0 13 * *").matches(at("2025-06-06T00:00:00Z"))).isFalse();
    }

    @Test
    void expandsMacros() {
        assertThat(CronSchedule.parse("@daily").matches(at("2025-06-02T00:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("@midnight").matches(at("2025-06-02T00:01:00Z"))).isFalse();
        assertThat(CronSchedule.parse("@hourly").matches(at("2025-06-02T05:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("@weekly").matches(at("2025-06-01T00:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("@monthly").matches(at("2025-06-01T00:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("@yearly").matches(at("2025-01-01T00:00:00Z"))).isTrue();
        assertThat(CronSchedule.parse("@annually").matches(at("2025-06-01T00:00:00Z"))).isFalse();
    }

    @Test
    void activeForTheDurationAfterEachFiring() {
        CronSchedule s = CronSchedule.parse("0 9 * * *");
        Duration eight = Duration.ofHours(8);
        assertThat(s.isActive(at("2025-06-02T08:59:00Z"), eight)).isFalse();
        assertThat(s.isActive(at("2025-06-02T09:00:00Z"), eight)).isTrue();
        assertThat(s.isActive(at("2025-06-02T16:59:59Z"), eight)).isTrue();
        assertThat(s.isActive(at("2025-06-02T17:00:00Z"), eight)).isFalse();
    }

    @Test
    void withoutADurationAScheduleIsNeverActive() {
        assertThat(CronSchedule.parse("* * * * *").isActive(at("2025-06-02T08:59:00Z"), Duration.ZERO)).isFalse();
    }

    @Test
    void rejectsMalformedSchedules() {
        for (String bad : new String[] {"* * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *", "*/0 * * * *",
                "5-1 * * * *", "@often", "x * * * *"}) {
            assertThatThrownBy(() -> CronSchedule.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
