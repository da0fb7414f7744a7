package dev.gantry.core.sweep;

import java.time.Instant;

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

    /**
     * A claim left Launching (the provisioner crashed between CreateFleet and recording the instance) whose instance
     * exists, found by the claim's tag: record it Launched rather than time the claim out and collect its instance.
     */
    record AdoptInstance(String claim, String instanceId, String instanceType, String zone, String capacityType)
            implements HousekeepingCommand {
    }

    /**
     * An instance no live claim owns that backs a registered Node: its pods run there, so it is drained through the
     * termination flow (under a claim recorded for it), never terminated outright.
     */
    record DrainOrphan(String instanceId, String node) implements HousekeepingCommand {
    }

    /** Record when the claim's node was first seen not Ready, or ({@code since} null) that it is Ready again. */
    record MarkNotReady(String claim, Instant since) implements HousekeepingCommand {
    }

    /**
     * Node repair: the node is beyond saving (NotReady past the toleration, or its Node object gone while the instance
     * runs). Terminate it through the termination flow with the deadline now: remaining pods are deleted, not waited for.
     */
    record Repair(String claim, String reason) implements HousekeepingCommand {
    }

    /**
     * A repair the safeguard holds back: too much of the pool ({@code pool}, or the cluster when null) is unhealthy.
     * Recorded as a {@code NodeRepairBlocked} Event with {@code message}; the next sweep decides again.
     */
    record RepairBlocked(String claim, String node, String pool, String message) implements HousekeepingCommand {
    }

    /** A Node someone deleted that still carries Gantry's finalizer: run the termination flow for it. */
    record StartDeletedNode(String node) implements HousekeepingCommand {
    }
}
