package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The live path reads a pod's restarts as a dump does (one mapper): created in the CRUD mock server with the status the
 * kubelet writes for a crash-looping container, read back through {@link KubeCluster} (Gantry's own canary evidence).
 */
class KubeClusterPodRestartsTest {
    static MockApi api;

    @BeforeAll
    static void start() {
        api = new MockApi();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @Test
    void aCrashLoopingPodIsReadWithItsRestartsAndItsBackOff() {
        api.client.resource(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("shop").endMetadata()
                .withNewSpec().withNodeName("node-1").addNewContainer().withName("w").withImage("w").endContainer()
                .addNewContainer().withName("s").withImage("s").endContainer().endSpec()
                .withNewStatus().withPhase("Running")
                .addToContainerStatuses(new ContainerStatusBuilder().withName("w").withRestartCount(4).withReady(false)
                        .withNewState().withNewWaiting().withReason("CrashLoopBackOff")
                        .withMessage("back-off 1m20s restarting failed container=w").endWaiting().endState().build())
                .addToContainerStatuses(new ContainerStatusBuilder().withName("s").withRestartCount(1).withReady(true)
                        .withNewState().withNewRunning().withStartedAt("2026-12-05T10:00:00Z").endRunning().endState().build())
                .endStatus().build()).create();
        Pod p = api.cluster(Clock.systemUTC()).pods().stream().filter(x -> x.name().equals("web-0")).findFirst().orElseThrow();
        assertThat(p.status().restarts()).isEqualTo(5);
        assertThat(p.status().crashLoopBackOff()).isTrue();
    }
}
