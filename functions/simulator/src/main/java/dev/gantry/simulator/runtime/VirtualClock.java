package dev.gantry.simulator.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's one clock: every service, controller and fault reads it, and only the {@link EventLoop} moves it.
 * Time never goes backwards.
 */
public final class VirtualClock extends Clock {
    private Instant now;

    public VirtualClock(Instant start) {
        this.now = start;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this; // the simulation is UTC throughout
    }

    /** Virtual seconds (since a run's start) as {@code h:mm:ss}. */
    public static String format(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
    }

    /** Starts the clock at {@code t} instead: only before anything has read it (a scenario's own start). */
    public void restart(Instant t) {
        now = t;
    }

    /** Moves the clock to {@code t}. */
    void set(Instant t) {
        if (t.isBefore(now)) {
            throw new IllegalStateException("the clock cannot go back from " + now + " to " + t);
        }
        now = t;
    }

    public void advance(Duration d) {
        set(now.plus(d));
    }
}
