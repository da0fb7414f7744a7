package dev.gantry.simulator.report;

import dev.gantry.simulator.observe.EventLog;
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
import java.util.Objects;

/**
 * What {@code gantry status} reads from a deployed Gantry, read from a simulation at one virtual instant: the store's
 * claims and usage, the cluster's nodes and pods, the Events Gantry recorded, and the buffers with what they refer to.
 * The CLI turns it into its status view, so a simulation prints the same view as a real stack.
 */
public record StatusCapture(Instant now, List<NodePool> pools, List<NodeClaim> claims, List<PoolUsage> usage,
                            List<Node> nodes, List<Pod> pods, List<EventLog.Event> events, List<CapacityBuffer> buffers,
                            BufferTargets targets, DemandHistory history, Duration bootLead,
                            List<dev.gantry.core.disruption.execution.BackOffs.Held> backoffs) {
    public StatusCapture {
        backoffs = List.copyOf(backoffs);
        Objects.requireNonNull(now, "now");
        pools = List.copyOf(pools);
        claims = List.copyOf(claims);
        usage = List.copyOf(usage);
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        events = List.copyOf(events);
        buffers = List.copyOf(buffers);
    }
}
