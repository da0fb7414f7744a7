package dev.gantry.simulator;

import dev.gantry.simulator.observe.Placement;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Issue #23: a 12-hour run failed with "podsNotPlacedInTime ... still pending 151 s ... (allowed 151 s)". The checker
 * was wrong twice: it called a pod late at its deadline itself (a later step of the same instant may bind it), and it
 * printed whole seconds, so a pod 0.4 s late read as not late at all.
 */
class PlacedInTimeMessageTest {
    private static final Instant START = Instant.parse("2025-06-01T00:00:00Z");

    @Test
    void aPodIsLateOnlyStrictlyAfterItsDeadline() {
        Instant deadline = START.plus(Simulation.PLACED_IN_TIME.total());
        assertThat(Simulation.PLACED_IN_TIME.total()).isEqualTo(Duration.ofSeconds(151));
        assertThat(Placement.late(deadline, deadline)).isFalse();
        assertThat(Placement.late(deadline, deadline.minusMillis(1))).isFalse();
        assertThat(Placement.late(deadline, deadline.plusMillis(1))).isTrue();
    }

    @Test
    void theViolationSaysHowLateToTheTenthOfASecondFromWhenAndWhatTheAllowanceIsMadeOf() {
        Pod p = Pod.builder("default", "web-7").build();
        Instant from = START.plusSeconds(3600);
        String m = Placement.message(p, from, "an EC2 fault window ended", START, from.plusMillis(151_400), Simulation.PLACED_IN_TIME);
        assertThat(m).isEqualTo("pod default/web-7 fits (" + p.requests() + ") but is still pending 151.4 s after its capacity "
                + "became available at 1:00:00 (an EC2 fault window ended; now 1:02:31); allowed 151 s: boot 60 s + batch 1 s "
                + "+ sweep 60 s + slack 30 s");
    }
}
