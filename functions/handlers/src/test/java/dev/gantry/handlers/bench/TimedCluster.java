package dev.gantry.handlers.bench;

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The cluster ports over another, with the time spent in reads and in writes, the number of whole pod and node lists,
 * and the span of the Events (which run side by side).
 */
final class TimedCluster implements ClusterReader, ClusterWriter {
    private final ClusterReader r;
    private final ClusterWriter w;
    final AtomicLong read = new AtomicLong();
    final AtomicLong write = new AtomicLong();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger podLists = new AtomicInteger();
    final AtomicInteger nodeLists = new AtomicInteger();
    final ProvisionerScaleBenchmark.Span events = new ProvisionerScaleBenchmark.Span();

    <C extends ClusterReader & ClusterWriter> TimedCluster(C c) {
        this.r = c;
        this.w = c;
    }

    private <T> T time(AtomicLong into, Supplier<T> s) {
        long t0 = System.nanoTime();
        try {
            return s.get();
        } finally {
            into.addAndGet(System.nanoTime() - t0);
        }
    }

    private void write(Runnable run) {
        writes.incrementAndGet();
        time(write, () -> {
            run.run();
            return null;
        });
    }

    @Override public List<Pod> pods() { podLists.incrementAndGet(); return time(read, r::pods); }
    @Override public List<Pod> podsOn(String node) { return time(read, () -> r.podsOn(node)); }
    @Override public List<Node> nodes() { nodeLists.incrementAndGet(); return time(read, r::nodes); }
    @Override public Optional<Node> findNode(String name) { return time(read, () -> r.findNode(name)); }
    @Override public List<DaemonSet> daemonSets() { return time(read, r::daemonSets); }
    @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return time(read, r::podDisruptionBudgets); }
    @Override public Set<String> nodesWithVolumeAttachments() { return time(read, r::nodesWithVolumeAttachments); }
    @Override public Map<String, Map<String, String>> namespaceLabels() { return time(read, r::namespaceLabels); }
    @Override public void patchNode(String name, NodePatch patch) { write(() -> w.patchNode(name, patch)); }
    @Override public EvictionResult evict(Pod pod) { writes.incrementAndGet(); return time(write, () -> w.evict(pod)); }
    @Override public void deletePod(Pod pod) { write(() -> w.deletePod(pod)); }
    @Override public void deleteNode(String name) { write(() -> w.deleteNode(name)); }

    @Override
    public void event(String kind, String namespace, String name, String type, String reason, String message) {
        long t0 = System.nanoTime();
        w.event(kind, namespace, name, type, reason, message);
        events.add(t0, System.nanoTime());
    }
}
