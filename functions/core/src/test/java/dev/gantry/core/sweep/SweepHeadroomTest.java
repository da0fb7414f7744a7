package dev.gantry.core.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepHeadroomTest {
    /** {@code chunks} virtual pods of 1500m, always wanted. */
    private static Headroom buffer(int chunks) {
        Pod template = Pod.builder("default", "chunk").requests(Resources.of(1500, 1L << 30)).build();
        BufferTargets targets = BufferTargets.of(List.of(new BufferTargets.Target("default", "PodTemplate", "chunk", template, 0)));
        CapacityBuffer b = new CapacityBuffer("default", "warm", new CapacityBuffer.PodTemplateRef("chunk"), chunks, null,
                Map.of(), null, null, null);
        return now -> HeadroomPlan.of(List.of(b), targets, DemandHistory.EMPTY, now, Duration.ZERO);
    }

    /** A Gantry node of 2 cpu that takes pods (the fixtures' node, with a pod capacity). */
    private static void addNode(LifecycleWorld w, String name) {
        w.addNode(name, "default");
        Node n = LifecycleFixtures.node(name, "default");
        w.cluster.putNode(new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(),
                n.allocatable().with(Resources.PODS, 110), n.ready(), n.unschedulable(), n.deleting(), n.createdAt(),
                n.finalizers(), n.deletionTimestamp()));
    }

    @Test
    void emptinessKeepsTheNodeABufferNeedsAndRemovesTheOneItDoesNot() {
        LifecycleWorld w = new LifecycleWorld(SweepServiceTest.whenEmpty30s());
        w.sweep.withHeadroom(buffer(1));
        addNode(w, "a");
        addNode(w, "b");
        w.sweep.sweep();
        w.clock.advance(Duration.ofSeconds(30));

        assertThat(w.sweep.sweep().disrupted()).isEqualTo(1);
        w.clock.advance(Duration.ofMinutes(5));
        assertThat(w.sweep.sweep().disrupted()).isZero();
        assertThat(w.cloud.terminated).hasSize(1);
        assertThat(w.hints.sent).as("the buffer has its room: nothing to provision").isEmpty();
    }

    @Test
    void aBufferTheNodesHaveNoRoomForGetsABackstopHintWithoutAnyPendingPod() {
        LifecycleWorld w = new LifecycleWorld(SweepServiceTest.quiet());
        w.sweep.withHeadroom(buffer(2));
        addNode(w, "a"); // room for one chunk of the two

        assertThat(w.sweep.sweep().backstopHint()).isTrue();
        assertThat(w.hints.sent).containsExactly("backstop default/warm-buffer-1");
        w.clock.advance(Duration.ofSeconds(30));
        assertThat(w.sweep.sweep().backstopHint()).isFalse(); // at most once per Backstop.AFTER, as for real pods
    }

    @Test
    void whenTheHeadroomCannotBeReadNoNodeIsRemovedAsEmpty() {
        LifecycleWorld w = new LifecycleWorld(SweepServiceTest.whenEmpty30s());
        w.sweep.withHeadroom(now -> {
            throw new IllegalStateException("list capacitybuffers failed (503)");
        });
        addNode(w, "a");
        w.sweep.sweep();
        w.clock.advance(Duration.ofMinutes(5));

        assertThat(w.sweep.sweep().disrupted()).isZero();
        assertThat(w.cloud.terminated).isEmpty();
    }
}
