package dev.gantry.simulator;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The API server as Gantry's services reach it: the in-memory cluster behind the same ports, plus what a real API
 * server adds around a call. It can be down (every call fails with status 0, retryable), it calls the webhook on node
 * deletions, it hands Gantry's evictions to the invariant checks (a PDB or do-not-disrupt pod must never be evicted),
 * and it records Events for the timeline.
 */
final class ApiServer implements ClusterReader, ClusterWriter {
    /** Sees what Gantry asks of the cluster. */
    interface Observer {
        void evicting(Pod pod, List<PodDisruptionBudget> pdbs);

        void evicted(Pod pod);

        void event(String kind, String name, String type, String reason, String message);
    }

    private final InMemoryCluster cluster;
    private final Clock clock;
    private final Observer observer;
    private Webhook webhook;
    private Instant downUntil = Instant.MIN;

    ApiServer(InMemoryCluster cluster, Clock clock, Observer observer) {
        this.cluster = cluster;
        this.clock = clock;
        this.observer = observer;
    }

    void webhook(Webhook w) {
        this.webhook = w;
    }

    void downUntil(Instant until) {
        downUntil = until;
    }

    boolean isDown() {
        return clock.instant().isBefore(downUntil);
    }

    private void check() {
        if (isDown()) {
            throw new ClusterException(0, "the API server is unreachable (simulated outage)", null);
        }
    }

    @Override
    public List<Pod> pods() {
        check();
        return cluster.pods();
    }

    @Override
    public List<Pod> podsOn(String node) {
        check();
        return cluster.podsOn(node);
    }

    @Override
    public java.util.Optional<Node> findNode(String name) {
        check();
        return cluster.findNode(name);
    }

    @Override
    public List<Node> nodes() {
        check();
        return cluster.nodes();
    }

    @Override
    public List<DaemonSet> daemonSets() {
        check();
        return cluster.daemonSets();
    }

    @Override
    public List<PodDisruptionBudget> podDisruptionBudgets() {
        check();
        return cluster.podDisruptionBudgets();
    }

    @Override
    public Set<String> nodesWithVolumeAttachments() {
        check();
        return cluster.nodesWithVolumeAttachments();
    }

    @Override
    public Map<String, Map<String, String>> namespaceLabels() {
        check();
        return cluster.namespaceLabels();
    }

    @Override
    public void patchNode(String name, NodePatch patch) {
        check();
        cluster.patchNode(name, patch);
    }

    @Override
    public EvictionResult evict(Pod pod) {
        check();
        Pod current = cluster.pod(pod.key());
        // An eviction the API server refuses (429: a covering PDB has no disruption left) evicts nothing, so it is no
        // PDB violation: only evictions it will let through are checked against the budgets' minimums.
        if (current != null && cluster.podDisruptionBudgets().stream().noneMatch(b -> b.covers(current) && b.disruptionsAllowed() <= 0)) {
            observer.evicting(current, cluster.podDisruptionBudgets());
        }
        EvictionResult r = cluster.evict(pod);
        if (r == EvictionResult.EVICTED) {
            observer.evicted(current);
        }
        return r;
    }

    @Override
    public void deletePod(Pod pod) {
        check();
        cluster.deletePod(pod);
    }

    @Override
    public void deleteNode(String name) {
        check();
        Node n = cluster.node(name);
        if (n == null) {
            return;
        }
        cluster.deleteNodeAt(name, clock.instant());
        if (webhook != null) {
            webhook.nodeDeleted(n);
        }
    }

    @Override
    public void event(String kind, String namespace, String name, String type, String reason, String message) {
        if (!isDown()) {
            cluster.event(kind, namespace, name, type, reason, message);
            observer.event(kind, (namespace == null ? "" : namespace + "/") + name, type, reason, message);
        }
    }
}
