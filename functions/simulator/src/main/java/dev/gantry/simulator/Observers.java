package dev.gantry.simulator;

import dev.gantry.core.cloud.CloudInstance;
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
final class Observers implements SimulatedCloud.Observer, ApiServer.Observer {
    /** Each node's last consolidation verdict on the timeline (its event's reason and message). */
    private final java.util.Map<String, String> kept = new java.util.HashMap<>();
    /** The reasons of the Node Events the interruption handler records for the events it acts on. */
    private static final Set<String> INTERRUPTIONS = Set.of("SpotInterruption", "ScheduledChange",
            "RebalanceRecommendation", "InstanceStateChange");
    private final Simulation sim;
    /** The FailedScheduling messages of the provisioning run under way, by pod (namespace/name). */
    final TreeMap<String, String> failedScheduling = new TreeMap<>();
    boolean clusterChanged = true;
    /** PDB counts at the cluster's version they were taken (an eviction moves them along instead of a recount). */
    private Pdbs.Counts pdbCounts;
    private long evictingAt = -1;
    private boolean evictingHealthy;
    private boolean evictingAllowed = true;

    /** Pod key to the claims recorded for it (a claim's pods never change once recorded). */
    private final java.util.Map<String, List<String>> launchedFor = new java.util.HashMap<>();
    private final java.util.Set<String> indexed = new java.util.HashSet<>();

    Observers(Simulation sim) {
        this.sim = sim;
        sim.recorder.onEvictionWaited = e -> {
            if (e.judged()) {
                sim.invariants.violated("evictedBeforeReplacementReady", "pod " + e.pod() + " evicted from " + e.node()
                        + " (" + e.reason() + ", drain under way " + e.drainFor().toSeconds() + " s) at t="
                        + Progress.clock(sim.recorder.secondsSinceStart(e.at())) + " while its replacement "
                        + String.join(", ", e.booting()) + " was not Ready; its successor waited for capacity");
            }
        };
    }

    /** The claims recorded for each pod, the claims recorded since the last call added. */
    private java.util.Map<String, List<String>> launchedFor(java.time.Instant now) {
        for (NodeClaim c : sim.store.list(now)) {
            if (indexed.add(c.name())) {
                c.pods().forEach(p -> launchedFor.computeIfAbsent(p, k -> new java.util.ArrayList<>()).add(c.name()));
            }
        }
        return launchedFor;
    }

    void clusterChanged() {
        clusterChanged = true;
        sim.kubeScheduler.changed();
    }

    @Override
    public void launched(SimInstance i) {
        List<String> pods = sim.store.get(i.request().clientToken(), sim.clock.instant()).map(NodeClaim::pods).orElse(List.of());
        sim.recorder.launched(sim.clock.instant(), pods);
        sim.recorder.log(sim.clock.instant(), "launch", "nodeclaim/" + i.request().clientToken() + " → " + i.id() + " "
                + i.type().name() + " " + i.zone() + " " + i.capacityType() + String.format(" $%.4f/h", i.pricePerHour())
                + " for " + pods.size() + " pods");
        sim.kubelet.launched(i);
    }

    @Override
    public void stateChanged(SimInstance i, String state, String cause) {
        boolean managed = Simulation.CLUSTER.equals(i.tags().get(CloudInstance.TAG_CLUSTER));
        if (state.equals("shutting-down") || state.equals("stopping")) {
            String reason = reason(i, cause);
            if (managed && cause.equals("api") && state.equals("shutting-down")) {
                sim.checks.terminatedByGantry(i);
            }
            if (managed && i.request() != null && !i.request().nodePool().limits().isEmpty()) {
                sim.checks.placement.capacityFreed(sim.clock.instant());
            }
            if (managed) {
                sim.recorder.ended(reason);
                sim.recorder.instanceEnded(i.id(), i.dnsName(), i.launchTime(), sim.clock.instant());
                sim.recorder.log(sim.clock.instant(), "terminate", i.id() + " " + i.type().name() + " " + i.zone()
                        + " (" + reason + (cause.equals("api") ? "" : ", by EC2: " + cause) + ")");
            }
            sim.kubelet.died(i);
        }
        if (managed && !state.equals("running")) {
            sim.interruptionQueue.send(sim.eventBridge.stateChange(i, state, sim.clock.instant()), null, null, null);
        }
    }

    /** Why the instance ended, in the summary's vocabulary. */
    private String reason(SimInstance i, String cause) {
        switch (cause) {
            case "spot-reclaim":
                return "interruption";
            case "api":
                break;
            default:
                return cause;
        }
        Optional<NodeClaim> claim = sim.store.findByInstanceId(i.id(), sim.clock.instant());
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
        sim.invariants.violated("unmanagedInstancesTouched", "TerminateInstances named " + instanceId
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
        // a drain learns that it must wait, not a violation (counting attempts flagged spot-storm under other seeds).
        evictingAllowed = allowed;
        evictingAt = sim.cluster.version();
        evictingHealthy = pod.isBound() && isHealthy(pod, sim.cluster.node(pod.nodeName()));
    }

    private Pdbs.Counts pdbCounts() {
        if (pdbCounts == null || pdbCounts.version() != sim.cluster.version()) {
            pdbCounts = Pdbs.count(sim.cluster, owner -> {
                Workloads.Deployment d = sim.workloads.deployment(owner);
                return d == null ? null : d.replicas;
            });
        }
        return pdbCounts;
    }

    @Override
    public void evicted(Pod pod) {
        sim.invariants.evicting(pod, evictingAllowed);
        // The eviction removed exactly this pod: move the counts along rather than count again.
        if (pdbCounts != null && pdbCounts.version() == evictingAt && sim.cluster.version() == evictingAt + 1) {
            for (PodDisruptionBudget b : sim.cluster.podDisruptionBudgets()) {
                int[] c = pdbCounts.byPdb().get(b.namespace() + "/" + b.name());
                if (c != null && b.covers(pod)) {
                    if (pod.ownerName() == null || sim.workloads.deployment(pod.namespace() + "/" + pod.ownerName()) == null) {
                        c[0]--; // expected pods follow the controllers' scale: only an uncontrolled pod's leaving lowers them
                    }
                    c[1] -= evictingHealthy ? 1 : 0;
                }
            }
            pdbCounts = new Pdbs.Counts(sim.cluster.version(), pdbCounts.byPdb());
        }
        sim.recorder.evictions++;
        sim.recorder.evicted.evicted(pod, eviction(pod));
        clusterChanged();
    }

    /**
     * The eviction as {@link Evictions} judges it: its node's claim's deletion reason and how long its drain has run, and
     * the replacements launched for the pod (claims other than its node's whose launch named it, or its consolidation
     * command's replacements) whose node was not Ready at this moment.
     */
    private Evictions.Eviction eviction(Pod pod) {
        java.time.Instant now = sim.clock.instant();
        Node node = pod.nodeName() == null ? null : sim.cluster.node(pod.nodeName());
        NodeClaim own = node == null || node.instanceId() == null ? null
                : sim.store.findByInstanceId(node.instanceId(), now).orElse(null);
        java.util.Set<String> replacements = new java.util.TreeSet<>(launchedFor(now).getOrDefault(pod.key(), List.of()));
        if (own != null) {
            replacements.remove(own.name());
            if (own.consolidation() != null) {
                replacements.addAll(own.consolidation().replacements());
            }
        }
        List<String> booting = new java.util.ArrayList<>();
        for (String r : replacements) {
            NodeClaim c = sim.store.get(r, now).orElse(null);
            if (c == null || c.state().isDeleting()) {
                continue; // gone or failed: nothing left to wait for
            }
            Node n = c.nodeName() == null ? null : sim.cluster.node(c.nodeName());
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
        sim.events.add(new StatusCapture.Event(sim.clock.instant(), kind, slash < 0 ? null : name.substring(0, slash),
                slash < 0 ? name : name.substring(slash + 1), type, reason, message));
        if (kind.equals("Node") && INTERRUPTIONS.contains(reason)) {
            sim.recorder.log(sim.clock.instant(), "interruption", reason + " for node " + name + ": " + message);
        } else if (kind.equals("Node") && (reason.equals("Unconsolidatable") || reason.equals("DisruptionBlocked"))) {
            // Why a node stays, once per change (the sweep repeats an unchanged event every 15 minutes).
            String line = reason + ": " + message;
            if (!line.equals(kept.put(name, line))) {
                sim.recorder.log(sim.clock.instant(), "kept", "node " + name + ": " + line);
            }
        } else if (type.equals("Warning") && kind.equals("Node")) {
            sim.recorder.log(sim.clock.instant(), "event", "Node " + name + ": " + reason + ": " + message);
        } else if (type.equals("Warning") && kind.equals("Pod") && reason.equals("FailedScheduling")) {
            failedScheduling.put(name, message);
        }
    }

    /** Recomputes every PDB's disruptionsAllowed from the pods that are healthy now (the disruption controller). */
    void pdbs() {
        Pdbs.Counts counts = pdbCounts();
        for (PodDisruptionBudget b : sim.cluster.podDisruptionBudgets()) {
            int allowed = Math.max(0, counts.healthy(b) - Pdbs.minAvailable(b, counts.expected(b)));
            if (allowed != b.disruptionsAllowed()) {
                sim.cluster.putPdb(new PodDisruptionBudget(b.namespace(), b.name(), b.selector(), b.minAvailable(),
                        b.maxUnavailable(), allowed, b.unhealthyPodEvictionPolicy()));
            }
        }
    }

    static boolean isHealthy(Pod p, Node n) {
        return p.isBound() && n != null && n.ready() && "Running".equals(p.status().phase()) && p.status().deletingSince() == null;
    }
}
