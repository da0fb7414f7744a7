package dev.gantry.core.provisioning;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.scheduling.SchedulingInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One read of the cluster for a provisioning run: read once, then planned against as often as re-planning needs.
 *
 * @param pods every pod (pending and bound)
 * @param pdbs the PodDisruptionBudgets, read only when a node is leaving ({@link LeavingNodes#visible}): they decide
 *             which of its pods will move; empty otherwise
 */
public record ClusterView(List<Pod> pods, List<Node> nodes, List<DaemonSet> daemonSets,
                          Map<String, Map<String, String>> namespaceLabels, List<PodDisruptionBudget> pdbs) {
    public ClusterView {
        pods = List.copyOf(pods);
        nodes = List.copyOf(nodes);
        daemonSets = List.copyOf(daemonSets);
        namespaceLabels = Map.copyOf(namespaceLabels);
        pdbs = List.copyOf(pdbs);
    }

    /** A view without PodDisruptionBudgets. */
    public ClusterView(List<Pod> pods, List<Node> nodes, List<DaemonSet> daemonSets,
                       Map<String, Map<String, String>> namespaceLabels) {
        this(pods, nodes, daemonSets, namespaceLabels, List.of());
    }

    /**
     * Reads pods, nodes, DaemonSets and namespace labels: four list calls; and the PodDisruptionBudgets, a fifth, only
     * when a node is being deleted or carries the disrupted taint (its pods are then planned with the pending ones).
     */
    public static ClusterView read(ClusterReader reader) {
        List<Pod> pods = reader.pods();
        List<Node> nodes = reader.nodes();
        List<DaemonSet> daemonSets = reader.daemonSets();
        Map<String, Map<String, String>> namespaceLabels = reader.namespaceLabels();
        List<PodDisruptionBudget> pdbs = nodes.stream().anyMatch(LeavingNodes::visible) ? reader.podDisruptionBudgets() : List.of();
        return new ClusterView(pods, nodes, daemonSets, namespaceLabels, pdbs);
    }

    /** Pods kube-scheduler gave up on ({@link Pod#isProvisionable()}), in API order. */
    public List<Pod> pending() {
        return pods.stream().filter(Pod::isProvisionable).toList();
    }

    /**
     * Nodes that can take pods, each with the non-terminal pods bound to it: every node but those named in
     * {@code leaving} ({@link LeavingNodes#of}), whose pods are about to need a home, not offer one.
     */
    public List<SchedulingInput.ExistingNode> existingNodes(java.util.Set<String> leaving) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : pods) {
            if (p.isBound() && !p.status().isTerminal()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        List<SchedulingInput.ExistingNode> out = new ArrayList<>();
        for (Node n : nodes) {
            if (!leaving.contains(n.name())) {
                out.add(new SchedulingInput.ExistingNode(n, byNode.getOrDefault(n.name(), List.of())));
            }
        }
        return out;
    }

    /**
     * The claims in flight: launching or launched, and their node not in this view yet (no node name recorded, and no
     * node here is theirs by {@link ClaimsByNode}'s rule). A claim whose node is here is that node, never both. The
     * provisioner plans onto them and counts them against their pool's limits (cpu, memory, nodes and the dollar
     * limit); consolidation counts them against the dollar limit.
     */
    public List<NodeClaim> inFlight(List<NodeClaim> claims) {
        return new ClaimsByNode(claims).inFlight(nodes);
    }
}
