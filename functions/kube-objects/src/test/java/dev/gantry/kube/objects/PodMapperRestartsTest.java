package dev.gantry.kube.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.drift.rollout.CanaryPods;
import dev.gantry.core.model.Pod;
import dev.gantry.kube.objects.dump.ClusterDump;
import dev.gantry.kube.objects.dump.DumpProgress;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod's restarts as the kubelet reports them ({@code status.containerStatuses[].restartCount}, init containers'
 * too, and a container waiting in {@code CrashLoopBackOff}), read by the one pod mapper for the API and for dumps: what
 * an AMI rollout's canary is judged by (Gantry's own).
 */
class PodMapperRestartsTest {
    @TempDir
    Path dir;

    @Test
    void restartsOfEveryContainerAndInitContainerAreSummedAndTheBackOffSeen() throws Exception {
        io.fabric8.kubernetes.api.model.Pod raw;
        try (InputStream in = getClass().getResourceAsStream("/pods/crash-looping.json")) {
            raw = KubeJson.JSON.readValue(in, io.fabric8.kubernetes.api.model.Pod.class);
        }
        Pod p = PodMapper.pod(raw);
        assertThat(p.status().restarts()).isEqualTo(4); // migrate 1 + app 3 + proxy 0
        assertThat(p.status().crashLoopBackOff()).isTrue();
        assertThat(p.status().ready()).isFalse();
        assertThat(p.status().phase()).isEqualTo("Running");
        assertThat(CanaryPods.crashLooping(p)).isTrue();
    }

    @Test
    void aPodWithoutContainerStatusesHasNoRestarts() {
        io.fabric8.kubernetes.api.model.Pod raw = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("p").withNamespace("default").endMetadata().withNewStatus().withPhase("Pending").endStatus().build();
        Pod p = PodMapper.pod(raw);
        assertThat(p.status().restarts()).isZero();
        assertThat(p.status().crashLoopBackOff()).isFalse();
    }

    @Test
    void aDumpCarriesTheRestartsAsTheApiDoes() throws Exception {
        Path f = Files.writeString(dir.resolve("c.yaml"), new KubeDump().add(DumpNode.named("n1"))
                .add(DumpPod.named("web-1").on("n1").crashLooping(5))
                .add(DumpPod.named("web-2").on("n1"))
                .add(DumpPod.daemonSet("kube-system", "aws-node", "n1", "25m", "128Mi").crashLooping(2)).yaml());
        Map<String, Pod> pods = ClusterDump.read(List.of(f), DumpProgress.NONE).pods().stream()
                .collect(Collectors.toMap(Pod::name, Function.identity()));
        assertThat(pods.get("web-1").status().restarts()).isEqualTo(5);
        assertThat(pods.get("web-1").status().crashLoopBackOff()).isTrue();
        assertThat(pods.get("web-2").status().restarts()).isZero();
        assertThat(pods.get("web-2").status().crashLoopBackOff()).isFalse();
        Pod agent = pods.values().stream().filter(Pod::isDaemon).findFirst().orElseThrow();
        assertThat(agent.status().restarts()).isEqualTo(2);
        assertThat(agent.status().crashLoopBackOff()).isTrue();
    }
}
