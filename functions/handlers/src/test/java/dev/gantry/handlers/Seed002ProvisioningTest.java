package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.testing.Events;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 002 end to end through the provisioning service: its YAML, its Deployment, the built-in catalogue. */
class Seed002ProvisioningTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> ZONES = List.of("ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c");

    private static LoadResult load(String relative) {
        Path samples = Events.root().getParent().resolve("samples");
        LoadResult r = ConfigLoader.load(List.of(samples.resolve(relative)), LoadOptions.DEFAULT);
        assertThat(r.errors()).isEmpty();
        return r;
    }

    @Test
    void seed002DeploymentLandsOnOneT4gSpotNodeInZoneAOrB() {
        LoadResult pools = load("nodepools/seed002-v1.yaml");
        LoadResult workload = load("workloads/seed002-nginx.yaml");
        GantryConfig config = new GantryConfig(pools.nodePools(), pools.nodeClasses(), "ap-northeast-2", ZONES);
        InMemoryCluster cluster = new InMemoryCluster();
        for (Pod p : workload.pods()) {
            cluster.putPod(p.toBuilder().status(new Pod.Status("Pending", true, NOW, null, null)).build());
        }
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        FirstOfferingCloud cloud = new FirstOfferingCloud();
        Provisioner provisioner = new Provisioner(cluster, cluster, store, cloud, BuiltInCatalog.load("ap-northeast-2", ZONES),
                config, Clock.fixed(NOW, ZoneOffset.UTC));

        ProvisioningOutcome out = provisioner.provision();

        assertThat(out.pendingPods()).isEqualTo(3);
        assertThat(out.unschedulable()).isEmpty();
        assertThat(out.launched()).singleElement().satisfies(l -> {
            assertThat(l.nodePool()).isEqualTo("seed002-node-pool");
            assertThat(l.instanceType()).startsWith("t4g.");
            assertThat(l.capacityType()).isEqualTo("spot");
            assertThat(l.zone()).isIn("ap-northeast-2a", "ap-northeast-2b");
        });
        assertThat(cloud.requests).singleElement().satisfies(r -> {
            assertThat(r.options()).allSatisfy(t -> assertThat(t.name()).startsWith("t4g."));
            assertThat(r.labels()).containsEntry("scope", "karpenter-service")
                    .containsEntry(WellKnownLabels.NODEPOOL, "seed002-node-pool")
                    .containsEntry(WellKnownLabels.CAPACITY_TYPE, "spot")
                    .containsEntry(WellKnownLabels.ARCH, "arm64");
            assertThat(r.nodeClass().name()).isEqualTo("seed002");
        });
        assertThat(store.list(NOW)).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(NodeClaimState.Launched);
            assertThat(c.pods()).hasSize(3);
        });
        assertThat(out.nominations()).hasSize(3);
    }
}
