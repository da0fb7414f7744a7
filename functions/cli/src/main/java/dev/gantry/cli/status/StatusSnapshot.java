package dev.gantry.cli.status;

import dev.gantry.core.disruption.execution.BackOffs;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything {@code gantry status} reads, already read: the store's items, the cluster's objects, Gantry's Events and
 * the configuration. A deployed stack or the simulator can fill it; {@link StatusReport#of} turns it into the view.
 *
 * @param pools       NodePools of the configuration (empty when none was given: pools are then named by their nodes)
 * @param claims      the store's NodeClaims that have not expired
 * @param usage       the store's latest usage snapshot per pool
 * @param events      Events Gantry recorded (source component {@code gantry}), any order
 * @param planReasons why a fresh read-only plan would not place a pod, or what it would launch, by pod key
 * @param targets     PodTemplates and workloads buffers refer to (the bundle's, with the cluster's laid over)
 * @param bootLead    how early a scheduled buffer opens (the time a node takes to be ready)
 * @param backoffs    the back-offs the pools are under now (drift, rebalance, consolidation launches), from the table
 */
public record StatusSnapshot(Instant now, List<NodePool> pools, List<NodeClaim> claims, List<PoolUsage> usage,
                             List<Node> nodes, List<Pod> pods, List<GantryEvent> events, Map<String, String> planReasons,
                             List<CapacityBuffer> buffers, BufferTargets targets, DemandHistory history, Duration bootLead,
                             List<BackOffs.Held> backoffs) {
    public StatusSnapshot {
        backoffs = List.copyOf(backoffs == null ? List.of() : backoffs);
        Objects.requireNonNull(now, "now");
        pools = List.copyOf(pools);
        claims = List.copyOf(claims);
        usage = List.copyOf(usage);
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        events = List.copyOf(events);
        planReasons = Map.copyOf(planReasons);
        buffers = List.copyOf(buffers);
        targets = targets == null ? BufferTargets.NONE : targets;
        history = history == null ? DemandHistory.EMPTY : history;
        bootLead = bootLead == null ? Duration.ZERO : bootLead;
    }

    /**
     * One Kubernetes Event Gantry recorded.
     *
     * @param kind      the involved object's kind ({@code Pod}, {@code Node}, …)
     * @param namespace the involved object's namespace, or null for cluster-scoped objects
     */
    public record GantryEvent(Instant at, String kind, String namespace, String name, String type, String reason,
                              String message) {
        public GantryEvent {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }

        /** {@code namespace/name}, or the name alone for a cluster-scoped object. */
        public String key() {
            return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
        }
    }
}
