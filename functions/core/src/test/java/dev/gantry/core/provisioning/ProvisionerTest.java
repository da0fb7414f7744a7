package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_A;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.DelegatingStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvisionerTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    private Provisioner provisioner(GantryConfig config) {
        return new Provisioner(cluster, cluster, store, cloud, provider(), config, clock);
    }

    @Test
    void launchesOneClaimForPendingPodsRecordsItLaunchedAndNominatesThePods() {
        for (int i = 0; i < 3; i++) {
            cluster.putPod(pending("web-" + i, 500, 256).build());
        }
        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.pendingPods()).isEqualTo(3);
        assertThat(out.oldestPendingAge()).isEqualTo(Duration.ofSeconds(60));
        assertThat(out.launched()).singleElement().satisfies(l -> {
            assertThat(l.instanceType()).isEqualTo("t4g.small");
            assertThat(l.zone()).isEqualTo(ZONE_A);
            assertThat(l.capacityType()).isEqualTo("spot");
            assertThat(l.pricePerHour()).isEqualTo(0.0040);
        });
        String claim = out.launched().get(0).claim();
        assertThat(claim).startsWith("default-");
        NodeClaim stored = store.get(claim, T0).orElseThrow();
        assertThat(stored.state()).isEqualTo(NodeClaimState.Launched);
        assertThat(stored.instanceId()).isEqualTo(cloud.instances().get(0).instanceId());
        assertThat(stored.pods()).containsExactlyInAnyOrder("default/web-0", "default/web-1", "default/web-2");
        LaunchRequest request = cloud.requests().get(0);
        assertThat(request.clientToken()).isEqualTo(claim);
        assertThat(request.labels()).containsEntry(WellKnownLabels.NODEPOOL, "default").containsEntry("team", "web")
                .doesNotContainKeys(WellKnownLabels.HOSTNAME, WellKnownLabels.ZONE);
        assertThat(request.options()).extracting(t -> t.name()).startsWith("t4g.small");
        assertThat(cluster.events()).containsExactlyInAnyOrder(
                "Pod/default/web-0 Normal Nominated: Pod should schedule on: nodeclaim/" + claim,
                "Pod/default/web-1 Normal Nominated: Pod should schedule on: nodeclaim/" + claim,
                "Pod/default/web-2 Normal Nominated: Pod should schedule on: nodeclaim/" + claim);
    }

    @Test
    void aNewClaimNeverTakesTheNameOfAClaimInFlightWhoseRoomThePlanGaveAway() {
        // Names derive from the claim's pods. web-1's claim is in flight; then a larger pod comes, the next plan gives it
        // that claim's room and plans a new claim for web-1 alone: the same name. Was: its launch found the claim in
        // flight, took it for an earlier delivery's, and web-1 got no capacity (spot-split-storm, seed 3).
        cluster.putPod(pending("web-1", 1500, 256).build());
        Provisioner p = provisioner(config(pool("default", null)));
        String first = p.provision().launched().getFirst().claim();
        cluster.putPod(pending("web-0", 1600, 256).build());
        clock.advance(Duration.ofSeconds(5));

        ProvisioningOutcome out = p.provision();

        assertThat(out.nominations()).containsEntry("default/web-0", first);
        assertThat(out.launched()).singleElement().satisfies(l -> assertThat(l.claim()).isNotEqualTo(first));
        assertThat(out.nominations().get("default/web-1")).isEqualTo(out.launched().getFirst().claim());
        assertThat(cloud.instances()).hasSize(2);
    }

    @Test
    void aJustRegisteredNodeWithoutItsInstanceLabelsYetTakesPodsThatRequireThem() {
        // Regression: instance labels arrive with the sweep; until then a registered node looked unsuitable for pods
        // selecting karpenter.k8s.aws/instance-cpu, and a second node was launched for them (the quickstart scenario).
        cluster.putNode(new Node("ip-10-0-0-1", "aws:///" + ZONE_A + "/i-0001", Map.of(WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "m5.xlarge", WellKnownLabels.ZONE, ZONE_A, WellKnownLabels.ARCH, "amd64"),
                Map.of(), List.of(), new Resources(4000, 16L << 30, 100L << 30, 110, Map.of()), true, false, false, T0));
        cluster.putPod(pending("web", 500, 256).nodeSelector(Map.of(WellKnownLabels.INSTANCE_CPU, "4")).build());

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).isEmpty();
        assertThat(cloud.requests()).isEmpty();
    }

    @Test
    void nodesCountTheirInstanceCapacityAgainstTheLimitNotTheirAllocatable() {
        // The full node is an m5.xlarge: 4 cpu of capacity, 3900m allocatable. A new 2-cpu node fits a 5950m limit only
        // if the node is (wrongly) counted by its allocatable: 3.9 + 2 <= 5.95, while 4 + 2 > 5.95.
        cluster.putNode(new Node("ip-10-0-0-1", "aws:///" + ZONE_A + "/i-0001", Map.of(WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "m5.xlarge", WellKnownLabels.ZONE, ZONE_A, WellKnownLabels.ARCH, "amd64"),
                Map.of(), List.of(), new Resources(3900, 15L << 30, 100L << 30, 110, Map.of()), true, false, false, T0));
        cluster.putPod(pending("running", 3800, 256).nodeName("ip-10-0-0-1")
                .status(new dev.gantry.core.model.Pod.Status("Running", false, T0, null, null)).build());
        cluster.putPod(pending("small", 1000, 256).build());
        var limited = new dev.gantry.core.model.NodePool("default", Map.of(), pool("default", null).template(), null,
                Map.of("cpu", dev.gantry.core.model.Quantity.parse("5950m")), null, null);

        ProvisioningOutcome out = provisioner(config(limited)).provision();

        assertThat(out.launched()).isEmpty();
        assertThat(out.unschedulable().values()).anySatisfy(r -> assertThat(r).startsWith("NodePool default would exceed its cpu limit (5950m)"));
    }

    @Test
    void eachRunRecordsEveryPoolsUsageWithWhatItLaunched() {
        cluster.putPod(pending("web", 500, 256).build());

        provisioner(config(pool("default", null))).provision();

        assertThat(store.poolUsage()).singleElement().satisfies(u -> {
            assertThat(u.nodePool()).isEqualTo("default");
            assertThat(u.nodes()).isEqualTo(1);
            assertThat(u.capacity().cpuMillis()).isEqualTo(2000); // the t4g.small just launched
            assertThat(u.at()).isEqualTo(T0);
        });
    }

    @Test
    void sameBatchDeliveredThreeTimesWithACrashAfterCreateFleetLaunchesOneInstancePerClaim() {
        cluster.putPod(pending("a", 1500, 256).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONE_A)).build());
        cluster.putPod(pending("b", 1500, 256).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONE_B)).build());
        CrashOnceStore crashing = new CrashOnceStore(store);
        Provisioner first = new Provisioner(cluster, cluster, crashing, cloud, provider(), config(pool("default", null)), clock);

        // Delivery 1: an instance is launched, then the process dies before recording it (the other claim, launched
        // alongside, may or may not have been recorded first).
        assertThatThrownBy(first::provision).hasMessageContaining("crash");
        List<NodeClaim> launching = store.list(T0).stream().filter(c -> c.state() == NodeClaimState.Launching).toList();
        assertThat(launching).singleElement().satisfies(c -> assertThat(cloud.instances())
                .anySatisfy(i -> assertThat(i.tags()).containsEntry(CloudInstance.TAG_NODECLAIM, c.name())));

        // Delivery 2 resumes the recorded claim (same ClientToken, same instance) and launches the second one.
        clock.advance(Duration.ofSeconds(5));
        ProvisioningOutcome second = provisioner(config(pool("default", null))).provision();
        assertThat(second.resumed()).hasSize(1);
        // Delivery 3: both claims are in flight; the pods are nominated to them and nothing is launched.
        clock.advance(Duration.ofSeconds(5));
        ProvisioningOutcome third = provisioner(config(pool("default", null))).provision();

        assertThat(third.launched()).isEmpty();
        assertThat(third.nominations()).containsOnlyKeys("default/a", "default/b");
        assertThat(cloud.instances()).hasSize(2);
        List<NodeClaim> claims = store.list(clock.instant());
        assertThat(claims).hasSize(2).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launched));
        assertThat(claims).extracting(NodeClaim::instanceId)
                .containsExactlyInAnyOrderElementsOf(cloud.instances().stream().map(i -> i.instanceId()).toList());
        assertThat(cloud.requests()).extracting(LaunchRequest::clientToken).hasSize(3); // the crashed one was asked twice
    }

    @Test
    void launchesOneAfterAnotherInPlanOrderWithParallelismOne() {
        for (String zone : List.of(ZONE_A, ZONE_B)) {
            for (int i = 0; i < 2; i++) {
                cluster.putPod(pending(zone + "-" + i, 1500, 256).nodeSelector(Map.of(WellKnownLabels.ZONE, zone)).build());
            }
        }
        Provisioner sequential = new Provisioner(cluster, cluster, store, cloud, provider(), config(pool("default", null)), clock, 1)
                .withBatchSize(1);

        ProvisioningOutcome out = sequential.provision();

        assertThat(out.launched()).hasSize(4);
        assertThat(cloud.requests()).extracting(LaunchRequest::clientToken)
                .containsExactlyElementsOf(out.launched().stream().map(ProvisioningOutcome.LaunchedClaim::claim).toList());
        assertThat(cloud.instances()).extracting(i -> i.instanceId())
                .containsExactlyElementsOf(out.launched().stream().map(ProvisioningOutcome.LaunchedClaim::instanceId).toList());
    }

    @Test
    void manyClaimsLaunchInParallelAndEachIsRecordedOnce() {
        for (int i = 0; i < 40; i++) {
            cluster.putPod(pending("p-" + i, 1500, 256).build());
        }

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).hasSize(40);
        assertThat(cloud.instances()).hasSize(40);
        assertThat(store.list(T0)).hasSize(40).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launched));
        assertThat(out.nominations()).hasSize(40);
        assertThat(cluster.events()).hasSize(40);
    }

    @Test
    void aRunShortOfTimeStartsNoLaunchAfterItsStopTimeAndLeavesTheRestToTheNextRun() {
        for (int i = 0; i < 40; i++) {
            cluster.putPod(pending("p-" + i, 1500, 256).build());
        }
        SlowCloud slow = new SlowCloud(cloud, clock, Duration.ofSeconds(1)); // each CreateFleet takes a second
        Provisioner p = new Provisioner(cluster, cluster, store, slow, provider(), config(pool("default", null)), clock, 1)
                .withBatchSize(1);

        ProvisioningOutcome first = p.provision(T0, T0.plusSeconds(10));

        assertThat(first.launched()).hasSize(10);
        assertThat(first.deferred()).isEqualTo(30);
        assertThat(first.nominations()).hasSize(10);
        assertThat(cluster.events()).hasSize(10);
        assertThat(store.list(T0)).hasSize(10).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launched));
        ProvisioningOutcome next = p.provision(clock.instant(), Instant.MAX);

        assertThat(next.launched()).hasSize(30);
        assertThat(next.deferred()).isZero();
        assertThat(cloud.instances()).hasSize(40);
        assertThat(store.list(T0)).hasSize(40);
    }

    @Test
    void aRunOutOfTimeLeavesAnInterruptedLaunchLaunchingForTheNextRun() {
        cluster.putPod(pending("a", 500, 256).build());
        Provisioner p = new Provisioner(cluster, cluster, store, new ThrottledOnce(cloud), provider(),
                config(pool("default", null)), clock);
        assertThatThrownBy(p::provision).isInstanceOf(CloudException.class);

        ProvisioningOutcome late = p.provision(T0, T0);

        assertThat(late.deferred()).isEqualTo(1);
        assertThat(cloud.instances()).isEmpty();
        assertThat(store.list(T0)).singleElement().extracting(NodeClaim::state).isEqualTo(NodeClaimState.Launching);
    }

    /**
     * A launch refused for the configuration (EC2's InvalidBlockDeviceMapping) tells the pods, and the outcome the
     * handler logs, what EC2 said: the volume and the size the image's snapshot needs, not the code alone.
     */
    @Test
    void aLaunchRefusedForTheConfigurationTellsThePodsWhatTheCloudSaid() {
        cluster.putPod(pending("a", 500, 256).build());
        String ec2 = "CreateFleet launched no instance: Volume of size 2GB is smaller than snapshot 'snap-0f59de5aef3442431', "
                + "expect size >= 4GB";
        Provisioner p = new Provisioner(cluster, cluster, store, new Refusing(cloud,
                () -> new CloudException("InvalidBlockDeviceMapping", ec2, false)), provider(), config(pool("default", null)), clock);

        ProvisioningOutcome out = p.provision();

        assertThat(out.failed()).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo("InvalidBlockDeviceMapping");
            assertThat(f.message()).isEqualTo("InvalidBlockDeviceMapping: " + ec2);
        });
        assertThat(cluster.events()).singleElement().asString()
                .startsWith("Pod/default/a Warning FailedScheduling: Failed to schedule pod, launching nodeclaim/")
                .endsWith("failed: InvalidBlockDeviceMapping: " + ec2);
        assertThat(store.list(T0)).singleElement().extracting(NodeClaim::deletionReason)
                .as("kept for the pool's NodeRegistrationHealthy").isEqualTo("launch-refused: InvalidBlockDeviceMapping: " + ec2);
    }

    @Test
    void claimRecordedButNotLaunchedBecauseOfThrottlingIsLaunchedOnTheNextRun() {
        cluster.putPod(pending("a", 500, 256).build());
        ThrottledOnce throttled = new ThrottledOnce(cloud);
        Provisioner p = new Provisioner(cluster, cluster, store, throttled, provider(), config(pool("default", null)), clock);

        assertThatThrownBy(p::provision).isInstanceOf(CloudException.class);
        assertThat(store.list(T0)).singleElement().extracting(NodeClaim::state).isEqualTo(NodeClaimState.Launching);
        ProvisioningOutcome again = p.provision();

        assertThat(again.resumed()).hasSize(1);
        assertThat(cloud.instances()).hasSize(1);
        assertThat(store.list(T0)).singleElement().extracting(NodeClaim::state).isEqualTo(NodeClaimState.Launched);
    }

    @Test
    void firstOfferingOutOfCapacityLaunchesTheNextAndIsUnavailableForThreeMinutes() {
        cluster.putPod(pending("a", 500, 256).build());
        cloud.fail("t4g.small", ZONE_A, "spot");

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).singleElement().satisfies(l -> {
            assertThat(l.instanceType()).isEqualTo("t4g.small");
            assertThat(l.zone()).isEqualTo(ZONE_B);
        });
        OfferingKey iced = new OfferingKey("t4g.small", ZONE_A, "spot");
        assertThat(store.unavailableOfferings(T0)).containsExactly(iced);
        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(3)).minusMillis(1))).containsExactly(iced);
        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(3)))).isEmpty();
    }

    @Test
    void anOfferingIsUnavailableForThreeMinutesFromTheIceAnswerNotFromTheRunsStart() {
        cluster.putPod(pending("a", 500, 256).build());
        cloud.fail("t4g.small", ZONE_A, "spot");
        SlowCloud slow = new SlowCloud(cloud, clock, Duration.ofSeconds(40)); // the CreateFleet answers 40 s into the run
        Provisioner p = new Provisioner(cluster, cluster, store, slow, provider(), config(pool("default", null)), clock, 1);

        p.provision(T0, Instant.MAX);

        OfferingKey iced = new OfferingKey("t4g.small", ZONE_A, "spot");
        Instant answered = T0.plusSeconds(40);
        assertThat(store.unavailableOfferings(answered.plus(Duration.ofMinutes(3)).minusMillis(1))).containsExactly(iced);
        assertThat(store.unavailableOfferings(answered.plus(Duration.ofMinutes(3)))).isEmpty();
    }

    /** Gantry's own: a launch refused for its image is closed as the image's fault, which an AMI rollout's canary counts. */
    @Test
    void aLaunchRefusedForItsImageIsClosedAsImageRefusedNotAsNoCapacity() {
        cluster.putPod(pending("a", 500, 256).build());
        Provisioner p = new Provisioner(cluster, cluster, store, Refusing.image(cloud), provider(), config(pool("default", null)), clock);

        ProvisioningOutcome out = p.provision();

        assertThat(out.failed()).isNotEmpty().allSatisfy(f -> assertThat(f.code()).isEqualTo("InvalidAMIID.NotFound"));
        NodeClaim closed = store.get(out.failed().get(0).claim(), T0).orElseThrow();
        assertThat(closed.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(closed.deletionReason()).isEqualTo(NodeClaim.IMAGE_REFUSED);
        assertThat(store.unavailableOfferings(T0)).as("no offering is marked: capacity was not the problem").isEmpty();
    }

    @Test
    void poolWithNoCapacityLeftIsClosedAndTheNextPoolIsPlanned() {
        cluster.putPod(pending("a", 500, 256).build());
        cloud.fail("t4g.small", ZONE_A, "spot");
        cloud.fail("t4g.small", ZONE_B, "spot");
        GantryConfig cfg = config(
                pool("cheap", 100, req(WellKnownLabels.INSTANCE_TYPE, "t4g.small"), req(WellKnownLabels.CAPACITY_TYPE, "spot")),
                pool("fallback", 10, req(WellKnownLabels.ARCH, "amd64")));

        ProvisioningOutcome out = provisioner(cfg).provision();

        assertThat(out.rounds()).isEqualTo(2);
        assertThat(out.failed()).singleElement().satisfies(f -> {
            assertThat(f.claim()).startsWith("cheap-");
            assertThat(f.code()).isEqualTo("InsufficientInstanceCapacity");
        });
        NodeClaim closed = store.get(out.failed().get(0).claim(), T0).orElseThrow();
        assertThat(closed.state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(closed.deletionReason()).isEqualTo("launch-failed");
        assertThat(closed.expiresAt()).isEqualTo(T0.plus(Duration.ofHours(1)));
        assertThat(out.launched()).singleElement().satisfies(l -> {
            assertThat(l.nodePool()).isEqualTo("fallback");
            assertThat(l.instanceType()).isEqualTo("m5.large");
        });
        assertThat(out.nominations()).containsEntry("default/a", out.launched().get(0).claim());
        assertThat(store.unavailableOfferings(T0)).hasSize(2);
    }

    /**
     * A whole-market ICE on three pools: each of the run's three plans finds no capacity, and a fourth pool still has
     * some. The run says so, and the next (the handler sends a retry hint at once) launches there; before, the pods waited
     * for the next hint or the sweep's backstop (83-151 s in the spot storm without a split).
     */
    @Test
    void aRunWhoseLastPlanFoundNoCapacityAsksForTheNextAtOnce() {
        cluster.putPod(pending("a", 500, 256).build());
        String[] spot = {"t4g.small", "t4g.medium", "m5.large"};
        for (String type : spot) {
            cloud.fail(type, ZONE_A, "spot");
            cloud.fail(type, ZONE_B, "spot");
        }
        GantryConfig cfg = config(
                pool("first", 100, req(WellKnownLabels.INSTANCE_TYPE, spot[0]), req(WellKnownLabels.CAPACITY_TYPE, "spot")),
                pool("second", 50, req(WellKnownLabels.INSTANCE_TYPE, spot[1]), req(WellKnownLabels.CAPACITY_TYPE, "spot")),
                pool("third", 20, req(WellKnownLabels.INSTANCE_TYPE, spot[2]), req(WellKnownLabels.CAPACITY_TYPE, "spot")),
                pool("fourth", 10, req(WellKnownLabels.INSTANCE_TYPE, "m5.xlarge")));

        ProvisioningOutcome short1 = provisioner(cfg).provision();

        assertThat(short1.rounds()).isEqualTo(Provisioner.MAX_ROUNDS);
        assertThat(short1.launched()).isEmpty();
        assertThat(short1.capacityShort()).isTrue();

        ProvisioningOutcome next = provisioner(cfg).provision();

        assertThat(next.launched()).singleElement().satisfies(l -> assertThat(l.nodePool()).isEqualTo("fourth"));
        assertThat(next.capacityShort()).isFalse();
    }

    /** The chain ends: a run with no offering left to try launches nothing, and asks for no further run. */
    @Test
    void aRunWithNoOfferingLeftToTryAsksForNoFurtherRun() {
        cluster.putPod(pending("a", 500, 256).build());
        GantryConfig cfg = config(pool("cheap", null, req(WellKnownLabels.INSTANCE_TYPE, "t4g.small")));
        for (String zone : List.of(ZONE_A, ZONE_B)) {
            cloud.fail("t4g.small", zone, "spot");
            cloud.fail("t4g.small", zone, "on-demand");
        }

        ProvisioningOutcome first = provisioner(cfg).provision();
        ProvisioningOutcome again = provisioner(cfg).provision();

        assertThat(first.launched()).isEmpty();
        assertThat(again.launched()).isEmpty();
        assertThat(again.capacityShort()).as("every offering is out of plans: nothing to try until the marks run out").isFalse();
    }

    /**
     * A launch out of capacity that names no offering (the adapter found no subnet for the claim's zones) marks nothing:
     * the next run would plan and fail the same, so the run does not ask for one at once (it would loop, a run a
     * second, until the next hint).
     */
    @Test
    void aRunShortOfCapacityThatFoundOutNoOfferingAsksForNoRetry() {
        cluster.putPod(pending("a", 500, 256).build());
        Provisioner p = new Provisioner(cluster, cluster, store, Refusing.noOffering(cloud), provider(), config(pool("default", null)), clock);

        ProvisioningOutcome out = p.provision();

        assertThat(out.launched()).isEmpty();
        assertThat(out.rounds()).isEqualTo(Provisioner.MAX_ROUNDS);
        assertThat(out.capacityShort()).isFalse();
    }

    @Test
    void closedClaimNameIsNotReusedWhenTheSamePodsArePlannedAgain() {
        cluster.putPod(pending("a", 500, 256).build());
        GantryConfig cfg = config(pool("cheap", null, req(WellKnownLabels.INSTANCE_TYPE, "t4g.small")));
        cloud.fail("t4g.small", ZONE_A, "spot");
        cloud.fail("t4g.small", ZONE_B, "spot");
        cloud.fail("t4g.small", ZONE_A, "on-demand");
        cloud.fail("t4g.small", ZONE_B, "on-demand");
        ProvisioningOutcome none = provisioner(cfg).provision();
        assertThat(none.launched()).isEmpty();
        assertThat(none.unschedulable()).containsOnlyKeys("default/a");

        clock.advance(Duration.ofMinutes(4)); // the marks run out and capacity is back
        RecordingCloud healthy = new RecordingCloud(clock);
        ProvisioningOutcome out = new Provisioner(cluster, cluster, store, healthy, provider(), cfg, clock).provision();

        String firstName = none.failed().get(0).claim();
        assertThat(out.launched()).singleElement().extracting(ProvisioningOutcome.LaunchedClaim::claim).asString()
                .startsWith(firstName + "-").isNotEqualTo(firstName);
    }

    @Test
    void podsWhoseLaunchesKeepFailingGetAFreshClaimNameEveryTimeEvenOverExpiredRecordsNotYetDeleted() {
        cluster.putPod(pending("a", 500, 256).build());
        GantryConfig cfg = config(pool("cheap", null, req(WellKnownLabels.INSTANCE_TYPE, "t4g.small")));
        for (String zone : List.of(ZONE_A, ZONE_B)) {
            cloud.fail("t4g.small", zone, "spot");
            cloud.fail("t4g.small", zone, "on-demand");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int run = 0; run < 8; run++) {
            ProvisioningOutcome out = provisioner(cfg).provision();
            assertThat(out.failed()).as("run %d launched a claim of its own", run).singleElement()
                    .satisfies(f -> names.add(f.claim()));
            clock.advance(Duration.ofMinutes(4)); // the unavailable marks run out between runs
        }
        assertThat(names).hasSize(8);

        // Hours later every closed record has expired (readers skip them) but DynamoDB's TTL has not deleted them.
        clock.advance(Duration.ofHours(2));
        ProvisioningOutcome out = new Provisioner(cluster, cluster, store, new RecordingCloud(clock), provider(), cfg, clock).provision();

        assertThat(out.launched()).singleElement().extracting(ProvisioningOutcome.LaunchedClaim::claim)
                .satisfies(name -> assertThat(names).doesNotContain(name));
    }

    @Test
    void redeliveryNominatesAgainWithoutRepeatingTheEvents() {
        cluster.putPod(pending("a", 500, 256).build());
        Provisioner p = provisioner(config(pool("default", null)));
        p.provision();

        ProvisioningOutcome again = p.provision();

        assertThat(again.nominations()).containsOnlyKeys("default/a");
        assertThat(cluster.events()).hasSize(1);
    }

    @Test
    void podThatFitsNoInstanceTypeGetsAFailedSchedulingEventWithTheReason() {
        cluster.putPod(pending("huge", 100_000, 256).build());

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).isEmpty();
        assertThat(out.unschedulable()).containsOnlyKeys("default/huge");
        assertThat(cluster.events()).singleElement().asString()
                .startsWith("Pod/default/huge Warning FailedScheduling: Failed to schedule pod, ")
                .contains("cpu");
    }

    @Test
    void launchedClaimWithoutANodeTakesPendingPodsInsteadOfANewLaunch() {
        NodeClaim inFlight = store.create(NodeClaim.launching("default-zzzzz", "default", "h", List.of(), List.of("m5.xlarge"),
                List.of(), "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        store.update(inFlight.launched("i-0000000000000aaaa", "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        cluster.putPod(pending("a", 1000, 512).build());
        cluster.putPod(pending("b", 1000, 512).build());

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).isEmpty();
        assertThat(cloud.requests()).isEmpty();
        assertThat(out.nominations()).containsOnly(Map.entry("default/a", "default-zzzzz"), Map.entry("default/b", "default-zzzzz"));
    }

    @Test
    void claimWhoseNodeRegisteredIsNoLongerCountedInFlight() {
        NodeClaim c = store.create(NodeClaim.launching("default-zzzzz", "default", "h", List.of(), List.of("m5.xlarge"),
                List.of(), "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        store.update(c.launched("i-0000000000000aaaa", "m5.xlarge", ZONE_A, "on-demand", 0.192, T0));
        // The node is full: its capacity must not be counted twice (as node and as claim).
        cluster.putNode(new Node("n1", "aws:///" + ZONE_A + "/i-0000000000000aaaa",
                Map.of(WellKnownLabels.NODEPOOL, "default", WellKnownLabels.ZONE, ZONE_A), Map.of(), List.of(),
                Resources.of(0, 0), true, false, false, T0));
        cluster.putPod(pending("a", 1000, 512).build());

        ProvisioningOutcome out = provisioner(config(pool("default", null))).provision();

        assertThat(out.launched()).hasSize(1);
    }

    /** A store whose first write of a Launched claim dies, as a Lambda timing out after CreateFleet would. */
    private static final class CrashOnceStore extends DelegatingStore {
        private final java.util.concurrent.atomic.AtomicBoolean crashed = new java.util.concurrent.atomic.AtomicBoolean();

        CrashOnceStore(InMemoryNodeClaimStore delegate) {
            super(delegate);
        }

        @Override
        public NodeClaim update(NodeClaim claim) {
            if (claim.state() == NodeClaimState.Launched && crashed.compareAndSet(false, true)) {
                throw new IllegalStateException("crash between CreateFleet and the store update");
            }
            return super.update(claim);
        }
    }

    /** Takes {@code each} of the clock's time per launch, as CreateFleet takes a second or two. */
    private record SlowCloud(RecordingCloud delegate, ProvisioningFixtures.ManualClock clock, Duration each)
            implements dev.gantry.core.cloud.CloudProvider {
        @Override
        public LaunchResult launch(LaunchRequest request) {
            clock.advance(each);
            return delegate.launch(request);
        }

        @Override
        public void terminate(List<String> ids) {
            delegate.terminate(ids);
        }

        @Override
        public List<CloudInstance> listInstances() {
            return delegate.listInstances();
        }

        @Override
        public java.util.Optional<CloudInstance> describe(String instanceId) {
            return delegate.describe(instanceId);
        }
    }

    /** Answers every launch with {@code error}: EC2 refusing the image, or finding no capacity and naming no offering. */
    private record Refusing(RecordingCloud delegate, java.util.function.Supplier<RuntimeException> error)
            implements dev.gantry.core.cloud.CloudProvider {
        /** As EC2 does for a deregistered AMI. */
        static Refusing image(RecordingCloud delegate) {
            return new Refusing(delegate, () -> new dev.gantry.core.cloud.ImageRefused("InvalidAMIID.NotFound",
                    "CreateFleet: the image does not exist"));
        }

        /** As the EC2 adapter does when no subnet serves the claim's zones. */
        static Refusing noOffering(RecordingCloud delegate) {
            return new Refusing(delegate, () -> new dev.gantry.core.cloud.InsufficientCapacity("NoAvailableOffering", List.of()));
        }

        @Override
        public LaunchResult launch(LaunchRequest request) {
            throw error.get();
        }

        @Override
        public void terminate(List<String> ids) {
        }

        @Override
        public List<dev.gantry.core.cloud.CloudInstance> listInstances() {
            return delegate.listInstances();
        }

        @Override
        public java.util.Optional<dev.gantry.core.cloud.CloudInstance> describe(String id) {
            return delegate.describe(id);
        }
    }

    /** Throttles the first launch, as EC2 does under load. */
    private record ThrottledOnce(RecordingCloud delegate, boolean[] thrown) implements dev.gantry.core.cloud.CloudProvider {
        ThrottledOnce(RecordingCloud delegate) {
            this(delegate, new boolean[1]);
        }

        @Override
        public LaunchResult launch(LaunchRequest request) {
            if (!thrown[0]) {
                thrown[0] = true;
                throw new CloudException("RequestLimitExceeded", "slow down", true);
            }
            return delegate.launch(request);
        }

        @Override
        public void terminate(List<String> ids) {
        }

        @Override
        public List<dev.gantry.core.cloud.CloudInstance> listInstances() {
            return delegate.listInstances();
        }

        @Override
        public java.util.Optional<dev.gantry.core.cloud.CloudInstance> describe(String id) {
            return delegate.describe(id);
        }
    }
}
