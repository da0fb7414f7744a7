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
 * @param conditions    {@code status.conditions} with their transition times (node repair reads them); empty when the
 *                      source did not carry them (then {@code ready} alone says how the node is)
 */
public record Node(String name, String providerId, Map<String, String> labels, Map<String, String> annotations,
                   List<Taint> taints, Resources allocatable, boolean ready, boolean unschedulable, boolean deleting,
                   Instant createdAt, List<String> finalizers, Instant deletionTimestamp, List<NodeCondition> conditions) {
    /** Gantry's finalizer: a deleted node stays until Gantry has drained it and terminated its instance. */
    public static final String FINALIZER = "gantry.dev/termination";
    /** Karpenter's node finalizer: an adopted node carries it until adoption swaps it for {@link #FINALIZER}. */
    public static final String KARPENTER_FINALIZER = "karpenter.sh/termination";

    public Node {
        Objects.requireNonNull(name, "name");
        labels = Map.copyOf(labels == null ? Map.of() : labels);
        annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
        taints = List.copyOf(taints == null ? List.of() : taints);
        allocatable = allocatable == null ? Resources.ZERO : allocatable;
        finalizers = List.copyOf(finalizers == null ? List.of() : finalizers);
        deleting = deleting || deletionTimestamp != null;
        conditions = List.copyOf(conditions == null ? List.of() : conditions);
    }

    /** A node without conditions beyond {@code ready}. */
    public Node(String name, String providerId, Map<String, String> labels, Map<String, String> annotations,
                List<Taint> taints, Resources allocatable, boolean ready, boolean unschedulable, boolean deleting,
                Instant createdAt, List<String> finalizers, Instant deletionTimestamp) {
        this(name, providerId, labels, annotations, taints, allocatable, ready, unschedulable, deleting, createdAt,
                finalizers, deletionTimestamp, List.of());
    }

    /** A node without finalizers or a deletion timestamp, as a manifest or a test describes one. */
    public Node(String name, String providerId, Map<String, String> labels, Map<String, String> annotations,
                List<Taint> taints, Resources allocatable, boolean ready, boolean unschedulable, boolean deleting,
                Instant createdAt) {
        this(name, providerId, labels, annotations, taints, allocatable, ready, unschedulable, deleting, createdAt, List.of(), null);
    }

    /** Set by Karpenter (and Gantry) once the node registered; the label name is Karpenter's. */
    public static final String REGISTERED_LABEL = "karpenter.sh/registered";
    /** Set once the node is initialized: Ready, startup taints gone, resources reported. */
    public static final String INITIALIZED_LABEL = "karpenter.sh/initialized";

    /** Launched for a NodePool (it carries the {@code karpenter.sh/nodepool} label). */
    public boolean managed() {
        return labels.containsKey("karpenter.sh/nodepool");
    }

    /**
     * Registered, by Karpenter's rule: a managed node once it carries {@code karpenter.sh/registered=true}; a node no
     * pool launched always counts as registered.
     */
    public boolean registered() {
        return !managed() || "true".equals(labels.get(REGISTERED_LABEL));
    }

    /**
     * Initialized, by Karpenter's rule: a managed node once it carries {@code karpenter.sh/initialized=true}; a node no
     * pool launched always counts as initialized. Readiness alone does not initialize a node: startup taints may remain.
     */
    public boolean initialized() {
        return !managed() || "true".equals(labels.get(INITIALIZED_LABEL));
    }

    /**
     * Whether the node carries {@code taint}: its key with its effect, as Kubernetes matches a taint (the value aside).
     * One rule for every "is this node disrupted" question ({@link Taint#DISRUPTED}), as Karpenter's
     * {@code IsDisruptingTaint} is one.
     */
    public boolean hasTaint(Taint taint) {
        return taints.stream().anyMatch(t -> t.key().equals(taint.key()) && t.effect() == taint.effect());
    }

    /** The condition of {@code type}, if the node reports one. */
    public java.util.Optional<NodeCondition> condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
    }

    /** This node with {@code conditions} in place of its own (the rest unchanged). */
    public Node withConditions(List<NodeCondition> conditions) {
        return new Node(name, providerId, labels, annotations, taints, allocatable, ready, unschedulable, deleting,
                createdAt, finalizers, deletionTimestamp, conditions);
    }

    /**
     * This node as it reads once the {@link Taint#DISRUPTED} taint is taken off: without it, and deleting only when it
     * has a deletion timestamp (the same node when it has no such taint).
     */
    public Node undisrupted() {
        if (taints.stream().noneMatch(t -> t.key().equals(Taint.DISRUPTED.key()))) {
            return this;
        }
        return new Node(name, providerId, labels, annotations,
                taints.stream().filter(t -> !t.key().equals(Taint.DISRUPTED.key())).toList(), allocatable, ready,
                unschedulable, false, createdAt, finalizers, deletionTimestamp, conditions);
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
