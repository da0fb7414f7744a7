package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Static NodePools in the provisioner: claims by count from the template, never for pending pods. */
class StaticPoolProvisioningTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    static NodePool staticPool(String name, int replicas) {
        NodePool p = pool(name, null, req(WellKnownLabels.CAPACITY_TYPE, "on-demand"));
        return new NodePool(p.name(), p.annotations(), p.template(), p.disruption(), Map.of(), null, null, replicas);
    }

    @Test
    void aPendingPodThatOnlyAStaticPoolCouldTakeLaunchesNothing() {
        // Karpenter core pkg/controllers/provisioning/provisioner.go: static NodePools are left out of scheduling.
        cluster.putPod(pending("web", 500, 256).build());
        ProvisioningOutcome out = new Provisioner(cluster, cluster, store, cloud, provider(), config(staticPool("fixed", 2)), clock)
                .provision();
        assertThat(out.launched()).isEmpty();
        assertThat(cloud.requests()).isEmpty();
    }

    @Test
    void aTemplateClaimIsRecordedWithTheCheapestAllowedOfferingAndLaunchedByTheNextRun() {
        // Karpenter core pkg/controllers/static/provisioning/controller.go: NodeClaims from NewNodeClaimTemplate(np).
        NodePool fixed = staticPool("fixed", 1);
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, provider(), config(fixed), clock);

        NodeClaim c = p.recordFromTemplate(fixed, "fixed-static-x-0", T0).orElseThrow();
        assertThat(p.recordFromTemplate(fixed, "fixed-static-x-0", T0)).contains(c); // a second delivery gets it back

        assertThat(c.state()).isEqualTo(NodeClaimState.Launching);
        assertThat(c.pods()).isEmpty();
        assertThat(c.capacityType()).isEqualTo("on-demand");
        assertThat(c.instanceTypeOptions().getFirst()).isEqualTo(c.instanceType());
        assertThat(c.drift()).isNotNull();
        p.provision();
        assertThat(store.get("fixed-static-x-0", T0).orElseThrow().state()).isEqualTo(NodeClaimState.Launched);
        assertThat(cloud.requests()).singleElement().satisfies(r -> assertThat(r.clientToken()).isEqualTo("fixed-static-x-0"));
    }

    /**
     * Karpenter core {@code pkg/controllers/provisioning/provisioner.go} ({@code NewScheduler}): static NodePools are left
     * out of the pools that may make new NodeClaims, but their nodes and NodeClaims in flight are cluster state, so the
     * scheduling simulation places pending pods on them.
     */
    @Test
    void aStaticClaimInFlightTakesAPendingPodThatFitsAndNothingElseLaunches() {
        NodePool fixed = staticPool("fixed", 1);
        NodePool dynamic = pool("general", null, req(WellKnownLabels.CAPACITY_TYPE, "on-demand"));
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, provider(), config(fixed, dynamic), clock);
        p.recordFromTemplate(fixed, "fixed-static-x-0", T0).orElseThrow();
        p.provision(); // launches the static claim; it is in flight until its node registers
        int launches = cloud.requests().size();

        cluster.putPod(pending("web", 100, 64).build());
        ProvisioningOutcome out = p.provision();

        assertThat(out.launched()).isEmpty();
        assertThat(cloud.requests()).hasSize(launches);
        assertThat(out.nominations()).containsEntry("default/web", "fixed-static-x-0");
    }
}
