package dev.gantry.core.termination;

import dev.gantry.core.model.Pod;
import java.time.Duration;

/** One step of a termination slice, executed in order by the {@link TerminationService}. */
public sealed interface TerminationCommand {

    /** Taint the node {@code karpenter.sh/disrupted:NoSchedule}, cordon it and exclude it from external load balancers. */
    record TaintNode(String node) implements TerminationCommand {
    }

    /** Evict through the Eviction API; a PDB refusal (429) is not an error, the next slice tries again. */
    record Evict(Pod pod) implements TerminationCommand {
    }

    /** Delete outright: the grace period has run out for this pod. */
    record DeletePod(Pod pod) implements TerminationCommand {
    }

    record TerminateInstance(String instanceId) implements TerminationCommand {
    }

    record DeleteNode(String node) implements TerminationCommand {
    }

    /** Remove {@code gantry.dev/termination} so the API server completes the node's deletion. */
    record RemoveFinalizer(String node) implements TerminationCommand {
    }

    /** The flow is finished: record the claim Terminated (kept for its ttl). */
    record MarkTerminated(String claim) implements TerminationCommand {
    }

    /** Nothing more now: come back after {@code delay} ({@code why} is logged). */
    record ContinueAfter(Duration delay, String why) implements TerminationCommand {
    }
}
