package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.nodeClass;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * NodeOverlays reach scheduling and consolidation through one view ({@link PriceView}): the provisioner launches by
 * overlay prices, and the pools consolidation decides over ({@link Provisioner#poolOffers}) carry them. Karpenter
 * v1.14.1: the overlay store is applied to the instance types every scheduling simulation uses
 * (kubernetes-sigs/karpenter {@code pkg/controllers/nodeoverlay/store.go} ApplyAll; docs {@code concepts/nodeoverlays.md}:
 * simulation only, not billing).
 */
class OverlayPricesTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);
    private static final NodePool ON_DEMAND = pool("od", null, req(WellKnownLabels.CAPACITY_TYPE, "on-demand"));

    static GantryConfig config(NodeOverlay... overlays) {
        return new GantryConfig(List.of(ON_DEMAND), List.of(nodeClass()), "test-1", List.of(ZONE_A, ZONE_B), List.of(overlays));
    }

    static NodeOverlay amd64Discount() {
        // m5.large lists at 0.096 against t4g.medium's 0.0336: a committed-use discount the list price does not show.
        return new NodeOverlay("savings-plan", List.of(req(WellKnownLabels.INSTANCE_TYPE, "m5.large")),
                PriceChange.price("0.01", new String[1]), Map.of(), 10);
    }

    @Test
    void withoutAnOverlayTheListPriceDecides() {
        cluster.putPod(pending("web-0", 1500, 3000).build());
        var launched = new Provisioner(cluster, cluster, store, cloud, provider(), config(), clock).provision().launched();
        assertThat(launched).singleElement().satisfies(c -> assertThat(c.instanceType()).isEqualTo("t4g.medium"));
    }

    @Test
    void anOverlayPriceMovesTheLaunch() {
        cluster.putPod(pending("web-0", 1500, 3000).build());
        var launched = new Provisioner(cluster, cluster, store, cloud, provider(), config(amd64Discount()), clock).provision().launched();
        assertThat(launched).singleElement().satisfies(c -> assertThat(c.instanceType()).isEqualTo("m5.large"));
    }

    @Test
    void aClaimLaunchedByAnOverlayPriceRecordsWhatEc2Bills() {
        // Overlays decide, they do not bill: the claim (and so gantry status, the NodePool's cost and its metric) carries
        // m5.large's list price, not the overlay's $0.01. Regression: the overlay price was recorded on the claim.
        cluster.putPod(pending("web-0", 1500, 3000).build());
        var launched = new Provisioner(cluster, cluster, store, cloud, provider(), config(amd64Discount()), clock).provision().launched();
        assertThat(launched).singleElement().satisfies(c -> assertThat(c.pricePerHour()).isEqualTo(0.096));
        assertThat(store.list(T0)).singleElement().satisfies(c -> assertThat(c.pricePerHour()).isEqualTo(0.096));
    }

    @Test
    void consolidationSeesTheOverlayPrices() {
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, provider(), config(amd64Discount()), clock);
        List<SchedulingInput.PoolOffer> offers = p.poolOffers(ClusterView.read(cluster), T0);
        InstanceType m5 = offers.getFirst().instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
        assertThat(m5.offerings()).allSatisfy(o -> assertThat(o.pricePerHour()).isEqualTo(0.01));
        // The provider, which billing-side readers use, still lists m5.large at its list price.
        assertThat(provider().instanceTypes(nodeClass()).stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow()
                .offerings().getFirst().pricePerHour()).isEqualTo(0.096);
        assertThat(Set.copyOf(offers.getFirst().instanceTypes().stream().map(InstanceType::name).toList()))
                .contains("t4g.small", "m5.xlarge");
    }
}
