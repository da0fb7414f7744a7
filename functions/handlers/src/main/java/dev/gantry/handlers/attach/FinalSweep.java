package dev.gantry.handlers.attach;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Runs the final sweep, retrying while Lambda throttles it. The sweep has reserved concurrency 1, so a scheduled run
 * still in progress makes the synchronous invoke fail with 429 until it ends (at most the sweep's timeout); giving up
 * at once would fail the stack delete for nothing. Other failures are not retried: a sweep that ran and failed must
 * fail the delete, because silently leaving instances running would cost the user money.
 */
final class FinalSweep {
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    /** One synchronous invoke of the sweep. */
    @FunctionalInterface
    interface Invoke {
        /** @throws Throttled when Lambda refused to start it (429); anything else is a failed sweep */
        void run();
    }

    /** Lambda answered 429: no free concurrency for the sweep right now. */
    static final class Throttled extends RuntimeException {
        Throttled(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Waits; the real one sleeps, tests advance a clock. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final Clock clock;
    private final Sleeper sleeper;

    FinalSweep(Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * Invokes until it runs, backing off 1, 2, 4, 8, then 10 s between throttled attempts.
     *
     * @param lastStart no attempt starts after this instant (the caller leaves room for one whole sweep after it)
     * @return how many attempts were made
     * @throws IllegalStateException when still throttled at {@code lastStart}
     */
    int run(Invoke invoke, Instant lastStart) {
        Duration backoff = FIRST_BACKOFF;
        for (int attempt = 1; ; attempt++) {
            try {
                invoke.run();
                return attempt;
            } catch (Throttled t) {
                Instant next = clock.instant().plus(backoff);
                if (next.isAfter(lastStart)) {
                    throw new IllegalStateException("the final sweep was still throttled after " + attempt
                            + " attempts (is a sweep stuck?); retry the stack delete", t);
                }
                try {
                    sleeper.sleep(backoff);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting to retry the final sweep", e);
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }
}
