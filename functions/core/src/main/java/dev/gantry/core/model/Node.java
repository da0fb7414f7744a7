package dev.gantry.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A node as the cluster reports it.
 *
 * @param providerId    {@code aws:///us-east-1a/i-0123…}, or null before the cloud provider sets it
 * @param unschedulable cordoned ({@code spec.unschedulable})
 * @param deleting      has a deletion timestamp, or carries Karpenter's/Gantry's disrupted taint
 * @param finalizers    {@code metadata.finalizers}; Gantry adds {@link #FINALIZER} when a node registers
 * @param deletionTimestamp when {@code kubectl delete node} (or anyone) asked for deletion, or null
 */
public record Node(String name, String providerId, Map<String, String> labels, Map<String, String> annotations,
                   List<Taint> taints, Resources allocatable, boolean ready, boolean unschedulable, boolean deleting,
                   Instant createdAt, List<String> finalizers, Instant deletionTimestamp) {
    /** Gantry's finalizer: a deleted node stays until Gantry has drained it and terminated its instance. */
    public static final String FINALIZER = "gantry.dev/termination";

    public Node {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels == null ? Map.of() : labels);
        annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
        taints = List.copyOf(taints == null ? List.of() : taints);
        allocatable = allocatable == null ? Resources.ZERO : allocatable;
        finalizers = List.copyOf(finalizers == null ? List.of() : finalizers);
        deleting = deleting || deletionTimestamp != null;
    }

    /** A node without finalizers or a deletion timestamp, as a manifest or a test describes one. */
    public Node(String name, String providerId, Map<String, String> labels, Map<String, String> annotations,
                List<Taint> taints, Resources allocatable, boolean ready, boolean unschedulable, boolean deleting,
                Instant createdAt) {
        this(name, providerId, labels, annotations, taints, allocatable, ready, unschedulable, deleting, createdAt, List.of(), null);
    }

    /** The EC2 instance id from the provider id, or null. */
    public String instanceId() {
        if (providerId == null) {
            return null;
        }
        int slash = providerId.lastIndexOf('/');
        String id = providerId.substring(slash + 1);
        return id.startsWith("i-") ? id : null;
    }

    /** The taints a new pod must tolerate, cordoning included. */
    public List<Taint> effectiveTaints() {
        if (!unschedulable) {
            return taints;
        }
        List<Taint> t = new java.util.ArrayList<>(taints);
        t.add(Taint.UNSCHEDULABLE);
        return t;
    }
}
