package dev.gantry.handlers;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The cluster ports over another, where the whole pod and node lists are read at most once between two writes within
 * one invocation ({@link #during}). A sweep lists nodes three or four times and pods twice (its own steps, then the
 * consolidation decision's snapshot); at 100,000 pods each pod list is the API server's largest answer and the sweep's
 * largest cost. Outside {@link #during} every call goes straight through, so services shared with other handlers
 * (validation in the termination function, the provisioner) read as before.
 *
 * <p>Why it is as safe as reading again: any write through these ports (a node patch, an eviction, a pod or node
 * deletion) drops both lists, so a step after a write reads the cluster fresh, exactly as without this class; what is
 * reused is only a list that nothing Gantry did could have changed. What others change in between (kube-scheduler
 * binding a pod, a node joining) is seconds old, the same staleness any list has once it returns, and each decision
 * is re-checked against fresh reads before it acts (consolidation's validation after its delay re-reads the cluster;
 * drains read the node's pods when they run; registration and deletions are conditional writes). Nothing is kept
 * between invocations: a warm Lambda environment never sees a previous invocation's lists.
 */
public final class InvocationReads implements ClusterReader, ClusterWriter {
    private final ClusterReader reader;
    private final ClusterWriter writer;
    private boolean open;
    /** The claim store's view in the same scope ({@link #claims}), or null. */
    private InvocationClaims claims;
    private List<Pod> pods;
    private List<Node> nodes;
    /** Writes so far: a list read while one happened is not kept. */
    private long writes;

    public <C extends ClusterReader & ClusterWriter> InvocationReads(C cluster) {
        this.reader = cluster;
        this.writer = cluster;
    }

    /** Runs {@code work} with the lists kept between writes; they are dropped when it ends, however it ends. */
    public <T> T during(Supplier<T> work) {
        InvocationClaims stale;
        synchronized (this) {
            open = true;
            stale = claims;
        }
        if (stale != null) {
            stale.close(); // a list a closing scope raced to keep is never this invocation's
        }
        try {
            return work.get();
        } finally {
            InvocationClaims kept;
            synchronized (this) {
                open = false;
                pods = null;
                nodes = null;
                kept = claims;
            }
            if (kept != null) {
                kept.close(); // outside this lock: the view takes its own, and asks isOpen() without holding it
            }
        }
    }

    /** {@code store} with its whole list read at most once between claim writes within {@link #during} ({@link InvocationClaims}). */
    public synchronized InvocationClaims claims(dev.gantry.core.lifecycle.NodeClaimStore store) {
        if (claims == null) {
            claims = new InvocationClaims(store, this);
        }
        return claims;
    }

    synchronized boolean isOpen() {
        return open;
    }

    @Override
    public List<Pod> pods() {
        long before;
        synchronized (this) {
            if (open && pods != null) {
                return pods;
            }
            before = writes;
        }
        List<Pod> read = reader.pods();
        synchronized (this) {
            if (open && writes == before) { // a write during the read: the list may predate it
                pods = read;
            }
        }
        return read;
    }

    @Override
    public List<Node> nodes() {
        long before;
        synchronized (this) {
            if (open && nodes != null) {
                return nodes;
            }
            before = writes;
        }
        List<Node> read = reader.nodes();
        synchronized (this) {
            if (open && writes == before) { // a write during the read: the list may predate it
                nodes = read;
            }
        }
        return read;
    }

    private synchronized void written() {
        writes++;
        pods = null;
        nodes = null;
    }

    @Override public List<Pod> podsOn(String node) { return reader.podsOn(node); }
    @Override public Optional<Node> findNode(String name) { return reader.findNode(name); }
    @Override public List<DaemonSet> daemonSets() { return reader.daemonSets(); }
    @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return reader.podDisruptionBudgets(); }
    @Override public Set<String> nodesWithVolumeAttachments() { return reader.nodesWithVolumeAttachments(); }
    @Override public Map<String, Map<String, String>> namespaceLabels() { return reader.namespaceLabels(); }

    @Override
    public void patchNode(String name, NodePatch patch) {
        try {
            writer.patchNode(name, patch);
        } finally {
            written();
        }
    }

    @Override
    public EvictionResult evict(Pod pod) {
        try {
            return writer.evict(pod);
        } finally {
            written();
        }
    }

    @Override
    public void deletePod(Pod pod) {
        try {
            writer.deletePod(pod);
        } finally {
            written();
        }
    }

    @Override
    public void deleteNode(String name) {
        try {
            writer.deleteNode(name);
        } finally {
            written();
        }
    }

    /** An Event changes no pod or node. */
    @Override
    public void event(String kind, String namespace, String name, String type, String reason, String message) {
        writer.event(kind, namespace, name, type, reason, message);
    }
}
