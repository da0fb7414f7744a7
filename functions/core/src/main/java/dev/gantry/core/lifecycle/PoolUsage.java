package dev.gantry.core.lifecycle;

import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.Objects;

/**
 * A NodePool's usage as one provisioning run saw it: the capacity of its nodes and in-flight claims, counted against
 * its limits, and how many there are. A snapshot for status and dashboards; planning always derives usage afresh.
 */
public record PoolUsage(String nodePool, Resources capacity, int nodes, Instant at) {
    public PoolUsage {
        Objects.requireNonNull(nodePool, "nodePool");
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(at, "at");
    }
}
