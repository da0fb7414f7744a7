package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Karpenter's {@code lastPodEventTime}: a claim whose node's pods changed since the last sweep records now, so a node
 * whose pods just moved is not consolidated at once.
 */
final class PodEventRecorder {
    /**
     * Pod events written per sweep at most (one conditional write each): in a busy cluster the rest wait for a later
     * sweep, and meanwhile this sweep's decision counts them from now, so no node is consolidated early.
     */
    static final int MAX_WRITES = 200;

    private final NodeClaimStore store;

    PodEventRecorder(NodeClaimStore store) {
        this.store = store;
    }

    /** Records the changed claims (and marks them on {@code snap} for this decision); returns how many were written. */
    int record(ClusterSnapshot snap, Instant now) {
        Map<String, List<Pod>> byNode = snap.podsByNode();
        int changed = 0;
        for (Node n : snap.view().nodes()) {
            Optional<NodeClaim> c = snap.claimOf(n);
            if (c.isEmpty() || c.get().state().isDeleting()) {
                continue;
            }
            String fp = PodEvents.fingerprint(byNode.getOrDefault(n.name(), List.of()));
            if (PodEvents.changed(c.get().podSet(), fp)) {
                snap.podEventNow(c.get().name());
                if (changed >= MAX_WRITES) {
                    continue; // this decision still counts the event from now; a later sweep records it
                }
                try {
                    store.update(c.get().podEvent(now, fp));
                    changed++;
                } catch (NodeClaimStore.Conflict lost) {
                    // changed meanwhile: the next sweep looks again
                }
            }
        }
        return changed;
    }
}
