package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.headroom.BufferPods;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.headroom.InMemoryDemandHistoryStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvisionerHeadroomTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);
    private final InMemoryDemandHistoryStore demand = new InMemoryDemandHistoryStore();

    /** A buffer of {@code chunks} copies of a 2-cpu / 1Gi pod template, always active. */
    private static Headroom buffer(int chunks) {
        Pod template = Pod.builder("default", "chunk").requests(Resources.of(2000, 1L << 30)).build();
        BufferTargets targets = BufferTargets.of(List.of(new BufferTargets.Target("default", "PodTemplate", "chunk", template, 0)));
        CapacityBuffer b = new CapacityBuffer("default", "warm", new CapacityBuffer.PodTemplateRef("chunk"), chunks, null,
                Map.of(), null, null, null);
        return now -> HeadroomPlan.of(List.of(b), targets, DemandHistory.EMPTY, now, Duration.ZERO);
    }

    private Provisioner provisioner(GantryConfig config, Headroom headroom) {
        return new Provisioner(cluster, cluster, store, cloud, provider(), config, clock).withHeadroom(headroom)
                .withDemandHistory(demand);
    }

    private static NodePool limited(String cpu) {
        return new NodePool("default", Map.of(), pool("default", null).template(), null, Map.of("cpu", Quantity.parse(cpu)),
                null, null);
    }

    @Test
    void aBuffersVirtualPodsGetCapacityLaunchedButNoNominationNoEventAndNoPlaceInTheOutcome() {
        ProvisioningOutcome out = provisioner(config(pool("default", null)), buffer(2)).provision();

        assertThat(out.launched()).isNotEmpty();
        assertThat(cloud.requests()).isNotEmpty();
        assertThat(store.list(T0).stream().flatMap(c -> c.pods().stream()))
                .containsExactlyInAnyOrder("default/warm-buffer-0", "default/warm-buffer-1");
        assertThat(out.pendingPods()).isZero();
        assertThat(out.nominations()).isEmpty();
        assertThat(out.unschedulable()).isEmpty();
        assertThat(cluster.events()).isEmpty();
        assertThat(demand.read(T0).samples()).as("virtual pods are not demand").isEmpty();
    }

    @Test
    void aRunAgainWhileTheBuffersClaimIsInFlightLaunchesNothingMore() {
        Provisioner p = provisioner(config(pool("default", null)), buffer(2));
        p.provision();
        int launches = cloud.requests().size();

        ProvisioningOutcome again = p.provision();

        assertThat(again.launched()).isEmpty();
        assertThat(cloud.requests()).hasSize(launches);
    }

    @Test
    void realPodsAreServedFirstWhenThePoolsLimitLeavesRoomForOnlyOneOfThem() {
        // Room under the limit for one 2-cpu node: the real pod has it; the buffer is left without room, silently.
        cluster.putPod(pending("web", 1500, 256).build());

        ProvisioningOutcome out = provisioner(config(limited("2")), buffer(1)).provision();

        assertThat(out.launched()).hasSize(1);
        assertThat(out.nominations()).containsOnlyKeys("default/web");
        assertThat(store.list(T0).getFirst().pods()).containsExactly("default/web");
        assertThat(out.unschedulable()).isEmpty();
        assertThat(cluster.events()).noneMatch(e -> e.contains("warm-buffer"));
    }

    @Test
    void theBuffersLaunchesCountAgainstThePoolsLimit() {
        // A 4-cpu limit holds two 2-cpu chunks' nodes but not three chunks: the third is left out.
        provisioner(config(limited("4")), buffer(3)).provision();

        long cpu = store.list(T0).stream().mapToLong(c -> c.instanceType().startsWith("m5.xlarge") ? 4000 : 2000).sum();
        assertThat(cpu).isLessThanOrEqualTo(4000);
        assertThat(store.list(T0).stream().flatMap(c -> c.pods().stream())).hasSizeLessThan(3);
    }

    @Test
    void aRealPodTakesTheRoomABufferHadOnANodeAndTheBufferIsPlannedAgainOnNewCapacity() {
        // The node has 2 cpu free: the buffer's one chunk fits there, so nothing is launched for it...
        cluster.putNode(new Node("ip-10-0-0-1", "aws:///" + ZONE_A + "/i-0001", Map.of(WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "m5.large", WellKnownLabels.ZONE, ZONE_A, WellKnownLabels.ARCH, "amd64"),
                Map.of(), List.of(), new Resources(2000, 8L << 30, 100L << 30, 110, Map.of()), true, false, false, T0));
        Provisioner p = provisioner(config(pool("default", null)), buffer(1));
        assertThat(p.provision().launched()).isEmpty();

        // ...until a real pod wants that room: it is planned onto the node, and the buffer onto a new claim.
        cluster.putPod(pending("web", 1800, 256).build());
        ProvisioningOutcome out = p.provision();

        assertThat(out.nominations()).isEmpty(); // the real pod goes to the existing node, kube-scheduler's business
        assertThat(out.launched()).hasSize(1);
        assertThat(store.list(T0).getFirst().pods()).containsExactly("default/warm-buffer-0");
    }

    @Test
    void realPodsThatWaitedForANewClaimAreRecordedAsTheirPoolsPendingDemand() {
        cluster.putPod(pending("web-0", 500, 256).build());
        cluster.putPod(pending("web-1", 500, 256).build());

        provisioner(config(pool("default", null)), buffer(1)).provision();

        assertThat(demand.read(T0).samples()).singleElement().satisfies(s -> {
            assertThat(s.nodePool()).isEqualTo("default");
            assertThat(s.cpuMillis()).isEqualTo(1000);
            assertThat(s.memoryBytes()).isEqualTo(512L << 20);
        });
    }

    @Test
    void aHeadroomThatCannotBeReadLeavesTheRealPodsProvisioned() {
        cluster.putPod(pending("web", 500, 256).build());
        Headroom broken = now -> {
            throw new IllegalStateException("CapacityBuffer list failed (500)");
        };

        ProvisioningOutcome out = provisioner(config(pool("default", null)), broken).provision();

        assertThat(out.nominations()).containsOnlyKeys("default/web");
        assertThat(store.list(T0)).allSatisfy(c -> assertThat(c.pods()).noneMatch(k -> k.contains("buffer")));
        assertThat(BufferPods.isVirtual(cluster.pods().getFirst())).isFalse();
    }

    @Test
    void aRealPodThatTakesTheRoomOfTheBuffersClaimStillInFlightGetsTheBufferANewClaim() {
        // Regression: the buffer's new claim was named from the same chunks as its claim in flight, so recording it
        // found that claim ("an earlier delivery launched it") and nothing was launched until the node registered.
        Provisioner p = provisioner(config(pool("default", null)), buffer(1));
        p.provision();
        assertThat(cloud.requests()).hasSize(1);

        cluster.putPod(pending("web", 1800, 256).build());
        ProvisioningOutcome out = p.provision();

        assertThat(out.nominations()).as(out + " " + store.list(T0)).containsOnlyKeys("default/web");
        assertThat(cloud.requests()).hasSize(2);
        assertThat(store.list(T0)).hasSize(2);
    }
}
