package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The room a plan starts from: each existing node (but those being deleted) and each claim in flight as a
 * {@link NodeSlot}, with what its pods leave free and the taints that keep pods off it for planning purposes.
 */
final class NodeSlots {
    private NodeSlots() {
    }

    /** The input's nodes, then its claims in flight, as slots; {@code pools} are the plan's (for a node still starting). */
    static List<NodeSlot> of(SchedulingInput input, List<PoolContext> pools) {
        List<NodeSlot> out = new ArrayList<>();
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            if (n.node().deleting()) {
                continue;
            }
            Resources used = Resources.ZERO;
            for (Pod p : n.pods()) {
                used = used.plus(p.requests());
            }
            Map<String, String> labels = new HashMap<>(n.node().labels());
            labels.putIfAbsent(WellKnownLabels.HOSTNAME, n.node().name());
            out.add(NodeSlot.node(n.node().name(), labels, schedulingTaints(n.node(), pools),
                    allocatable(n.node(), pools).minus(used), n.pods()));
        }
        for (SchedulingInput.InFlightClaim f : input.inFlight()) {
            Resources used = Resources.ZERO;
            for (Pod p : f.pods()) {
                used = used.plus(p.requests());
            }
            out.add(NodeSlot.inFlight(f.name(), f.labels(), f.taints(), f.allocatable().minus(used), f.pods()));
        }
        return out;
    }

    /** Taints a kubelet or cloud controller sets while a node starts; they go away on their own. */
    static final Set<String> EPHEMERAL_TAINTS = Set.of("node.kubernetes.io/not-ready",
            "node.kubernetes.io/unreachable", "node.kubernetes.io/network-unavailable",
            "node.cloudprovider.kubernetes.io/uninitialized");

    /**
     * The taints that keep pods off a node for planning purposes. As Karpenter does, a managed node that is not yet
     * initialized is still starting: its ephemeral taints and its NodePool's startup taints are ignored, Ready or not,
     * or every node in the middle of starting would look useless and more capacity would be launched for the same pods.
     * An initialized node that went NotReady is broken, not starting, and keeps its taints.
     */
    private static List<Taint> schedulingTaints(Node node, List<PoolContext> pools) {
        List<Taint> taints = node.effectiveTaints();
        if (node.initialized()) {
            return taints;
        }
        List<Taint> startup = poolOf(node, pools).map(p -> p.pool.template().startupTaints()).orElse(List.of());
        return taints.stream().filter(t -> !EPHEMERAL_TAINTS.contains(t.key())
                && startup.stream().noneMatch(st -> st.key().equals(t.key()) && st.effect() == t.effect())).toList();
    }

    private static Optional<PoolContext> poolOf(Node node, List<PoolContext> pools) {
        String poolName = node.labels().get(WellKnownLabels.NODEPOOL);
        return pools.stream().filter(p -> p.name().equals(poolName)).findFirst();
    }

    /**
     * What a node offers. A node still starting may not have reported its resources yet: as Karpenter fills them from
     * the NodeClaim, each resource the node reports as zero is taken from its instance type in the pool's catalogue.
     */
    private static Resources allocatable(Node node, List<PoolContext> pools) {
        Resources reported = node.allocatable();
        if (node.initialized()) {
            return reported;
        }
        String typeName = node.labels().get(WellKnownLabels.INSTANCE_TYPE);
        InstanceType type = poolOf(node, pools).flatMap(p -> p.types.stream().filter(t -> t.name().equals(typeName)).findFirst()).orElse(null);
        if (type == null) {
            return reported;
        }
        Resources filled = reported;
        for (var e : type.allocatable().asMap().entrySet()) {
            if (reported.get(e.getKey()) == 0) {
                filled = filled.with(e.getKey(), e.getValue());
            }
        }
        return filled;
    }
}
