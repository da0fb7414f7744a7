package dev.gantry.simulator.runtime;

import java.util.SplittableRandom;

/** Decides, per port call, whether the invocation making it crashes, hangs or freezes there (the fault plan's hook). */
public interface CallFaults {
    CallFaults NONE = (inv, kind) -> Decision.NONE;

    /**
     * What a call attempt should suffer, decided before it is made: {@code CRASH} the invocation dies after the call's
     * effect, before its answer; {@code HANG} this attempt gets no answer and the client gives up on it at its attempt
     * timeout, then retries; {@code FREEZE} the invocation stops where it stands until its deadline kills it.
     */
    enum Decision { NONE, CRASH, HANG, FREEZE }

    Decision decide(Invocation invocation, CallKind kind);

    /** A seeded stream for the runtime's own choices (whether a hung attempt reached the service, backoffs). */
    default SplittableRandom stream(String kind) {
        return new SplittableRandom(kind.hashCode());
    }
}
