package dev.gantry.core.termination;

import java.time.Instant;
import java.util.Objects;

/**
 * How a termination flow is to start ({@link TerminationService#start}). Built from {@link #because} and refined:
 * {@code TerminationStart.because("expiry").by(deadline).with(FirstSlice.QUEUED)}.
 *
 * @param reason      why the claim is being deleted (interruption, emptiness, expiry, underutilized…)
 * @param deadline    a hard end for the grace period, or null
 * @param replacement whether the drain waits for the capacity its node's pods move to
 * @param firstSlice  where the first slice runs
 */
public record TerminationStart(String reason, Instant deadline, Replacement replacement, FirstSlice firstSlice) {
    /** Whether the drain waits until the capacity for its node's pods is planned and initialized. */
    public enum Replacement {
        /** Evict at once, as an unreplaced drain does. */
        NOT_AWAITED,
        /** Evict only once a provisioning run has planned the pods and the capacity it launched for them is up. */
        AWAITED;

        public static Replacement awaitedIf(boolean wait) {
            return wait ? AWAITED : NOT_AWAITED;
        }
    }

    /** Where the flow's first slice runs. */
    public enum FirstSlice {
        /** In this call, so an interrupted node starts draining within the same invocation. */
        INLINE,
        /** Queued at once for the termination handler: a caller short of time marks the claim and moves on. */
        QUEUED
    }

    public TerminationStart {
        Objects.requireNonNull(replacement, "replacement");
        Objects.requireNonNull(firstSlice, "firstSlice");
    }

    /** A start for {@code reason}: no deadline, no replacement awaited, the first slice inline. */
    public static TerminationStart because(String reason) {
        return new TerminationStart(reason, null, Replacement.NOT_AWAITED, FirstSlice.INLINE);
    }

    /** With a hard end for the grace period (null for none). */
    public TerminationStart by(Instant deadline) {
        return new TerminationStart(reason, deadline, replacement, firstSlice);
    }

    public TerminationStart with(Replacement r) {
        return new TerminationStart(reason, deadline, r, firstSlice);
    }

    public TerminationStart with(FirstSlice f) {
        return new TerminationStart(reason, deadline, replacement, f);
    }
}
