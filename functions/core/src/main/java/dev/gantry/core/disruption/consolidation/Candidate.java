package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import java.util.List;

/**
 * A node consolidation may disrupt, with what Karpenter precomputes for it.
 *
 * @param type         its instance type; null only for an empty node the catalogue cannot price (emptiness needs no price)
 * @param price        the node's offering price (its type in its zone and capacity type; 0 when it cannot be priced)
 * @param disruption   Karpenter's RescheduleDisruptionCost: 1 + the positive eviction costs of {@code reschedulable}
 * @param index        its position among the simulation's nodes
 */
record Candidate(ClusterNode cluster, NodePool pool, InstanceType type, String capacityType, double price,
                 List<Pod> reschedulable, double disruption, int index) {

    String name() {
        return cluster.name();
    }

    /** Karpenter's ordering key: price per unit of disruption, higher first. */
    double savingsRatio() {
        return price / disruption;
    }

    boolean isEmpty() {
        return empty(disruption, reschedulable);
    }

    /**
     * Empty: no pod with a positive eviction cost, and no reserved (headroom) pod. A buffer's virtual pod has the lowest
     * priority, so its eviction cost is not positive, yet removing its node must re-place it like any pod: a node that
     * holds one is weighed as underutilized, never deleted as empty.
     */
    static boolean empty(double disruption, List<Pod> reschedulable) {
        return disruption <= EvictionCost.PER_NODE && reschedulable.stream().noneMatch(Reserved::marked);
    }

    boolean spot() {
        return "spot".equals(capacityType);
    }
}
