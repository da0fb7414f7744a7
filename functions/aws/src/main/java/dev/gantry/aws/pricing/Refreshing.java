package dev.gantry.aws.pricing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A value fetched from AWS and kept for {@code ttl}. When a refresh fails the last good value stays in use (prices
 * and offerings change slowly; Karpenter does the same), and the next attempt waits {@code retryAfter} so a failing
 * API is not called on every launch. Empty only while no fetch has ever succeeded: the caller then falls back to
 * the built-in catalogue. Thread-safe; concurrent callers of an expired value may both fetch, which is harmless.
 */
final class Refreshing<V> {
    private static final Logger LOG = Logger.getLogger(Refreshing.class.getName());

    private final String what;
    private final Supplier<V> fetch;
    private final Clock clock;
    private final Duration ttl;
    private final Duration retryAfter;
    private volatile State<V> state = new State<>(null, Instant.MIN, 0);

    /** @param generation counts successful fetches, so derived caches know when to rebuild */
    private record State<V>(V value, Instant nextFetch, long generation) {}

    Refreshing(String what, Supplier<V> fetch, Clock clock, Duration ttl, Duration retryAfter) {
        this.what = what;
        this.fetch = fetch;
        this.clock = clock;
        this.ttl = ttl;
        this.retryAfter = retryAfter;
    }

    Optional<V> get() {
        State<V> s = state;
        Instant now = clock.instant();
        if (now.isBefore(s.nextFetch())) {
            return Optional.ofNullable(s.value());
        }
        try {
            V fresh = fetch.get();
            state = new State<>(fresh, now.plus(ttl), s.generation() + 1);
            return Optional.of(fresh);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, what + " could not be refreshed; using "
                    + (s.value() == null ? "the built-in catalogue" : "the last values") + ": " + e);
            state = new State<>(s.value(), now.plus(retryAfter), s.generation());
            return Optional.ofNullable(s.value());
        }
    }

    long generation() {
        return state.generation();
    }
}
