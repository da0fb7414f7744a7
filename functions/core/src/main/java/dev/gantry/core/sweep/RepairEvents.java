package dev.gantry.core.sweep;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.sweep.HousekeepingCommand.RepairBlocked;

/**
 * Karpenter's {@code NodeRepairBlocked} Warning (core {@code pkg/controllers/node/health/events.go}) while the
 * safeguard holds a repair back. Karpenter builds three events, deduplicated by the Node's, NodeClaim's and NodePool's
 * UIDs, all of which land on the Node; Gantry puts them on the three objects, so {@code kubectl describe nodepool}
 * shows it too (Gantry's own). Written every sweep the repair waits; the event recorder folds the repeats into one
 * Event's count.
 */
final class RepairEvents {
    static final String BLOCKED = "NodeRepairBlocked";

    private RepairEvents() {
    }

    static void blocked(ClusterWriter writer, RepairBlocked b) {
        writer.event("Node", null, b.node(), "Warning", BLOCKED, b.message());
        writer.event("NodeClaim", null, b.claim(), "Warning", BLOCKED, b.message());
        if (b.pool() != null) {
            writer.event("NodePool", null, b.pool(), "Warning", BLOCKED, b.message());
        }
    }
}
