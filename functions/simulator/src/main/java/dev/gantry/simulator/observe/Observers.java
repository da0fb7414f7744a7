package dev.gantry.simulator.observe;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.world.aws.EventBridge;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.simulator.world.kube.KubeScheduler;
import dev.gantry.simulator.world.kube.Kubelet;
import dev.gantry.simulator.world.kube.Pdbs;
import dev.gantry.simulator.world.kube.Workloads;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Clock;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Glue between the simulated parts: what EC2 does reaches the kubelet, the interruption queue (state-change events, as
 * the EventBridge rule forwards them) and the recorder; what Gantry asks of the API server reaches the invariants.
 */
public final class Observers implements SimulatedCloud.Observer, ApiServer.Observer {
    /** Each node's last consolidation verdict on the timeline (its event's reason and message). */
    private final java.util.Map<String, String> kept = new java.util.HashMap<>();
    /** The reasons of the Node Events the interruption handler records for the events it acts on. */
    private static final Set<String> INTERRUPTIONS = Set.of("SpotInterruption", "ScheduledChange",
            "RebalanceRecommendation", "InstanceStateChange");
    private final String clusterName;
    private final Clock clock;
    private final InMemoryCluster cluster;
    private final NodeClaimStore truth;
    private final Recorder recorder;
    private final Invariants invariants;
    private final EventLog events;
    private final SimulatedQueue interruptionQueue;
    private final EventBridge eventBridge;
    private Kubelet kubelet;
    private KubeScheduler kubeScheduler;
    private Workloads workloads;
    private Checks checks;
    private Placement placement;
    /** The FailedScheduling messages of the provisioning run under way, by pod (namespace/name). */
    private final TreeMap<String, String> failedScheduling = new TreeMap<>();
    private boolean clusterChanged = true;
    /** PDB counts at the cluster's version they were taken (an eviction moves them along instead of a recount). */
    private Pdbs.Counts pdbCounts;
    private long evictingAt = -1;
    private boolean evictingHealthy;
    private boolean evictingAllowed = true;

    /** Pod key to the claims recorded for it (a claim's pods never change once recorded). */
    private final java.util.Map<String, List<String>> launchedFor = new java.util.HashMap<>();
    private final java.util.Set<String> indexed = new java.util.HashSet<>();

    /**
     * {@code truth} is the store behind Gantry's port (looking costs Gantry nothing and draws no fault); state changes
     * of {@code clusterName}'s instances reach {@code interruptionQueue} as {@code eventBridge} forwards them.
     */
    public Observers(String clusterName, Clock clock, InMemoryCluster cluster, NodeClaimStore truth, Recorder recorder,
              Invariants invariants, EventLog events, SimulatedQueue interruptionQueue, EventBridge eventBridge) {
        this.clusterName = clusterName;
        this.clock = clock;
        this.cluster = cluster;
        this.truth = truth;
        this.recorder = recorder;
        this.invariants = invariants;
        this.events = events;
        this.interruptionQueue = interruptionQueue;
        this.eventBridge = eventBridge;
        recorder.onEvictionWaited = e -> {
            if (e.judged()) {
                invariants.violated("evictedBeforeReplacementReady", "pod " + e.pod() + " evicted from " + e.node()
                        + " (" + e.reason() + ", drain under way " + e.drainFor().toSeconds() + " s) at t="
                        + VirtualClock.format(recorder.secondsSinceStart(e.at())) + " while its replacement "
                        + String.join(", ", e.booting()) + " was not Ready; its successor waited for capacity");
            }
        };
    }

    /**
     * The parts built after the observers, which they tell: the kubelet (of launches and deaths), kube-scheduler (of
     * changes), the controllers (for a PDB's expected pods), the checks (of Gantry's terminations) and the placement
     * invariant (of capacity coming free).
     */
    public void watch(Kubelet kubelet, KubeScheduler kubeScheduler, Workloads workloads, Checks checks, Placement placement) {
        this.kubelet = kubelet;
        this.kubeScheduler = kubeScheduler;
        this.workloads = workloads;
        this.checks = checks;
        this.placement = placement;
    }

    /** A provisioning run begins: the FailedScheduling messages of the last one are forgotten. */
    public void provisioningRunStarts() {
        failedScheduling.clear();
    }

    /** The FailedScheduling messages of the provisioning run under way, by pod (namespace/name). */
    public java.util.SortedMap<String, String> failedScheduling() {
        return java.util.Collections.unmodifiableSortedMap(failedScheduling);
    }

    /** Whether the cluster changed since the last call (the checks look at node compatibility only then). */
    public boolean takeClusterChanged() {
        boolean changed = clusterChanged;
        clusterChanged = false;
        return changed;
    }

    /** The claims recorded for each pod, the claims recorded since the last call added. */
    private java.util.Map<String, List<String>> launchedFor(java.time.Instant now) {
        for (NodeClaim c : truth.list(now)) {
            if (indexed.add(c.name())) {
                c.pods().forEach(p -> launchedFor.computeIfAbsent(p, k -> new java.util.ArrayList<>()).add(c.name()));
            }
        }
        return launchedFor;
    }

    public void clusterChanged() {
        clusterChanged = true;
        kubeScheduler.changed();
    }

    @Override
    public void launched(SimulatedInstance i) {
        List<String> pods = truth.get(i.request().clientToken(), clock.instant()).map(NodeClaim::pods).orElse(List.of());
        recorder.launched(clock.instant(), pods);
        recorder.configReactions().launched(i);
        recorder.log(clock.instant(), "launch", "nodeclaim/" + i.request().clientToken() + " → " + i.id() + " "
                + i.type().name() + " " + i.zone() + " " + i.capacityType() + String.format(" $%.4f/h", i.pricePerHour())
                + " for " + pods.size() + " pods");
        if (i.request().nodePool().isStatic()) {
            recorder.nodeServed(i.dnsName()); // it holds its static NodePool's count: capacity asked for without pods
        }
        kubelet.launched(i);
    }

    @Override
    public void stateChanged(SimulatedInstance i, String state, String cause) {
        boolean managed = clusterName.equals(i.tags().get(CloudInstance.TAG_CLUSTER));
        if (state.equals("shutting-down") || state.equals("stopping")) {
            String reason = reason(i, cause);
            if (managed && cause.equals("api") && state.equals("shutting-down")) {
                checks.terminatedByGantry(i);
            }
            if (managed && i.request() != null && !i.request().nodePool().limits().isEmpty()) {
                placement.capacityFreed(clock.instant());
            }
            if (managed) {
                recorder.configReactions().ended(i);
                recorder.ended(reason);
                recorder.instanceEnded(i.id(), i.dnsName(), i.launchTime(), clock.instant());
                recorder.log(clock.instant(), "terminate", i.id() + " " + i.type().name() + " " + i.zone()
                        + " (" + reason + (cause.equals("api") ? "" : ", by EC2: " + cause) + ")");
            }
            kubelet.died(i);
        }
        if (managed && !state.equals("running")) {
            interruptionQueue.send(eventBridge.stateChange(i, state, clock.instant()), null, null, null);
        }
    }

    /** Why the instance ended, in the summary's vocabulary. */
    private String reason(SimulatedInstance i, String cause) {
        switch (cause) {
            case "spot-reclaim":
                return "interruption";
            case "api":
                break;
            default:
                return cause;
        }
        Optional<NodeClaim> claim = truth.findByInstanceId(i.id(), clock.instant());
        if (claim.isEmpty() || claim.get().state() == dev.gantry.core.lifecycle.NodeClaimState.Terminated) {
            return "gc";
        }
        String r = claim.get().deletionReason();
        if (r == null) {
            return "liveness"; // the sweep finishes claims without a drain before recording a reason
        }
        if (r.equals("empty")) {
            return "emptiness";
        }
        if (r.equals("expired")) {
            return "expiry";
        }
        if (r.equals("interruption") || r.equals("rebalance") || r.equals("scheduled-change") || r.startsWith("instance-")) {
            return "interruption";
        }
        if (r.endsWith("-timeout") || r.equals("instance-gone")) {
            return "liveness";
        }
        return r;
    }

    @Override
    public void unmanagedTouched(String instanceId) {
        invariants.violated("unmanagedInstancesTouched", "TerminateInstances named " + instanceId
                + ", which does not carry the cluster's tag");
    }

    @Override
    public void evicting(Pod pod, List<PodDisruptionBudget> pdbs) {
        Pdbs.Counts counts = pdbCounts();
        boolean allowed = true;
        for (PodDisruptionBudget b : pdbs) {
            if (b.covers(pod) && counts.healthy(b) - 1 < Pdbs.minAvailable(b, counts.expected(b))) {
                allowed = false;
            }
        }
        // Judged when the eviction goes through: an attempt the API server refuses (429, the budget is spent) is how
        // a drain learns that it must wait, not a violation (counting attempts would flag a drain that waits as it should).
        evictingAllowed = allowed;
        evictingAt = cluster.version();
        evictingHealthy = pod.isBound() && Pdbs.isHealthy(pod, cluster.node(pod.nodeName()));
    }

    private Pdbs.Counts pdbCounts() {
        if (pdbCounts == null || pdbCounts.version() != cluster.version()) {
            pdbCounts = Pdbs.count(cluster, owner -> {
                Workloads.Deployment d = workloads.deployment(owner);
                return d == null ? null : d.replicas();
            });
        }
        return pdbCounts;
    }

    @Override
    public void evicted(Pod pod) {
        invariants.evicting(pod, evictingAllowed);
        // The eviction removed exactly this pod: move the counts along rather than count again.
        if (pdbCounts != null && pdbCounts.version() == evictingAt && cluster.version() == evictingAt + 1) {
            for (PodDisruptionBudget b : cluster.podDisruptionBudgets()) {
                int[] c = pdbCounts.byPdb().get(b.namespace() + "/" + b.name());
                if (c != null && b.covers(pod)) {
                    if (pod.ownerName() == null || workloads.deployment(pod.namespace() + "/" + pod.ownerName()) == null) {
                        c[0]--; // expected pods follow the controllers' scale: only an uncontrolled pod's leaving lowers them
                    }
                    c[1] -= evictingHealthy ? 1 : 0;
                }
            }
            pdbCounts = new Pdbs.Counts(cluster.version(), pdbCounts.byPdb());
        }
        recorder.evictions++;
        recorder.evicted.evicted(pod, eviction(pod));
        clusterChanged();
    }

    /**
     * The eviction as {@link Evictions} judges it: its node's claim's deletion reason and how long its drain has run, and
     * the replacements launched for the pod (claims other than its node's whose launch named it, or its consolidation
     * command's replacements) whose node was not Ready at this moment.
     */
    private Evictions.Eviction eviction(Pod pod) {
        java.time.Instant now = clock.instant();
        Node node = pod.nodeName() == null ? null : cluster.node(pod.nodeName());
        NodeClaim own = node == null || node.instanceId() == null ? null
                : truth.findByInstanceId(node.instanceId(), now).orElse(null);
        java.util.Set<String> replacements = new java.util.TreeSet<>(launchedFor(now).getOrDefault(pod.key(), List.of()));
        if (own != null) {
            replacements.remove(own.name());
            if (own.consolidation() != null) {
                replacements.addAll(own.consolidation().replacements());
            }
        }
        List<String> booting = new java.util.ArrayList<>();
        for (String r : replacements) {
            NodeClaim c = truth.get(r, now).orElse(null);
            if (c == null || c.state().isDeleting()) {
                continue; // gone or failed: nothing left to wait for
            }
            Node n = c.nodeName() == null ? null : cluster.node(c.nodeName());
            if (n == null || !n.ready()) {
                booting.add(r);
            }
        }
        java.time.Duration drainFor = own == null || own.deletionRequestedAt() == null ? java.time.Duration.ZERO
                : java.time.Duration.between(own.deletionRequestedAt(), now);
        return new Evictions.Eviction(pod.key(), pod.nodeName(), now, own == null ? null : own.deletionReason(), drainFor,
                booting);
    }

    /**
     * The Events Gantry records: on a Node, an interruption (the interruption handler's record of what it acts on) goes
     * to the timeline as one, other warnings as events; on a Pod, why it cannot be placed is kept (by namespace/name)
     * for the provisioning run that said so.
     */
    @Override
    public void event(String kind, String name, String type, String reason, String message) {
        int slash = name.indexOf('/');
        events.add(new EventLog.Event(clock.instant(), kind, slash < 0 ? null : name.substring(0, slash),
                slash < 0 ? name : name.substring(slash + 1), type, reason, message));
        if (kind.equals("Node") && INTERRUPTIONS.contains(reason)) {
            recorder.log(clock.instant(), "interruption", reason + " for node " + name + ": " + message);
        } else if (kind.equals("Node") && (reason.equals("Unconsolidatable") || reason.equals("DisruptionBlocked"))) {
            // Why a node stays, once per change (the sweep repeats an unchanged event every 15 minutes).
            String line = reason + ": " + message;
            if (!line.equals(kept.put(name, line))) {
                recorder.log(clock.instant(), "kept", "node " + name + ": " + line);
            }
        } else if (type.equals("Warning") && kind.equals("Node")) {
            recorder.log(clock.instant(), "event", "Node " + name + ": " + reason + ": " + message);
        } else if (type.equals("Warning") && kind.equals("Pod") && reason.equals("FailedScheduling")) {
            failedScheduling.put(name, message);
        }
    }

    /** Recomputes every PDB's disruptionsAllowed from the pods that are healthy now (the disruption controller). */
    public void pdbs() {
        Pdbs.Counts counts = pdbCounts();
        for (PodDisruptionBudget b : cluster.podDisruptionBudgets()) {
            int allowed = Math.max(0, counts.healthy(b) - Pdbs.minAvailable(b, counts.expected(b)));
            if (allowed != b.disruptionsAllowed()) {
                cluster.putPdb(new PodDisruptionBudget(b.namespace(), b.name(), b.selector(), b.minAvailable(),
                        b.maxUnavailable(), allowed, b.unhealthyPodEvictionPolicy()));
            }
        }
    }
}
