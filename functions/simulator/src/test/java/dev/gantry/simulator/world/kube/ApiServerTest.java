package dev.gantry.simulator.world.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiServerTest {
    final InMemoryCluster cluster = new InMemoryCluster();
    final List<String> checked = new ArrayList<>();
    final ApiServer api = new ApiServer(cluster, Clock.fixed(Instant.parse("2025-06-01T00:00:00Z"), ZoneOffset.UTC),
            new ApiServer.Observer() {
                public void evicting(Pod pod, List<PodDisruptionBudget> pdbs) { checked.add(pod.key()); }
                public void evicted(Pod pod) { }
                public void event(String kind, String name, String type, String reason, String message) { }
            });

    @Test
    void anEvictionThePdbRefusesIsNotCheckedAsAViolationButOneItAllowsIs() {
        Pod web = Pod.builder("default", "web-1").nodeName("n1").labels(Map.of("app", "web")).owner("ReplicaSet", "web")
                .status(new Pod.Status("Running", false, Instant.EPOCH, null, null)).build();
        cluster.putPod(web);
        cluster.putPdb(new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), "1", null, 0));

        assertThat(api.evict(web)).isEqualTo(EvictionResult.BLOCKED_BY_PDB);
        assertThat(checked).as("refused with 429: nothing was evicted").isEmpty();

        cluster.putPdb(new PodDisruptionBudget("default", "web", LabelSelector.of(Map.of("app", "web")), "1", null, 1));
        assertThat(api.evict(web)).isEqualTo(EvictionResult.EVICTED);
        assertThat(checked).containsExactly("default/web-1");
    }
}
