package dev.gantry.kube.objects.dump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.kube.objects.NodeMapper;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.KubeDump;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node repair reads a node's conditions with their {@code lastTransitionTime} (Karpenter's health controller counts
 * the toleration from it: core {@code pkg/controllers/node/health/controller.go}), so the one mapper every reader uses
 * ({@link NodeMapper}: dumps and the API alike) carries all of them, the node agent's as well as the kubelet's.
 */
class NodeConditionsMappingTest {
    @TempDir
    Path dir;

    @Test
    void aDumpedNodeCarriesEveryConditionWithItsTransitionTime() throws Exception {
        Instant kernel = DumpNode.NOW.minusSeconds(600);
        Instant readyAt = DumpNode.NOW.minusSeconds(3000);
        String yaml = new KubeDump().add(DumpNode.named("n1").readySince(readyAt)
                .condition("KernelReady", "False", kernel)).yaml();
        ClusterDump d = ClusterDump.read(List.of(Files.writeString(dir.resolve("c.yaml"), yaml)), DumpProgress.NONE);

        Node n = d.nodes().getFirst();
        assertThat(n.ready()).isTrue();
        assertThat(n.condition("Ready")).contains(new NodeCondition("Ready", "True", readyAt));
        assertThat(n.condition("KernelReady")).contains(new NodeCondition("KernelReady", "False", kernel));
        assertThat(n.conditions()).extracting(NodeCondition::type)
                .containsExactly("MemoryPressure", "DiskPressure", "PIDPressure", "Ready", "KernelReady");
    }

    @Test
    void aConditionWithoutAStatusReadsAsUnknownAndOneWithoutATypeIsSkipped() {
        var status = new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
                .addNewCondition().withType("Ready").endCondition()
                .addNewCondition().withStatus("False").endCondition().build();
        var node = new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("n").endMetadata()
                .withStatus(status).build();

        Node n = NodeMapper.node(node);
        assertThat(n.conditions()).containsExactly(new NodeCondition("Ready", "Unknown", null));
        assertThat(n.ready()).isFalse();
    }
}
