package dev.gantry.core.sweep;

/** What {@link Housekeeping} asks the sweep to do. */
public sealed interface HousekeepingCommand {

    /** An instance tagged for this cluster that no live claim owns. */
    record TerminateLeaked(String instanceId) implements HousekeepingCommand {
    }

    /**
     * Finish a claim without a drain: terminate its instance (if {@code instanceId} is non-null), delete its Node (if
     * {@code node} is non-null) and mark it Terminated with {@code reason}.
     */
    record FinishClaim(String claim, String reason, String instanceId, String node) implements HousekeepingCommand {
    }

    /** A Node someone deleted that still carries Gantry's finalizer: run the termination flow for it. */
    record StartDeletedNode(String node) implements HousekeepingCommand {
    }
}
