package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A NodePool's cpu, memory and node limits count every claim the pool has in flight, also one whose type the pool's
 * NodeClass no longer lists: its instance runs all the same. The scheduler cannot plan onto such a claim, so it is left
 * out of the scheduler's in-flight claims, but not out of the count (it was: a pool at its limit launched past it).
 * Karpenter counts the NodeClaims a pool owns, by their capacity, whatever its requirements and NodeClass now say:
 * kubernetes-sigs/karpenter {@code pkg/controllers/state/cluster.go} NodePoolResourcesFor, checked against the limits
 * in {@code pkg/controllers/provisioning/scheduling/scheduler.go} (remaining resources per NodePool).
 */
class LimitsOwnedTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    /** A pool limited to 4 vCPU under a NodeClass that lists no m5; another pool keeps m5 in the configuration. */
    private int launches(Map<String, Quantity> limits) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(),
                List.of(req(WellKnownLabels.CAPACITY_TYPE, "on-demand")), new NodePool.NodeClassRef(null, null, "default"),
                Optional.of(Duration.ofHours(720)), Optional.empty());
        GantryConfig config = ProvisioningFixtures.withoutM5(new NodePool("capped", Map.of(), t, null, limits, null, null));
        InstanceTypeProvider types = ProvisioningFixtures.providerWithoutM5();
        NodeClaim c = store.create(NodeClaim.launching("capped-old", "capped", "h", List.of(), List.of("m5.xlarge"), List.of(),
                "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        store.update(c.launched("i-0009", "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        for (int i = 0; i < 4; i++) {
            cluster.putPod(pending("w-" + i, 1500, 3000).build());
        }
        return new Provisioner(cluster, cluster, store, cloud, types, config, clock).provision().launched().size();
    }

    @Test
    void aClaimInFlightWhoseTypeTheNodeClassDroppedCountsAgainstTheCpuLimit() {
        assertThat(launches(Map.of("cpu", Quantity.parse("4")))).isZero(); // its m5.xlarge's 4 vCPU use the whole limit
    }

    @Test
    void withRoomUnderTheLimitThePodsGetNodes() {
        assertThat(launches(Map.of("cpu", Quantity.parse("16")))).isPositive();
    }

    @Test
    void aClaimInFlightWhoseTypeTheNodeClassDroppedCountsAgainstTheNodeLimit() {
        assertThat(launches(Map.of("nodes", Quantity.parse("1")))).isZero();
    }
}
