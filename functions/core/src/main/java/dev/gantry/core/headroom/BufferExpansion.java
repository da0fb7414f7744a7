package dev.gantry.core.headroom;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one buffer asks for at one instant: its virtual pods and why that many. The provisioner schedules the pods after
 * the real pending ones; status and the simulator print the rest.
 *
 * @param chunk       the requests of one chunk (one virtual pod); zero when the target is unresolved
 * @param wanted      chunks before the limits were applied
 * @param pods        the virtual pods, {@code chunks} of them; empty unless {@link State#ACTIVE}
 * @param nextOpening when an inactive scheduled buffer opens next (lead included), or null
 * @param reason      one line: how the count was reached, or why there is nothing
 */
public record BufferExpansion(CapacityBuffer buffer, State state, Resources chunk, int wanted, List<Pod> pods,
                              Instant nextOpening, String reason) {
    public BufferExpansion {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(state, "state");
        chunk = chunk == null ? Resources.ZERO : chunk;
        pods = List.copyOf(pods == null ? List.of() : pods);
    }

    public enum State {
        /** Inside its window (or unscheduled): the pods are wanted now. */
        ACTIVE,
        /** Outside its schedule's window. */
        INACTIVE,
        /** The PodTemplate or workload it refers to was not found. */
        UNRESOLVED,
        /** A provisioning strategy other than active capacity: another controller's business. */
        IGNORED
    }

    /** How many virtual pods. */
    public int chunks() {
        return pods.size();
    }

    /** The requests of all the virtual pods together. */
    public Resources total() {
        return chunk.times(pods.size());
    }
}
