package dev.gantry.core.cluster;

import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;
import java.util.Map;

/**
 * Reads the truth from the Kubernetes API server. Every call is a fresh read (no watch cache): handlers are short-lived.
 * Failures are unchecked {@link ClusterException}s, retryable unless stated otherwise.
 */
public interface ClusterReader {
    /** Every pod in every namespace. Callers filter (e.g. {@link Pod#isProvisionable()}). */
    List<Pod> pods();

    /**
     * The pods bound to {@code node}, in every namespace. The API server selects them ({@code spec.nodeName} field
     * selector), so the read costs the same in a cluster of ten pods or a hundred thousand: flows that act on one node
     * (a drain, an interruption) use this, never {@link #pods()}. This default filters {@link #pods()}, for ports
     * that cannot select.
     */
    default List<Pod> podsOn(String node) {
        return pods().stream().filter(p -> node.equals(p.nodeName())).toList();
    }

    List<Node> nodes();

    /**
     * One node by name, or empty when there is none: a single GET, for flows that act on one node. This default
     * searches {@link #nodes()}, for ports that cannot get by name.
     */
    default java.util.Optional<Node> findNode(String name) {
        return nodes().stream().filter(n -> n.name().equals(name)).findFirst();
    }

    List<DaemonSet> daemonSets();

    List<PodDisruptionBudget> podDisruptionBudgets();

    /** Names of the nodes that still have VolumeAttachments. */
    java.util.Set<String> nodesWithVolumeAttachments();

    /** Labels of every namespace, for pod-affinity namespace selectors. */
    Map<String, Map<String, String>> namespaceLabels();
}
