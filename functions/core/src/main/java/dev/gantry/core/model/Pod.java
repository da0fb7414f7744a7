package dev.gantry.core.model;

import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What scheduling needs to know about a pod. Built from a manifest or from the API server by an adapter; the
 * requests are already effective ({@link Container#podRequests}) and always include one {@code pods} slot.
 *
 * @param requiredNodeAffinity the OR-ed {@code nodeSelectorTerms}; empty when there is no required node affinity
 * @param nodeName             the node it is bound to, or null when pending
 * @param ownerKind            the controller kind ({@code ReplicaSet}, {@code DaemonSet}, {@code Node} for static pods), or null
 * @param status               what the API server reports; {@link Status#PENDING} for a pod read from a manifest
 */
public record Pod(String namespace, String name, String uid, Map<String, String> labels, Map<String, String> annotations,
                  Resources requests, Map<String, String> nodeSelector, List<Requirements> requiredNodeAffinity,
                  List<WeightedRequirements> preferredNodeAffinity, List<Toleration> tolerations,
                  List<TopologySpread> topologySpread, List<PodAffinityTerm> podAffinity,
                  List<PodAffinityTerm> preferredPodAffinity, List<PodAffinityTerm> podAntiAffinity,
                  List<PodAffinityTerm> preferredPodAntiAffinity, List<HostPort> hostPorts, String nodeName,
                  String ownerKind, String ownerName, int priority, String priorityClassName, Status status) {

    /** Karpenter's annotation that keeps a pod's node from voluntary disruption. */
    public static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

    public Pod {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        uid = uid == null ? namespace + "/" + name : uid;
        labels = Map.copyOf(labels == null ? Map.of() : labels);
        annotations = Map.copyOf(annotations == null ? Map.of() : annotations);
        requests = requests == null ? Resources.ZERO : requests;
        if (requests.pods() == 0) {
            requests = requests.with(Resources.PODS, 1); // every pod takes one of the node's pod slots
        }
        nodeSelector = Map.copyOf(nodeSelector == null ? Map.of() : nodeSelector);
        requiredNodeAffinity = List.copyOf(requiredNodeAffinity == null ? List.of() : requiredNodeAffinity);
        preferredNodeAffinity = List.copyOf(preferredNodeAffinity == null ? List.of() : preferredNodeAffinity);
        tolerations = List.copyOf(tolerations == null ? List.of() : tolerations);
        topologySpread = List.copyOf(topologySpread == null ? List.of() : topologySpread);
        podAffinity = List.copyOf(podAffinity == null ? List.of() : podAffinity);
        preferredPodAffinity = List.copyOf(preferredPodAffinity == null ? List.of() : preferredPodAffinity);
        podAntiAffinity = List.copyOf(podAntiAffinity == null ? List.of() : podAntiAffinity);
        preferredPodAntiAffinity = List.copyOf(preferredPodAntiAffinity == null ? List.of() : preferredPodAntiAffinity);
        hostPorts = List.copyOf(hostPorts == null ? List.of() : hostPorts);
        status = status == null ? Status.PENDING : status;
    }

    /**
     * The pod's status as far as Gantry cares.
     *
     * @param phase         Pending, Running, Succeeded, Failed or Unknown
     * @param unschedulable the PodScheduled condition is False with reason Unschedulable (kube-scheduler gave up on it)
     * @param createdAt     {@code metadata.creationTimestamp}, or null
     * @param deletingSince the deletion timestamp, or null
     * @param terminationGracePeriodSeconds the pod's own grace period, or null for the default (30 s)
     * @param startedAt     {@code status.startTime}: when the kubelet accepted the pod, or null before (or when unknown)
     * @param ready         the PodReady condition: true or false as reported, null when the pod reports none
     * @param restarts      the restarts of its containers, init containers included: the sum of their
     *                      {@code restartCount}s (a pod lives on one node, so they all happened there)
     * @param crashLoopBackOff a container (or init container) is waiting with reason {@code CrashLoopBackOff}: it
     *                      exited and the kubelet holds its restart back
     */
    public record Status(String phase, boolean unschedulable, java.time.Instant createdAt, java.time.Instant deletingSince,
                         Long terminationGracePeriodSeconds, java.time.Instant startedAt, Boolean ready, int restarts,
                         boolean crashLoopBackOff) {
        public static final Status PENDING = new Status("Pending", false, null, null, null);

        public Status {
            phase = phase == null ? "Pending" : phase;
            if (restarts < 0) {
                throw new IllegalArgumentException("restarts must not be negative: " + restarts);
            }
        }

        /** A status whose containers have not restarted. */
        public Status(String phase, boolean unschedulable, java.time.Instant createdAt, java.time.Instant deletingSince,
                      Long terminationGracePeriodSeconds, java.time.Instant startedAt, Boolean ready) {
            this(phase, unschedulable, createdAt, deletingSince, terminationGracePeriodSeconds, startedAt, ready, 0, false);
        }

        /** A status without a start time or a readiness condition (a manifest, a test, a pod not yet started). */
        public Status(String phase, boolean unschedulable, java.time.Instant createdAt, java.time.Instant deletingSince,
                      Long terminationGracePeriodSeconds) {
            this(phase, unschedulable, createdAt, deletingSince, terminationGracePeriodSeconds, null, null);
        }

        /** This status with its containers' restarts as the kubelet reports them. */
        public Status withRestarts(int count, boolean backOff) {
            return new Status(phase, unschedulable, createdAt, deletingSince, terminationGracePeriodSeconds, startedAt, ready,
                    count, backOff);
        }

        /** Succeeded or Failed: the pod holds no resources and needs no eviction. */
        public boolean isTerminal() {
            return phase.equals("Succeeded") || phase.equals("Failed");
        }

        /** The PodReady condition is reported False (absent is not unready: the pod has not said). */
        public boolean reportsNotReady() {
            return Boolean.FALSE.equals(ready);
        }
    }

    /** Waiting for capacity: not bound, not terminal, not being deleted, and marked Unschedulable by kube-scheduler. */
    public boolean isProvisionable() {
        return !isBound() && !status.isTerminal() && status.deletingSince() == null && status.unschedulable();
    }

    /** A node-affinity preference with its weight (1–100). */
    public record WeightedRequirements(int weight, Requirements requirements) {
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }

    public boolean isDaemon() {
        return "DaemonSet".equals(ownerKind);
    }

    public boolean isBound() {
        return nodeName != null && !nodeName.isEmpty();
    }

    /** Mirror and static pods belong to the kubelet, not the API server, and are never evicted. */
    public boolean isMirror() {
        return "Node".equals(ownerKind) || annotations.containsKey("kubernetes.io/config.mirror");
    }

    public boolean doNotDisrupt() {
        return "true".equals(annotations.get(DO_NOT_DISRUPT));
    }

    /** Critical pods, as Karpenter's drain orders them: the system-cluster-critical and system-node-critical classes. */
    public boolean isCritical() {
        return "system-cluster-critical".equals(priorityClassName) || "system-node-critical".equals(priorityClassName);
    }

    /** The pod's node selector and each required node affinity term as requirement sets (one per OR-term, at least one). */
    public List<Requirements> nodeRequirementTerms() {
        Requirements sel = Requirements.fromLabels(nodeSelector);
        if (requiredNodeAffinity.isEmpty()) {
            return List.of(sel);
        }
        return requiredNodeAffinity.stream().map(sel::intersect).toList();
    }

    public Pod withNodeName(String node) {
        return new Pod(namespace, name, uid, labels, annotations, requests, nodeSelector, requiredNodeAffinity,
                preferredNodeAffinity, tolerations, topologySpread, podAffinity, preferredPodAffinity, podAntiAffinity,
                preferredPodAntiAffinity, hostPorts, node, ownerKind, ownerName, priority, priorityClassName, status);
    }

    /**
     * The pod as a plan must place it off the nodes (or claims) with these hostnames: its required node affinity
     * narrowed, in every term, by {@code kubernetes.io/hostname NotIn hostnames}. Itself when there are none.
     */
    public Pod avoiding(java.util.Collection<String> hostnames) {
        if (hostnames.isEmpty()) {
            return this;
        }
        Requirements off = Requirements.of(dev.gantry.core.requirements.Requirement.of(
                dev.gantry.core.requirements.WellKnownLabels.HOSTNAME, dev.gantry.core.requirements.Operator.NotIn,
                hostnames.toArray(String[]::new)));
        List<Requirements> terms = requiredNodeAffinity.isEmpty() ? List.of(off)
                : requiredNodeAffinity.stream().map(t -> t.intersect(off)).toList();
        return toBuilder().requiredNodeAffinity(terms).build();
    }

    /** A builder with defaults, for tests and adapters that set a few fields. */
    public static Builder builder(String namespace, String name) {
        return new Builder(namespace, name);
    }

    public Builder toBuilder() {
        Builder b = new Builder(namespace, name);
        b.uid = uid; b.labels = labels; b.annotations = annotations; b.requests = requests; b.nodeSelector = nodeSelector;
        b.requiredNodeAffinity = requiredNodeAffinity; b.preferredNodeAffinity = preferredNodeAffinity;
        b.tolerations = tolerations; b.topologySpread = topologySpread; b.podAffinity = podAffinity;
        b.preferredPodAffinity = preferredPodAffinity; b.podAntiAffinity = podAntiAffinity;
        b.preferredPodAntiAffinity = preferredPodAntiAffinity; b.hostPorts = hostPorts; b.nodeName = nodeName;
        b.ownerKind = ownerKind; b.ownerName = ownerName; b.priority = priority; b.priorityClassName = priorityClassName;
        b.status = status;
        return b;
    }

    /** Mutable builder; {@link #build()} makes the immutable pod. */
    public static final class Builder {
        private final String namespace;
        private final String name;
        private String uid;
        private Map<String, String> labels = Map.of();
        private Map<String, String> annotations = Map.of();
        private Resources requests = Resources.ZERO;
        private Map<String, String> nodeSelector = Map.of();
        private List<Requirements> requiredNodeAffinity = List.of();
        private List<WeightedRequirements> preferredNodeAffinity = List.of();
        private List<Toleration> tolerations = List.of();
        private List<TopologySpread> topologySpread = List.of();
        private List<PodAffinityTerm> podAffinity = List.of();
        private List<PodAffinityTerm> preferredPodAffinity = List.of();
        private List<PodAffinityTerm> podAntiAffinity = List.of();
        private List<PodAffinityTerm> preferredPodAntiAffinity = List.of();
        private List<HostPort> hostPorts = List.of();
        private String nodeName;
        private String ownerKind;
        private String ownerName;
        private int priority;
        private String priorityClassName;
        private Status status;

        private Builder(String namespace, String name) {
            this.namespace = namespace;
            this.name = name;
        }

        public Builder uid(String v) { uid = v; return this; }
        public Builder labels(Map<String, String> v) { labels = v; return this; }
        public Builder annotations(Map<String, String> v) { annotations = v; return this; }
        public Builder requests(Resources v) { requests = v; return this; }
        public Builder nodeSelector(Map<String, String> v) { nodeSelector = v; return this; }
        public Builder requiredNodeAffinity(List<Requirements> v) { requiredNodeAffinity = v; return this; }
        public Builder preferredNodeAffinity(List<WeightedRequirements> v) { preferredNodeAffinity = v; return this; }
        public Builder tolerations(List<Toleration> v) { tolerations = v; return this; }
        public Builder topologySpread(List<TopologySpread> v) { topologySpread = v; return this; }
        public Builder podAffinity(List<PodAffinityTerm> v) { podAffinity = v; return this; }
        public Builder preferredPodAffinity(List<PodAffinityTerm> v) { preferredPodAffinity = v; return this; }
        public Builder podAntiAffinity(List<PodAffinityTerm> v) { podAntiAffinity = v; return this; }
        public Builder preferredPodAntiAffinity(List<PodAffinityTerm> v) { preferredPodAntiAffinity = v; return this; }
        public Builder hostPorts(List<HostPort> v) { hostPorts = v; return this; }
        public Builder nodeName(String v) { nodeName = v; return this; }
        public Builder owner(String kind, String ownerName) { ownerKind = kind; this.ownerName = ownerName; return this; }
        public Builder priority(int v) { priority = v; return this; }
        public Builder priorityClassName(String v) { priorityClassName = v; return this; }
        public Builder status(Status v) { status = v; return this; }

        public Pod build() {
            return new Pod(namespace, name, uid, labels, annotations, requests, nodeSelector, requiredNodeAffinity,
                    preferredNodeAffinity, tolerations, topologySpread, podAffinity, preferredPodAffinity, podAntiAffinity,
                    preferredPodAntiAffinity, hostPorts, nodeName, ownerKind, ownerName, priority, priorityClassName, status);
        }
    }
}
