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
 * the built-in catalogue.
 *
 * <p>Once a value exists, an expired one is served as it is while {@code refresher} fetches the next (stale while
 * revalidating): a provisioning run never waits for the Pricing API's pages. With an inline refresher
 * ({@code Runnable::run}) the refresh happens in the caller, before it gets the value. Thread-safe.
 */
final class Refreshing<V> {
    private static final Logger LOG = Logger.getLogger(Refreshing.class.getName());

    private final String what;
    private final Supplier<V> fetch;
    private final Clock clock;
    private final Duration ttl;
    private final Duration retryAfter;
    private final java.util.concurrent.Executor refresher;
    private final java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile State<V> state = new State<>(null, Instant.MIN, 0);

    /** @param generation counts successful fetches, so derived caches know when to rebuild */
    private record State<V>(V value, Instant nextFetch, long generation) {}

    Refreshing(String what, Supplier<V> fetch, Clock clock, Duration ttl, Duration retryAfter) {
        this(what, fetch, clock, ttl, retryAfter, Runnable::run);
    }

    Refreshing(String what, Supplier<V> fetch, Clock clock, Duration ttl, Duration retryAfter, java.util.concurrent.Executor refresher) {
        this.what = what;
        this.fetch = fetch;
        this.clock = clock;
        this.ttl = ttl;
        this.retryAfter = retryAfter;
        this.refresher = refresher;
    }

    Optional<V> get() {
        State<V> s = state;
        Instant now = clock.instant();
        if (now.isBefore(s.nextFetch())) {
            return Optional.ofNullable(s.value());
        }
        if (s.value() == null) {
            return fetch(s, now); // nothing to serve yet
        }
        refreshInBackground();
        return Optional.ofNullable(state.value());
    }

    /** Starts a refresh if the value has expired (for the sweep, which keeps caches fresh off the provisioner's path). */
    void refreshIfStale() {
        if (!clock.instant().isBefore(state.nextFetch())) {
            refreshInBackground();
        }
    }

    private void refreshInBackground() {
        if (refreshing.compareAndSet(false, true)) {
            refresher.execute(() -> {
                try {
                    State<V> current = state;
                    Instant at = clock.instant();
                    if (!at.isBefore(current.nextFetch())) {
                        fetch(current, at);
                    }
                } finally {
                    refreshing.set(false);
                }
            });
        }
    }

    private Optional<V> fetch(State<V> s, Instant now) {
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
