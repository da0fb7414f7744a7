package dev.gantry.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
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
}
