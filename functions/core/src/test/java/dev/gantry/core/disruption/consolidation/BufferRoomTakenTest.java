package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.command;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A buffer's virtual pods hold no room in the cluster, so kube-scheduler puts a moved pod into the buffer's room (the
 * emptiest node) rather than onto the small replacement planned for it: the replacement stands empty and the buffer is
 * launched again. Consolidation plans the move as it will happen ({@link BufferRoomTaken}).
 */
class BufferRoomTakenTest {
    private final TestCluster c = TestCluster.standard();

    /** A buffer's chunk of {@code cpuMillis}, not bound: the sweep's virtual pod. */
    private static Pod chunk(long cpuMillis) {
        return Pod.builder("default", "buffer-chunk-0").labels(Map.of("app", "buffer")).owner("CapacityBuffer", "web")
                .requests(Resources.of(cpuMillis, 512 * TestCluster.MI)).build();
    }

    private ConsolidationDecision decideWith(Pod... buffers) {
        ConsolidationInput in = c.input();
        return Consolidation.decide(new ConsolidationInput(in.nodes(), in.pools(), in.daemonSets(), in.pdbs(),
                in.namespaceLabels(), in.settings(), in.now(), List.of(buffers), in.only(), in.inFlight()));
    }

    @Test
    @DisplayName("a node whose pod would take the buffer's room is not replaced by a small node for the pod")
    void noSmallReplacementWhenThePodWillTakeTheBuffersRoom() {
        c.node("b", "large");                    // the buffer's node: no real pod
        c.node("a", "large", c.pod(500));        // one pod, room on b only where the buffer is

        ConsolidationDecision before = c.decide();  // without the buffer, a's pod simply moves to b
        assertThat(command(before).isDelete()).isTrue();

        ConsolidationDecision d = decideWith(chunk(1800));

        // As planned before: replace a ($0.10) by a small ($0.05) for its pod. kube-scheduler would put the pod on b,
        // whose 1.8 vCPU of buffer then needs a large: nothing saved.
        assertThat(d.command()).as("verdicts %s", d.verdicts()).isEmpty();
    }

    @Test
    @DisplayName("a move that still saves when the pod takes the buffer's room launches what the buffer needs")
    void theReplacementIsSizedForTheBufferItPushesOut() {
        c.node("b", "large");
        c.node("a", "xlarge", c.pod(500));

        ConsolidationCommand cmd = command(decideWith(chunk(1800)));

        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> assertThat(r.instanceType().name()).isEqualTo("large"));
        assertThat(cmd.destinations()).containsEntry("default/pod-1", "b");
    }

    @Test
    @DisplayName("a delete whose pods fit outside the buffer's room is planned as before")
    void aDeleteIsUnchanged() {
        c.node("b", "large");
        c.node("a", "large", c.pod(500));

        ConsolidationCommand cmd = command(decideWith(chunk(1000)));

        assertThat(cmd.isDelete()).isTrue();
        assertThat(cmd.destinations()).containsEntry("default/pod-1", "b");
    }
}
