package dev.gantry.handlers.lifecycle.it;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock the test moves by hand, shared by every service and adapter of one test: a termination message sent with a
 * delay is received at once and the clock is moved by that delay instead, so hours of drain take milliseconds.
 */
final class VirtualClock extends Clock {
    private volatile Instant now;

    VirtualClock(Instant start) {
        this.now = start;
    }

    void advance(Duration d) {
        now = now.plus(d);
    }

    void set(Instant at) {
        now = at;
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
        return this;
    }
}
