package dev.gantry.core.headroom;

import dev.gantry.core.disruption.CronSchedule;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * When a scheduled buffer's capacity is wanted. The schedule says when the capacity must be <em>ready</em>, so the
 * window opens {@code bootLead} early (a node takes that long to launch and join) and closes on time: a firing at F
 * with duration D keeps the buffer active over [F - bootLead, F + D).
 */
public final class BufferWindow {
    /** How far ahead {@link #nextOpening} looks: a yearly schedule still has an answer. */
    static final Duration HORIZON = Duration.ofDays(366);

    private BufferWindow() {
    }

    /** Whether the buffer is active at {@code now}; a buffer without a schedule always is. */
    public static boolean isActive(CapacityBuffer.Schedule schedule, Instant now, Duration bootLead) {
        if (schedule == null) {
            return true;
        }
        // A firing in (now - D, now + lead]: opened lead early, not yet closed.
        return CronSchedule.parse(schedule.cron()).isActive(now.plus(bootLead), schedule.duration().plus(bootLead));
    }

    /**
     * When the buffer next becomes active after {@code now} (the firing minus the lead), or empty when there is no
     * schedule or no firing within a year.
     */
    public static Optional<Instant> nextOpening(CapacityBuffer.Schedule schedule, Instant now, Duration bootLead) {
        if (schedule == null) {
            return Optional.empty();
        }
        CronSchedule cron = CronSchedule.parse(schedule.cron());
        Instant from = now.plus(bootLead).truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        for (Instant m = from; m.isBefore(from.plus(HORIZON)); m = m.plus(Duration.ofMinutes(1))) {
            if (cron.matches(m)) {
                return Optional.of(m.minus(bootLead));
            }
        }
        return Optional.empty();
    }
}
