package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Gantry's own rule: within one sweep a whole list is read again only after a write could have changed it. */
class InvocationReadsTest {
    static final Instant AT = Instant.parse("2026-06-01T12:00:00Z");
    final InMemoryCluster cluster = new InMemoryCluster();
    final Counting counted = new Counting(cluster);
    final InvocationReads reads = new InvocationReads(counted);

    @BeforeEach
    void scene() {
        cluster.putNode(new Node("node-a", "aws:///us-east-1a/i-a", Map.of(), Map.of(), List.of(), Resources.of(2000, 1L << 33),
                true, false, false, AT, List.of(), null));
        cluster.putPod(Pod.builder("default", "web-1").nodeName("node-a").requests(Resources.of(500, 1L << 30)).build());
    }

    @Test
    void readsEachWholeListOnceBetweenWritesWithinAnInvocation() {
        reads.during(() -> {
            reads.nodes();
            reads.pods();
            reads.nodes();
            return reads.pods();
        });

        assertThat(counted.pods).isEqualTo(1);
        assertThat(counted.nodes).isEqualTo(1);
    }

    @Test
    void aWriteDropsTheListsSoTheNextReadSeesIt() {
        List<Node> after = reads.during(() -> {
            reads.nodes();
            reads.pods();
            reads.patchNode("node-a", new NodePatch(Map.of("gantry.dev/x", "1"), null, null, null, null, null));
            reads.pods();
            return reads.nodes();
        });

        assertThat(after.getFirst().labels()).containsEntry("gantry.dev/x", "1");
        assertThat(counted.pods).isEqualTo(2);
        assertThat(counted.nodes).isEqualTo(2);
    }

    @Test
    void anEvictionOrDeletionDropsThemToo() {
        reads.during(() -> {
            reads.pods();
            reads.evict(cluster.pod("default/web-1"));
            reads.pods();
            reads.deleteNode("node-a");
            return reads.pods();
        });

        assertThat(counted.pods).isEqualTo(3);
    }

    @Test
    void aListReadWhileAWriteHappenedIsNotKept() {
        counted.duringPods = () -> reads.patchNode("node-a", new NodePatch(Map.of("gantry.dev/x", "1"), null, null, null, null, null));

        reads.during(() -> {
            reads.pods(); // a write lands while this list is read
            counted.duringPods = null;
            return reads.pods();
        });

        assertThat(counted.pods).isEqualTo(2);
    }

    @Test
    void outsideAnInvocationEveryReadGoesToTheCluster() {
        reads.pods();
        reads.pods();
        reads.nodes();
        reads.nodes();

        assertThat(counted.pods).isEqualTo(2);
        assertThat(counted.nodes).isEqualTo(2);
    }

    @Test
    void nothingIsKeptForTheNextInvocationEvenWhenOneFails() {
        reads.during(reads::pods);
        assertThatThrownBy(() -> reads.during(() -> {
            reads.pods();
            throw new IllegalStateException("step failed");
        })).hasMessage("step failed");
        reads.during(reads::pods);

        assertThat(counted.pods).isEqualTo(3);
    }

    @Test
    void anEventKeepsTheLists() {
        reads.during(() -> {
            reads.pods();
            reads.event("Node", null, "node-a", "Normal", "Seen", "seen");
            return reads.pods();
        });

        assertThat(counted.pods).isEqualTo(1);
    }

    /** Counts whole pod and node lists; {@code duringPods} runs inside a pod list (a write landing meanwhile). */
    static final class Counting implements ClusterReader, ClusterWriter {
        private final InMemoryCluster c;
        int pods;
        int nodes;
        Runnable duringPods;

        Counting(InMemoryCluster c) {
            this.c = c;
        }

        @Override
        public List<Pod> pods() {
            pods++;
            List<Pod> read = c.pods();
            if (duringPods != null) {
                duringPods.run();
            }
            return read;
        }

        @Override public List<Node> nodes() { nodes++; return c.nodes(); }
        @Override public List<Pod> podsOn(String node) { return c.podsOn(node); }
        @Override public Optional<Node> findNode(String name) { return c.findNode(name); }
        @Override public List<DaemonSet> daemonSets() { return c.daemonSets(); }
        @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return c.podDisruptionBudgets(); }
        @Override public Set<String> nodesWithVolumeAttachments() { return c.nodesWithVolumeAttachments(); }
        @Override public Map<String, Map<String, String>> namespaceLabels() { return c.namespaceLabels(); }
        @Override public void patchNode(String name, NodePatch patch) { c.patchNode(name, patch); }
        @Override public EvictionResult evict(Pod pod) { return c.evict(pod); }
        @Override public void deletePod(Pod pod) { c.deletePod(pod); }
        @Override public void deleteNode(String name) { c.deleteNode(name); }
        @Override public void event(String kind, String namespace, String name, String type, String reason, String message) {
            c.event(kind, namespace, name, type, reason, message);
        }
    }
}
