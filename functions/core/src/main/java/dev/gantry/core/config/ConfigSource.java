package dev.gantry.core.config;

import java.time.Instant;

/**
 * Where every handler run gets its configuration: the NodePools, NodeClasses and CapacityBuffers the cluster holds
 * now. The cluster is the only source of truth; nothing is fixed when a function starts.
 *
 * <p>Contract:
 * <ul>
 *   <li>Each call reflects the cluster as listed by that call, or, when the list fails, the last good reading if it is
 *       at most the implementation's staleness bound old (a warning is logged).</li>
 *   <li>While no object was added, changed or deleted (same kinds, names and resourceVersions), the same
 *       {@link ClusterConfig} instance is returned, and while no NodePool or EC2NodeClass changed, the same
 *       {@link ClusterConfig#config()} instance: callers may compare by identity to keep what they built from it.</li>
 *   <li>Invalid objects are left out, each with its messages in {@link ClusterConfig#invalid()}; an invalid object never
 *       keeps the valid ones from being used. A NodePool whose NodeClass is missing or invalid is left out too.</li>
 *   <li>An empty configuration is returned only when the cluster really holds no valid NodePool, never because a read
 *       failed.</li>
 * </ul>
 *
 * @throws ConfigUnavailable when the cluster cannot be read and there is no reading recent enough to use
 */
public interface ConfigSource {
    ClusterConfig current(Instant now);
}
