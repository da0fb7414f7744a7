package dev.gantry.core.headroom;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BufferWindowTest {
    /** Seed 000's case: warm capacity on weekdays from 08:50 UTC for 10 hours. */
    private static final CapacityBuffer.Schedule WEEKDAYS = new CapacityBuffer.Schedule("50 8 * * 1-5", Duration.ofHours(10));
    private static final Duration LEAD = Duration.ofMinutes(5);

    @Test
    void opensTheBootLeadBeforeTheScheduleSoCapacityIsReadyWhenItFires() {
        // 2026-12-01 is a Tuesday.
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T08:44:00Z"), LEAD)).isFalse();
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T08:45:00Z"), LEAD)).isTrue();
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T08:50:00Z"), Duration.ZERO)).isTrue();
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T08:49:59Z"), Duration.ZERO)).isFalse();
    }

    @Test
    void closesOnTimeAfterTheDurationWhateverTheLead() {
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T18:49:00Z"), LEAD)).isTrue();
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-01T18:50:00Z"), LEAD)).isFalse();
    }

    @Test
    void staysClosedAtTheWeekend() {
        assertThat(BufferWindow.isActive(WEEKDAYS, Instant.parse("2026-12-05T10:00:00Z"), LEAD)).isFalse();
    }

    @Test
    void aBufferWithoutScheduleIsAlwaysActiveAndHasNoOpening() {
        assertThat(BufferWindow.isActive(null, Instant.parse("2026-12-05T10:00:00Z"), LEAD)).isTrue();
        assertThat(BufferWindow.nextOpening(null, Instant.EPOCH, LEAD)).isEmpty();
    }

    @Test
    void nextOpeningAfterFridayEveningIsMondayMorningMinusTheLead() {
        assertThat(BufferWindow.nextOpening(WEEKDAYS, Instant.parse("2026-12-04T19:00:00Z"), LEAD))
                .contains(Instant.parse("2026-12-07T08:45:00Z"));
    }
}
