package dev.gantry.core.provisioning;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.SchedulingInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One read of the cluster for a provisioning run: read once, then planned against as often as re-planning needs.
 *
 * @param pods every pod (pending and bound)
 */
public record ClusterView(List<Pod> pods, List<Node> nodes, List<DaemonSet> daemonSets,
                          Map<String, Map<String, String>> namespaceLabels) {
    public ClusterView {
        pods = List.copyOf(pods);
        nodes = List.copyOf(nodes);
        daemonSets = List.copyOf(daemonSets);
        namespaceLabels = Map.copyOf(namespaceLabels);
    }

    /** Reads pods, nodes, DaemonSets and namespace labels: four list calls. */
    public static ClusterView read(ClusterReader reader) {
        return new ClusterView(reader.pods(), reader.nodes(), reader.daemonSets(), reader.namespaceLabels());
    }

    /** Pods kube-scheduler gave up on ({@link Pod#isProvisionable()}), in API order. */
    public List<Pod> pending() {
        return pods.stream().filter(Pod::isProvisionable).toList();
    }

    /**
     * Nodes that can take pods, each with the non-terminal pods bound to it. Nodes being deleted are left out: their
     * pods are about to need a home, not offer one.
     */
    public List<SchedulingInput.ExistingNode> existingNodes() {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : pods) {
            if (p.isBound() && !p.status().isTerminal()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        List<SchedulingInput.ExistingNode> out = new ArrayList<>();
        for (Node n : nodes) {
            if (!n.deleting()) {
                out.add(new SchedulingInput.ExistingNode(n, byNode.getOrDefault(n.name(), List.of())));
            }
        }
        return out;
    }
}
