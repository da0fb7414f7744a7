package dev.gantry.core.cluster;

import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.QualifiedNames;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Kubernetes API object store in memory, behind the same ports as the real cluster: for the simulator and for tests
 * of the application services. Evictions honour PodDisruptionBudgets the way the Eviction API does (a budget with no
 * disruptions left answers {@link EvictionResult#BLOCKED_BY_PDB}); an evicted pod is removed. A node patch that
 * would leave an invalid label or annotation key, label value, or more than 256 KiB of annotations is refused whole
 * with 422, as the API server validates the object ({@link QualifiedNames}). Not modelled: resourceVersion conflicts
 * and the other fields' validation. Thread-safe.
 *
 * <p>Built for a simulated cluster of tens of thousands of pods: pods are indexed by node ({@link #podsOn} costs the
 * node's pods, as the API server's field selector does), the {@link #pods()} and {@link #nodes()} snapshots are kept
 * until the next change, and {@link #version()} tells readers that cache what they derived whether anything changed.
 */
public final class InMemoryCluster implements ClusterReader, ClusterWriter {
    private final Map<String, Pod> pods = new TreeMap<>();
    private final Map<String, Node> nodes = new TreeMap<>();
    private final List<DaemonSet> daemonSets = new ArrayList<>();
    private final Map<String, PodDisruptionBudget> pdbs = new TreeMap<>();
    private final Set<String> volumeAttachments = new HashSet<>();
    private final Map<String, Map<String, String>> namespaces = new TreeMap<>();
    private final List<String> events = new ArrayList<>();
    private final Map<String, Map<String, Pod>> podsByNode = new java.util.HashMap<>();
    private List<Pod> podsSnapshot;
    private List<Node> nodesSnapshot;
    private long version;

    /** Changes whenever a pod or a node is added, changed or removed (not on PDB, DaemonSet or event writes). */
    public synchronized long version() {
        return version;
    }

    private void podsChanged() {
        podsSnapshot = null;
        version++;
    }

    private void nodesChanged() {
        nodesSnapshot = null;
        version++;
    }

    private void index(Pod old, Pod now) {
        if (old != null && old.nodeName() != null) {
            Map<String, Pod> on = podsByNode.get(old.nodeName());
            if (on != null) {
                on.remove(old.key());
                if (on.isEmpty()) {
                    podsByNode.remove(old.nodeName());
                }
            }
        }
        if (now != null && now.nodeName() != null) {
            podsByNode.computeIfAbsent(now.nodeName(), k -> new TreeMap<>()).put(now.key(), now);
        }
    }

    private Pod dropPod(String key) {
        Pod old = pods.remove(key);
        if (old != null) {
            index(old, null);
            podsChanged();
        }
        return old;
    }

    // --- setup and inspection, for the simulator and tests ---

    public synchronized void putPod(Pod pod) {
        index(pods.put(pod.key(), pod), pod);
        podsChanged();
    }

    public synchronized void removePod(String key) {
        dropPod(key);
    }

    public synchronized void putNode(Node node) {
        nodes.put(node.name(), node);
        nodesChanged();
    }

    public synchronized void putDaemonSet(DaemonSet ds) {
        daemonSets.add(ds);
    }

    public synchronized void putPdb(PodDisruptionBudget pdb) {
        pdbs.put(pdb.namespace() + "/" + pdb.name(), pdb);
    }

    public synchronized void setVolumeAttachment(String node, boolean present) {
        if (present) {
            volumeAttachments.add(node);
        } else {
            volumeAttachments.remove(node);
        }
    }

    public synchronized Node node(String name) {
        return nodes.get(name);
    }

    public synchronized Pod pod(String key) {
        return pods.get(key);
    }

    /** Events recorded so far, as {@code kind/namespace/name type reason: message}. */
    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    // --- ClusterReader ---

    @Override
    public synchronized List<Pod> pods() {
        if (podsSnapshot == null) {
            podsSnapshot = List.copyOf(pods.values());
        }
        return podsSnapshot;
    }

    @Override
    public synchronized List<Pod> podsOn(String node) {
        Map<String, Pod> on = podsByNode.get(node);
        return on == null ? List.of() : List.copyOf(on.values());
    }

    @Override
    public synchronized List<Node> nodes() {
        if (nodesSnapshot == null) {
            nodesSnapshot = List.copyOf(nodes.values());
        }
        return nodesSnapshot;
    }

    @Override
    public synchronized java.util.Optional<Node> findNode(String name) {
        return java.util.Optional.ofNullable(nodes.get(name));
    }

    @Override
    public synchronized List<DaemonSet> daemonSets() {
        return List.copyOf(daemonSets);
    }

    @Override
    public synchronized List<PodDisruptionBudget> podDisruptionBudgets() {
        return List.copyOf(pdbs.values());
    }

    @Override
    public synchronized Set<String> nodesWithVolumeAttachments() {
        return Set.copyOf(volumeAttachments);
    }

    @Override
    public synchronized Map<String, Map<String, String>> namespaceLabels() {
        return Map.copyOf(namespaces);
    }

    // --- ClusterWriter ---

    @Override
    public synchronized void patchNode(String name, NodePatch patch) {
        Node n = nodes.get(name);
        if (n == null) {
            throw new ClusterException(404, "node " + name + " not found", null);
        }
        Map<String, String> labels = new LinkedHashMap<>(n.labels());
        labels.putAll(patch.setLabels());
        patch.removeLabels().forEach(labels::remove);
        List<Taint> taints = new ArrayList<>();
        for (Taint t : n.taints()) {
            if (!patch.removeTaintKeys().contains(t.key())) {
                taints.add(t);
            }
        }
        for (Taint t : patch.addTaints()) {
            if (taints.stream().noneMatch(x -> x.key().equals(t.key()) && x.effect() == t.effect())) {
                taints.add(t);
            }
        }
        List<String> finalizers = new ArrayList<>(n.finalizers());
        for (String f : patch.addFinalizers()) {
            if (!finalizers.contains(f)) {
                finalizers.add(f);
            }
        }
        finalizers.removeAll(patch.removeFinalizers());
        boolean unschedulable = patch.unschedulable() == null ? n.unschedulable() : patch.unschedulable();
        // As the Kubernetes adapter reads it: the disrupted taint makes a node deleting, and removing it undoes that.
        boolean disrupted = taints.stream().anyMatch(t -> t.key().equals(Taint.DISRUPTED.key()));
        boolean untainted = patch.removeTaintKeys().contains(Taint.DISRUPTED.key());
        Map<String, String> annotations = new LinkedHashMap<>(n.annotations());
        annotations.putAll(patch.setAnnotations());
        // The API server validates the object a patch makes and refuses the whole patch (422) if it is not valid.
        String invalid = QualifiedNames.labelsProblem(labels);
        invalid = invalid != null ? invalid : QualifiedNames.annotationsProblem(annotations);
        if (invalid != null) {
            throw new ClusterException(422, "Node \"" + name + "\" is invalid: " + invalid, null);
        }
        Node updated = new Node(n.name(), n.providerId(), labels, annotations, taints, n.allocatable(), n.ready(),
                unschedulable, disrupted || (n.deleting() && !untainted), n.createdAt(), finalizers, n.deletionTimestamp(),
                n.conditions());
        if (updated.deletionTimestamp() != null && finalizers.isEmpty()) {
            nodes.remove(name); // the last finalizer is gone: the API server completes the deletion
        } else {
            nodes.put(name, updated);
        }
        nodesChanged();
    }

    @Override
    public synchronized EvictionResult evict(Pod pod) {
        Pod current = pods.get(pod.key());
        if (current == null) {
            return EvictionResult.NOT_FOUND;
        }
        List<PodDisruptionBudget> covering = new ArrayList<>();
        for (PodDisruptionBudget b : pdbs.values()) {
            if (b.covers(current)) {
                if (b.disruptionsAllowed() <= 0) {
                    return EvictionResult.BLOCKED_BY_PDB;
                }
                covering.add(b);
            }
        }
        for (PodDisruptionBudget b : covering) {
            pdbs.put(b.namespace() + "/" + b.name(), new PodDisruptionBudget(b.namespace(), b.name(), b.selector(),
                    b.minAvailable(), b.maxUnavailable(), b.disruptionsAllowed() - 1));
        }
        dropPod(pod.key());
        return EvictionResult.EVICTED;
    }

    @Override
    public synchronized void deletePod(Pod pod) {
        dropPod(pod.key());
    }

    /**
     * Deletes a node. With finalizers it only gains a deletion timestamp (as {@code kubectl delete node} does) and goes
     * once the last finalizer is removed.
     */
    @Override
    public synchronized void deleteNode(String name) {
        Node n = nodes.get(name);
        if (n == null) {
            return;
        }
        if (n.finalizers().isEmpty()) {
            nodes.remove(name);
            nodesChanged();
            return;
        }
        if (n.deletionTimestamp() == null) {
            nodes.put(name, new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(),
                    n.ready(), n.unschedulable(), true, n.createdAt(), n.finalizers(), java.time.Instant.EPOCH, n.conditions()));
            nodesChanged();
        }
    }

    /** Marks a node deleted at {@code at} (a {@code kubectl delete node} on a virtual clock). */
    public synchronized void deleteNodeAt(String name, java.time.Instant at) {
        Node n = nodes.get(name);
        if (n == null) {
            return;
        }
        if (n.finalizers().isEmpty()) {
            nodes.remove(name);
            nodesChanged();
        } else if (n.deletionTimestamp() == null) {
            nodes.put(name, new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(),
                    n.ready(), n.unschedulable(), true, n.createdAt(), n.finalizers(), at, n.conditions()));
            nodesChanged();
        }
    }

    @Override
    public synchronized void event(String kind, String namespace, String name, String type, String reason, String message) {
        events.add(kind + "/" + (namespace == null ? "" : namespace + "/") + name + " " + type + " " + reason + ": " + message);
    }
}
