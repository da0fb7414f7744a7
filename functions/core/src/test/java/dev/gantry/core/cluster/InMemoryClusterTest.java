package dev.gantry.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InMemoryClusterTest {
    private static Pod pod(String name, String node) {
        return Pod.builder("default", name).nodeName(node).build();
    }

    @Test
    void podsOnFollowsBindingsRebindingsAndRemovals() {
        InMemoryCluster c = new InMemoryCluster();
        c.putPod(pod("a", "n1"));
        c.putPod(pod("b", "n1"));
        c.putPod(pod("c", null));
        assertThat(c.podsOn("n1")).extracting(Pod::name).containsExactly("a", "b");
        c.putPod(pod("b", "n2"));
        c.putPod(pod("c", "n1"));
        assertThat(c.podsOn("n1")).extracting(Pod::name).containsExactly("a", "c");
        assertThat(c.podsOn("n2")).extracting(Pod::name).containsExactly("b");
        c.evict(pod("a", "n1"));
        c.deletePod(pod("c", "n1"));
        c.removePod("default/b");
        assertThat(c.podsOn("n1")).isEmpty();
        assertThat(c.podsOn("n2")).isEmpty();
        assertThat(c.pods()).isEmpty();
    }

    @Test
    void theSnapshotAndVersionChangeWithEveryPodWriteOnly() {
        InMemoryCluster c = new InMemoryCluster();
        c.putPod(pod("a", null));
        long v = c.version();
        var snapshot = c.pods();
        assertThat(c.pods()).isSameAs(snapshot);
        c.event("Pod", "default", "a", "Normal", "Seen", "nothing changes");
        assertThat(c.version()).isEqualTo(v);
        c.putPod(pod("a", "n1"));
        assertThat(c.version()).isGreaterThan(v);
        assertThat(c.pods()).isNotSameAs(snapshot).extracting(Pod::nodeName).containsExactly("n1");
        assertThat(snapshot).extracting(Pod::nodeName).containsOnlyNulls();
    }

    /**
     * The API server validates the Node a patch makes and refuses the whole patch: the in-memory cluster accepted any
     * label or annotation, so a Gantry write the real server would refuse (422) passed in the simulator.
     */
    @Test
    void aNodePatchTheApiServerWouldRefuseIsRefusedWholeWith422() {
        InMemoryCluster c = new InMemoryCluster();
        c.putNode(new Node("n1", null, Map.of("team", "web"), Map.of(), List.of(), Resources.ZERO, true, false, false, Instant.EPOCH));
        NodePatch badKey = new NodePatch(Map.of("ok", "yes"), null, null, null, null, null, null,
                Map.of("not a key", "v"));
        NodePatch badValue = NodePatch.labels(Map.of("team", "a value with spaces"));
        NodePatch tooBig = new NodePatch(null, null, null, null, null, null, null, Map.of("example.com/blob", "x".repeat(256 * 1024)));
        for (NodePatch p : List.of(badKey, badValue, tooBig)) {
            assertThatThrownBy(() -> c.patchNode("n1", p)).isInstanceOfSatisfying(ClusterException.class,
                    e -> assertThat(e.getMessage()).contains("is invalid"));
        }
        assertThat(c.node("n1").labels()).as("nothing of a refused patch applied").containsExactly(Map.entry("team", "web"));
        assertThat(c.node("n1").annotations()).isEmpty();
        c.patchNode("n1", new NodePatch(Map.of("team", "db"), null, null, null, null, null, null, Map.of("example.com/x", "any value at all")));
        assertThat(c.node("n1").annotations()).containsEntry("example.com/x", "any value at all");
    }
}
