package dev.gantry.core.headroom;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static dev.gantry.core.lifecycle.LifecycleFixtures.initialized;
import static dev.gantry.core.lifecycle.LifecycleFixtures.pod;
import static dev.gantry.core.lifecycle.LifecycleFixtures.poolWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.DisruptionCommand;
import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BufferRoomTest {
    private static final NodePool POOL = poolWith("p", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty,
            Optional.of(Duration.ofSeconds(30)), List.of(NodePool.Budget.DEFAULT)), Optional.empty(), Optional.empty(), Map.of());

    /** {@code n} virtual pods of {@code cpu} millicores (nodes of the fixtures have 2000m). */
    private static List<Pod> chunks(int n, long cpu) {
        Pod template = Pod.builder("default", "chunk").requests(Resources.of(cpu, 1L << 30)).build();
        CapacityBuffer b = new CapacityBuffer("default", "warm", new CapacityBuffer.PodTemplateRef("chunk"), n, null, Map.of(),
                null, null, null);
        return BufferPods.expand(b, BufferTargets.of(List.of(new BufferTargets.Target("default", "PodTemplate", "chunk",
                template, 0))), T0, Duration.ZERO).pods();
    }

    /** The fixtures' Ready 2-cpu node, taking up to 110 pods. */
    private static Node node(String claim, String pool) {
        Node n = dev.gantry.core.lifecycle.LifecycleFixtures.node(claim, pool);
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(),
                n.allocatable().with(Resources.PODS, 110), n.ready(), n.unschedulable(), n.deleting(), n.createdAt(),
                n.finalizers(), n.deletionTimestamp());
    }

    private static Node markedEmpty(Node n) {
        Map<String, String> l = new HashMap<>(n.labels());
        l.put(DisruptionDecision.EMPTY_SINCE, Long.toString(T0.minusSeconds(600).getEpochSecond()));
        return new Node(n.name(), n.providerId(), l, n.annotations(), n.taints(), n.allocatable(), n.ready(), n.unschedulable(),
                n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp());
    }

    private static Pod busy(String name, String node, long cpu) {
        return pod(name, node).toBuilder().requests(Resources.of(cpu, 1L << 30)).build();
    }

    @Test
    void anEmptyNodeThatHoldsABuffersChunkIsNotEmptyForEmptinessAndLosesItsMark() {
        Node a = markedEmpty(node("a", "p"));
        BufferRoom room = BufferRoom.of(chunks(1, 1500), List.of(a), Map.of());
        assertThat(room.holders()).containsExactly("node-a");
        assertThat(room.unplaced()).isEmpty();

        var candidates = List.of(new DisruptionDecision.Candidate(initialized("a", "p"), a, List.of()));
        assertThat(DisruptionDecision.decide(Map.of("p", POOL), candidates, room.holders()::contains, T0))
                .containsExactly(new DisruptionCommand.SetEmptySince("node-a", null));
        // Without the buffer the same node goes: the rule is what keeps it.
        assertThat(DisruptionDecision.decide(Map.of("p", POOL), candidates, n -> false, T0))
                .containsExactly(DisruptionCommand.Disrupt.outright("a", "empty"));
    }

    @Test
    void ofTwoEmptyNodesOnlyTheOneTheBufferNeedsStaysAndItIsTheOneNotYetMarkedEmpty() {
        Node a = markedEmpty(node("a", "p"));
        Node b = node("b", "p");
        BufferRoom room = BufferRoom.of(chunks(1, 1500), List.of(a, b), Map.of());

        assertThat(room.holders()).containsExactly("node-b");
    }

    @Test
    void slackOnANodeRunningRealPodsHoldsTheBufferFirstSoAnEmptyNodeCanGo() {
        Node a = markedEmpty(node("a", "p"));
        Node busyNode = node("z", "p");
        BufferRoom room = BufferRoom.of(chunks(1, 1000), List.of(a, busyNode),
                Map.of("node-z", List.of(busy("web", "node-z", 800))));

        assertThat(room.holders()).containsExactly("node-z");
    }

    @Test
    void chunksTheNodesHaveNoRoomForAreUnplacedAndEveryNodeThatTookOneHoldsTheBuffer() {
        BufferRoom room = BufferRoom.of(chunks(3, 1500), List.of(node("a", "p"), node("b", "p")), Map.of());

        assertThat(room.holders()).containsExactlyInAnyOrder("node-a", "node-b");
        assertThat(room.unplaced()).hasSize(1).allMatch(BufferPods::isVirtual);
    }

    @Test
    void noBuffersNoHolders() {
        assertThat(BufferRoom.of(List.of(), List.of(node("a", "p")), Map.of())).isEqualTo(BufferRoom.NONE);
    }
}
