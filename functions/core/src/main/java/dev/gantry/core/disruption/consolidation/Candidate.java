package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
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
        return disruption <= EvictionCost.PER_NODE;
    }

    boolean spot() {
        return "spot".equals(capacityType);
    }
}
