package dev.gantry.core.sweep;

import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The sweep's backstop: a provisioning hint when pods wait and no hint went out for {@link #AFTER}, so a lost or
 * throttled hint costs pods a minute at most. The last hint's time is the store's {@link ProvisioningHints#LAST_HINT}
 * marker, written by whoever sends one (the webhook's batch, a provisioning run's retry, this).
 */
final class Backstop {
    static final Duration AFTER = Duration.ofMinutes(1);
    /**
     * How much earlier than {@link #AFTER} a sweep may find the last hint and still send the backstop. The sweep runs
     * once a minute, but a run does not start at the same millisecond each time: measured against the previous sweep's
     * own hint, a minute can read 59.9 s, and a strict minute then sent the backstop every other minute (pods waited
     * 152 s, one past their allowance, after a whole-market ICE in the simulator).
     */
    static final Duration SCHEDULE_SLACK = Duration.ofSeconds(10);

    private Backstop() {
    }

    /**
     * Sends the hint when pods wait and no hint came for {@link #AFTER} (less {@link #SCHEDULE_SLACK}): for a real
     * pending pod, or a buffer's virtual pod the existing nodes have no room for (a window opening, or a real pod that
     * took the buffer's room). Whether it was sent.
     */
    static boolean send(NodeClaimStore store, ProvisioningHints hints, List<Pod> pods, List<Pod> unplacedVirtual,
                        Instant now) {
        Optional<Pod> pending = pods.stream().filter(Pod::isProvisionable).findFirst()
                .or(() -> unplacedVirtual.stream().findFirst());
        if (pending.isEmpty()) {
            return false;
        }
        Optional<Instant> last = store.marker(ProvisioningHints.LAST_HINT);
        if (last.isPresent() && now.isBefore(last.get().plus(AFTER).minus(SCHEDULE_SLACK))) {
            return false;
        }
        hints.send(ProvisioningHints.BACKSTOP, pending.get(), null, now);
        store.setMarker(ProvisioningHints.LAST_HINT, now);
        return true;
    }
}
