package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * How much of its timeout an invocation may use: {@link #USABLE_SHARE} of the time it had left when it began, so every
 * invocation ends with at least 30% of its timeout to spare. The rest is margin for what a handler
 * cannot bound: a slow call, the SDK's retries, a GC pause, a cold start. A unit of work (a launch, a drain's slice) is
 * started only if it ends inside that share even when it takes the longest it is expected to: {@link #startBy}.
 * Without a context (a direct call, a test) there is no limit.
 */
final class InvocationBudget {
    /** The share of the invocation's time work may use. */
    static final double USABLE_SHARE = 0.7;

    private final Clock clock;
    private final Instant finishBy;

    private InvocationBudget(Clock clock, Instant finishBy) {
        this.clock = clock;
        this.finishBy = finishBy;
    }

    /** The budget of the invocation {@code context} belongs to, as of now (call it first thing in the handler). */
    static InvocationBudget of(Context context, Clock clock) {
        if (context == null) {
            return new InvocationBudget(clock, Instant.MAX);
        }
        long usable = (long) (Math.max(0, context.getRemainingTimeInMillis()) * USABLE_SHARE);
        return new InvocationBudget(clock, clock.instant().plusMillis(usable));
    }

    /** When the work should be over; {@link Instant#MAX} without a limit. */
    Instant finishBy() {
        return finishBy;
    }

    /** The last instant at which work taking up to {@code slowest} may start; {@link Instant#MAX} without a limit. */
    Instant startBy(Duration slowest) {
        return finishBy.equals(Instant.MAX) ? Instant.MAX : finishBy.minus(slowest);
    }

    /** Whether work taking up to {@code slowest} started now could end past {@link #finishBy}. */
    boolean tooLateFor(Duration slowest) {
        return !clock.instant().isBefore(startBy(slowest));
    }
}
