package dev.gantry.simulator.runtime;

/** Decides, per port call, whether the invocation making it crashes or hangs there (the fault plan's hook). */
@FunctionalInterface
public interface CallFaults {
    CallFaults NONE = (inv, kind) -> Decision.NONE;

    /** What a call should suffer, decided before it is made. */
    enum Decision { NONE, CRASH, HANG }

    Decision decide(LambdaRuntime.Invocation invocation, CallKind kind);
}
