package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.catalogue;
import static dev.gantry.core.provisioning.ProvisioningFixtures.nodeClass;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dollar limit counts what the pool owns at what it costs ({@code CostLimit}'s rule): a node whose type or offering
 * its pool's types no longer list keeps billing, so it still counts, at the catalogue's price for it, never $0, and a
 * launch that would take the pool past its limit is refused. Karpenter counts a pool's cpu/memory over the nodes it owns
 * whether or not its requirements still match them: kubernetes-sigs/karpenter
 * {@code pkg/controllers/nodepool/counter/controller.go} Reconcile ({@code status.resources} from
 * {@code pkg/controllers/state/cluster.go} NodePoolResourcesFor).
 *
 * <p>The pool ("capped", $0.15/h) launches on-demand t4g.medium at $0.0336/h: four fit the limit on their own, one
 * beside a running m5.large ($0.096/h).
 */
class CostLimitOwnedTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    private void running(String type, String zone, String capacityType) {
        running(type, zone, capacityType, Map.of("gantry.dev/nodeclaim", "capped-old"));
    }

    private void running(String type, String zone, String capacityType, Map<String, String> more) {
        Map<String, String> labels = new java.util.HashMap<>(Map.of(WellKnownLabels.NODEPOOL, "capped", WellKnownLabels.INSTANCE_TYPE, type,
                WellKnownLabels.ZONE, zone, WellKnownLabels.CAPACITY_TYPE, capacityType));
        labels.putAll(more);
        cluster.putNode(new Node("ip-10-0-0-9", "aws:///" + zone + "/i-0009", labels,
                Map.of(), List.of(), new Resources(500, 1L << 30, 100L << 30, 110, Map.of()), true, false, false, T0));
    }

    private int launches(GantryConfig config, InstanceTypeProvider types) {
        for (int i = 0; i < 10; i++) {
            cluster.putPod(pending("w-" + i, 1500, 3000).build());
        }
        return new Provisioner(cluster, cluster, store, cloud, types, config, clock).provision().launched().size();
    }

    private int launches() {
        return launches(new GantryConfig(List.of(CostLimitTest.limited("0.15")), List.of(nodeClass()), "test-1",
                List.of(ZONE_A, ZONE_B)), provider());
    }

    /** The pool's requirements allow only t4g.medium; its running m5.large still counts at $0.096/h. */
    @Test
    void aNodeThePoolsRequirementsNoLongerAllowCountsAtItsPrice() {
        running("m5.large", ZONE_A, "on-demand");
        assertThat(launches()).isEqualTo(1);
    }

    /**
     * The pool's NodeClass no longer offers m5.large (another NodeClass still does): the node counts at the catalogue's
     * price for its offering, and the launches that would take the pool past $0.15/h are refused.
     */
    @Test
    void aNodeWhoseTypeThePoolsNodeClassNoLongerListsCountsAtTheCataloguesPrice() {
        running("m5.large", ZONE_A, "on-demand");
        GantryConfig config = ProvisioningFixtures.withoutM5(CostLimitTest.limited("0.15"));
        InstanceTypeProvider types = ProvisioningFixtures.providerWithoutM5();
        assertThat(launches(config, types)).isEqualTo(1);
    }

    /** The node runs in a zone the catalogue does not offer (any more): it counts at m5.large's dearest, $0.096/h. */
    @Test
    void aNodeWhoseZoneIsGoneCountsAtItsTypesDearestOffering() {
        running("m5.large", "test-1c", "spot");
        assertThat(launches()).isEqualTo(1);
    }

    /** A capacity type the catalogue does not offer (a reservation ended): m5.large's dearest offering again. */
    @Test
    void aNodeWhoseCapacityTypeIsGoneCountsAtItsTypesDearestOffering() {
        running("m5.large", ZONE_A, "reserved");
        assertThat(launches()).isEqualTo(1);
    }

    /** A type the catalogue does not know counts at the price its NodeClaim recorded at launch ($0.10/h): one more. */
    @Test
    void aNodeOfAnUnknownTypeCountsAtItsClaimsLaunchPrice() {
        running("x9.huge", ZONE_A, "on-demand");
        store.create(NodeClaim.launching("capped-old", "capped", "h", List.of(), List.of("x9.huge"), List.of(), "x9.huge",
                ZONE_A, "on-demand", 0.10, T0.minusSeconds(3600)).launched("i-0009", "x9.huge", ZONE_A, "on-demand", 0.10,
                T0.minusSeconds(3590)));
        assertThat(launches()).isEqualTo(1);
    }

    /**
     * The same node without the {@code gantry.dev/nodeclaim} label (a node registered before the label was written, say):
     * it is its claim's node by its instance id, as everywhere else ({@code ClaimsByNode}), so it counts at the claim's
     * launch price too.
     */
    @Test
    void aNodeKnownByItsInstanceIdCountsAtItsClaimsLaunchPrice() {
        running("x9.huge", ZONE_A, "on-demand", Map.of());
        store.create(NodeClaim.launching("capped-old", "capped", "h", List.of(), List.of("x9.huge"), List.of(), "x9.huge",
                ZONE_A, "on-demand", 0.10, T0.minusSeconds(3600)).launched("i-0009", "x9.huge", ZONE_A, "on-demand", 0.10,
                T0.minusSeconds(3590)));
        assertThat(launches()).isEqualTo(1);
    }

    /**
     * A claim in flight of a type its pool's types no longer list: nothing can be planned onto it, so the scheduler's
     * input leaves it out, but its instance bills; it counts at its recorded price ($0.10/h), and one more fits.
     */
    @Test
    void aClaimInFlightTheInputLeavesOutCountsAtItsRecordedPrice() {
        NodeClaim c = store.create(NodeClaim.launching("capped-old", "capped", "h", List.of(), List.of("x9.huge"), List.of(),
                "x9.huge", ZONE_A, "on-demand", 0.10, T0));
        store.update(c.launched("i-0009", "x9.huge", ZONE_A, "on-demand", 0.10, T0));
        assertThat(launches()).isEqualTo(1);
    }

    /** Without a claim, a type the catalogue does not know counts at the dearest the pool's requirements allow ($0.0336/h). */
    @Test
    void aNodeOfAnUnknownTypeCountsAtTheDearestThePoolWouldLaunch() {
        running("x9.huge", ZONE_A, "on-demand");
        assertThat(launches()).isEqualTo(3);
    }
}
