package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.nodeClass;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A NodePool whose NodeClass cannot launch is left out of planning, so its pods go to the next pool by weight:
 * kubernetes-sigs/karpenter {@code pkg/controllers/provisioning/provisioner.go} ({@code NewScheduler}: "ignoring
 * nodepool, not ready") and, for static pools, {@code pkg/controllers/static/provisioning/controller.go}
 * ({@code Reconcile} returns while the NodePool is not Ready). Gantry asks the class's resolution in the run (Gantry's
 * own: no sweep's lag).
 */
class NodeClassGateTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);
    private final List<String> asked = new ArrayList<>();
    /** "broken" selects no AMI; every other class launches. */
    private final NodeClassGate gate = nc -> {
        asked.add(nc.name());
        return nc.name().equals("broken") ? Optional.of("no AMI matches") : Optional.empty();
    };

    private static NodeClass broken() {
        NodeClass d = nodeClass();
        return new NodeClass("broken", d.group(), d.kind(), d.amiFamily(), d.amiSelectorTerms(), d.subnetSelectorTerms(),
                d.securityGroupSelectorTerms(), d.role(), d.instanceProfile(), d.userData(), d.tags(), d.blockDeviceMappings(),
                d.metadataOptions(), d.kubelet(), d.associatePublicIPAddress(), d.detailedMonitoring(), d.convertedFrom(),
                d.capacityReservationSelectorTerms(), d.annotations());
    }

    /** A pool of weight {@code weight} on NodeClass {@code nodeClass}. */
    private static NodePool poolOn(String name, int weight, String nodeClass) {
        NodePool p = pool(name, weight, req(WellKnownLabels.CAPACITY_TYPE, "on-demand"));
        NodePool.Template t = p.template();
        return new NodePool(name, p.annotations(), new NodePool.Template(t.labels(), t.annotations(), t.taints(),
                t.startupTaints(), t.requirements(), new NodePool.NodeClassRef(null, null, nodeClass),
                t.expireAfter(), t.terminationGracePeriod()), p.disruption(), Map.of(), weight, null);
    }

    private static GantryConfig config(NodePool... pools) {
        return new GantryConfig(List.of(pools), List.of(nodeClass(), broken()), "test-1", List.of(ZONE_A, ZONE_B));
    }

    @Test
    @DisplayName("karpenter provisioner.go NewScheduler: the heavier pool's class cannot launch, so the pod goes to the lighter pool")
    void aPoolWhoseNodeClassCannotLaunchIsSkippedForTheNextByWeight() {
        cluster.putPod(pending("web", 500, 256).build());
        GantryConfig cfg = config(poolOn("first", 50, "broken"), poolOn("fallback", 10, "default"));

        ProvisioningOutcome out = new Provisioner(cluster, cluster, store, cloud, provider(), cfg, clock)
                .withNodeClassGate(gate).provision();

        assertThat(out.launched()).hasSize(1);
        assertThat(store.list(T0)).extracting(NodeClaim::nodePool).containsExactly("fallback");
        assertThat(asked).containsExactlyInAnyOrder("broken", "default"); // each class asked once in the run
    }

    @Test
    @DisplayName("without the gate (Gantry before the fix) the heavier, broken pool takes the pod")
    void withoutTheGateTheBrokenPoolIsChosen() {
        cluster.putPod(pending("web", 500, 256).build());
        GantryConfig cfg = config(poolOn("first", 50, "broken"), poolOn("fallback", 10, "default"));

        new Provisioner(cluster, cluster, store, cloud, provider(), cfg, clock).provision();

        assertThat(store.list(T0)).extracting(NodeClaim::nodePool).containsExactly("first");
    }

    @Test
    void aRunWithNothingPendingAsksNoClass() {
        new Provisioner(cluster, cluster, store, cloud, provider(), config(poolOn("first", 50, "broken")), clock)
                .withNodeClassGate(gate).provision();
        assertThat(asked).isEmpty();
    }

    @Test
    void consolidationIsOfferedOnlyThePoolsThatCanLaunch() {
        GantryConfig cfg = config(poolOn("first", 50, "broken"), poolOn("fallback", 10, "default"));
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, provider(), cfg, clock).withNodeClassGate(gate);
        assertThat(p.poolOffers(ClusterView.read(cluster), T0)).extracting(o -> o.pool().name()).containsExactly("fallback");
    }

    @Test
    @DisplayName("karpenter static/provisioning/controller.go Reconcile: a static pool that is not ready makes no NodeClaim")
    void aStaticPoolWhoseNodeClassCannotLaunchRecordsNoClaim() {
        NodePool fixed = poolOn("fixed", 10, "broken");
        fixed = new NodePool(fixed.name(), fixed.annotations(), fixed.template(), fixed.disruption(), Map.of(), null, null, 2);
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, provider(), config(fixed), clock).withNodeClassGate(gate);

        assertThat(p.recordFromTemplate(fixed, "fixed-static-x-0", T0)).isEmpty();
        assertThat(store.list(T0)).isEmpty();
    }
}
