package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.nodeClass;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.catalog.overlay.NodeOverlay;
import dev.gantry.core.catalog.overlay.PriceChange;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own rule (README, "Dollar limits"; kubernetes-sigs/karpenter#1215 asks for it): a NodePool's
 * {@code gantry.dev/limit-cost-per-hour} bounds what it runs and launches, counted like cpu and memory limits, at the
 * price scheduling sees (after NodeOverlays).
 */
class CostLimitTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    static NodePool limited(String dollars) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(),
                List.of(req(WellKnownLabels.CAPACITY_TYPE, "on-demand"), req(WellKnownLabels.INSTANCE_TYPE, "t4g.medium")),
                new NodePool.NodeClassRef(null, null, "default"), Optional.of(Duration.ofHours(720)), Optional.empty());
        return new NodePool("capped", Map.of(CostLimit.ANNOTATION, dollars), t, null, Map.of(), null, null);
    }

    private ProvisioningOutcome provision(String dollars, NodeOverlay... overlays) {
        for (int i = 0; i < 10; i++) {
            cluster.putPod(pending("w-" + i, 1500, 3000).build()); // one t4g.medium ($0.0336/h on-demand) each
        }
        GantryConfig config = new GantryConfig(List.of(limited(dollars)), List.of(nodeClass()), "test-1", List.of(ZONE_A, ZONE_B),
                List.of(overlays));
        return new Provisioner(cluster, cluster, store, cloud, provider(), config, clock).provision();
    }

    @Test
    void launchesStopAtTheLimitAndThePodsSayWhy() {
        ProvisioningOutcome o = provision("0.15"); // 4 x 0.0336 = 0.1344; a fifth would be 0.168
        assertThat(o.launched()).hasSize(4);
        assertThat(o.launched().stream().mapToDouble(ProvisioningOutcome.LaunchedClaim::pricePerHour).sum()).isLessThanOrEqualTo(0.15);
    }

    @Test
    void theLimitCountsWhatRunsAlready() {
        assertThat(provision("0.15").launched()).hasSize(4);
        // The same pods again, in a second run: the four claims in flight use up the limit.
        for (int i = 10; i < 12; i++) {
            cluster.putPod(pending("w-" + i, 1500, 3000).build());
        }
        clock.advance(Duration.ofSeconds(5));
        GantryConfig config = new GantryConfig(List.of(limited("0.15")), List.of(nodeClass()), "test-1", List.of(ZONE_A, ZONE_B));
        assertThat(new Provisioner(cluster, cluster, store, cloud, provider(), config, clock).provision().launched()).isEmpty();
    }

    @Test
    void theLimitIsCountedAtThePriceAfterOverlays() {
        NodeOverlay half = new NodeOverlay("discount", List.of(), PriceChange.adjustment("-50%", new String[1]), Map.of(), 1);
        assertThat(provision("0.15", half).launched()).hasSize(8); // 8 x 0.0168 = 0.1344
    }

    @Test
    void zeroLaunchesNothingAndAnInvalidValueLimitsNothing() {
        assertThat(provision("0").launched()).isEmpty();
        assertThat(CostLimit.limit(limited("$5"))).isEmpty();
    }
}
