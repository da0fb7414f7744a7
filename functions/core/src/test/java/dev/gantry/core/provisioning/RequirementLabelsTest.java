package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.headroom.BufferTargets;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.DemandHistory;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.lifecycle.DelegatingStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue #21, defect 1: a NodePool's requirement labels ({@code workload In [batch]}) are on its nodes, so they must be
 * on its claims in flight too, or pods selecting them never fit a booting claim and every run launches again.
 */
class RequirementLabelsTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    /** The batch pool: every node labelled workload=batch by its requirements, none by its template. */
    private static final NodePool BATCH = pool("batch", null, req("workload", "batch"));
    private static final Map<String, String> SELECT = Map.of("workload", "batch");

    private Provisioner provisioner(NodeClaimStore s, Headroom headroom) {
        return new Provisioner(cluster, cluster, s, cloud, provider(), config(BATCH), clock).withHeadroom(headroom);
    }

    /** A buffer of {@code chunks} 500m / 256Mi chunks selecting workload=batch, always active. */
    private static Headroom buffer(int chunks) {
        Pod template = Pod.builder("default", "chunk").requests(Resources.of(500, 256L << 20)).nodeSelector(SELECT).build();
        BufferTargets targets = BufferTargets.of(List.of(new BufferTargets.Target("default", "PodTemplate", "chunk", template, 0)));
        CapacityBuffer b = new CapacityBuffer("default", "warm", new CapacityBuffer.PodTemplateRef("chunk"), chunks, null,
                Map.of(), null, null, null);
        return now -> HeadroomPlan.of(List.of(b), targets, DemandHistory.EMPTY, now, Duration.ZERO);
    }

    private void pendingBatch(String name) {
        cluster.putPod(pending(name, 400, 128).nodeSelector(SELECT).build());
    }

    @Test
    void aClaimInFlightCarriesItsPoolsRequirementLabelsSoTheNextWaveSelectingThemLaunchesNothing() {
        pendingBatch("batch-0");
        Provisioner p = provisioner(store, Headroom.NONE);
        assertThat(p.provision().launched()).hasSize(1);

        // A second wave while the claim boots: it has room for both (a t4g.small, 2 cpu).
        pendingBatch("batch-1");
        clock.advance(Duration.ofSeconds(5));
        ProvisioningOutcome again = p.provision();

        assertThat(again.launched()).isEmpty();
        assertThat(cloud.requests()).hasSize(1);
        assertThat(again.nominations()).containsOnlyKeys("default/batch-0", "default/batch-1");
    }

    @Test
    void aBufferSelectingItsPoolsRequirementLabelIsNotLaunchedAgainWhileItsClaimBoots() {
        // Was: the buffer's claim looked unsuitable to its own chunks, which were planned again under "-b2", "-b3"…
        Provisioner p = provisioner(store, buffer(2));
        p.provision();
        assertThat(cloud.requests()).hasSize(1);

        for (int run = 0; run < 3; run++) {
            clock.advance(Duration.ofSeconds(10));
            assertThat(p.provision().launched()).as("run " + run).isEmpty();
        }
        assertThat(store.list(clock.instant())).hasSize(1);
    }

    @Test
    void aBufferSelectingTheRequirementLabelSharesTheNewClaimOfTheRealPodsPlannedInTheSameRun() {
        pendingBatch("batch-0");

        provisioner(store, buffer(1)).provision();

        // The chunk fits beside the real pod on its new claim (a t4g.small): nothing more is launched for it.
        assertThat(cloud.requests()).hasSize(1);
        assertThat(store.list(T0)).singleElement().satisfies(c -> assertThat(c.pods()).containsExactly("default/batch-0"));
    }

    @Test
    void aClaimInFlightIsPlannedWithEveryLabelItsLaunchPutsOnTheNode() {
        pendingBatch("batch-0");
        provisioner(store, Headroom.NONE).provision();
        NodeClaim claim = store.list(T0).getFirst();

        SchedulingInput input = new PlanningInputs(config(BATCH), provider())
                .build(ClusterView.read(cluster), store.list(T0), Set.of(), T0);

        assertThat(input.inFlight()).singleElement().satisfies(f -> {
            assertThat(f.labels()).containsAllEntriesOf(cloud.requests().getFirst().labels());
            assertThat(f.labels()).containsEntry("workload", "batch").containsEntry(WellKnownLabels.NODEPOOL, "batch")
                    .containsEntry(WellKnownLabels.INSTANCE_TYPE, claim.instanceType())
                    .containsEntry(WellKnownLabels.ZONE, claim.zone());
        });
    }

    @Test
    void twoOverlappingDeliveriesNameABuffersNewCapacityAlikeAndLaunchItOnce() {
        // The buffer's claim has registered and a real pod filled its node: the chunk needs a new claim. Its planned
        // name is the registered claim's; the new one used to get "<name>-<now in ms>", so two deliveries of the same
        // batch at different instants launched twice.
        provisioner(store, buffer(1)).provision();
        NodeClaim first = store.list(T0).getFirst();
        store.update(first.registered("ip-10-0-0-1", T0));
        cluster.putNode(new Node("ip-10-0-0-1", "aws:///" + ZONE_A + "/" + first.instanceId(), Map.of(
                WellKnownLabels.NODEPOOL, "batch", WellKnownLabels.INSTANCE_TYPE, first.instanceType(), WellKnownLabels.ZONE,
                first.zone(), "workload", "batch", dev.gantry.core.lifecycle.ClaimsByNode.LABEL, first.name()), Map.of(), List.of(),
                new Resources(2000, 2L << 30, 100L << 30, 110, Map.of()), true, false, false, T0));
        cluster.putPod(pending("filler", 1900, 128).nodeName("ip-10-0-0-1")
                .status(new Pod.Status("Running", false, T0, null, null)).build());
        clock.advance(Duration.ofMinutes(1));
        List<NodeClaim> before = store.list(clock.instant());
        NodeClaimStore stale = new DelegatingStore(store) {
            @Override
            public List<NodeClaim> list(Instant now) {
                return before; // read before the other delivery recorded its claim
            }
        };

        provisioner(store, buffer(1)).provision();
        clock.advance(Duration.ofMillis(7));
        ProvisioningOutcome second = provisioner(stale, buffer(1)).provision();

        assertThat(second.launched()).isEmpty();
        assertThat(cloud.requests()).hasSize(2); // the buffer's first claim, and one for its chunk now
        assertThat(store.list(clock.instant())).extracting(NodeClaim::name)
                .containsExactlyInAnyOrder(first.name(), first.name() + "-b2");
    }
}
