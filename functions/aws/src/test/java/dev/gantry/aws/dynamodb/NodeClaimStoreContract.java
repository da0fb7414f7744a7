package dev.gantry.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaimStore.Conflict;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The {@link NodeClaimStore} contract. Every implementation runs it through a concrete subclass that supplies a fresh,
 * empty store per test: in memory, dynalite and (where Docker exists) LocalStack.
 */
public abstract class NodeClaimStoreContract {
    protected static final Instant T0 = Instant.parse("2025-06-01T12:00:00.123456789Z");

    protected NodeClaimStore store;

    /** A new, empty store for one cluster. */
    protected abstract NodeClaimStore newStore();

    @BeforeEach
    void freshStore() {
        store = newStore();
    }

    protected static NodeClaim launching(String name) {
        return NodeClaim.launching(name, "default", "hash-1",
                List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot", "on-demand")),
                List.of("m5.large", "m5.xlarge"), List.of("default/web-0"), "m5.large", "us-east-1a", "spot", 0.035, T0);
    }

    @Test
    void returnsACreatedClaimAtVersionOne() {
        NodeClaim created = store.create(launching("default-abc12"));

        assertThat(created.version()).isEqualTo(1);
        assertThat(store.get("default-abc12", T0)).contains(created);
    }

    @Test
    void getOfAnUnknownNameIsEmpty() {
        assertThat(store.get("nope", T0)).isEmpty();
        assertThat(store.list(T0)).isEmpty();
    }

    @Test
    void rejectsASecondCreateWithTheSameName() {
        store.create(launching("default-abc12"));

        assertThatThrownBy(() -> store.create(launching("default-abc12"))).isInstanceOf(Conflict.class);
    }

    @Test
    void rejectsCreatingANameWhoseRecordExpiredButIsStillStored() {
        NodeClaim created = store.create(launching("default-abc12"));
        store.update(created.terminated(T0, Duration.ofHours(1)));

        assertThatThrownBy(() -> store.create(launching("default-abc12")))
                .as("the name is the launch's idempotency key and is never reused").isInstanceOf(Conflict.class);
    }

    @Test
    void freshClaimNamesNeverRunOutWhileClosedRecordsOfThePlannedNameLinger() {
        java.util.Set<String> names = new java.util.HashSet<>();
        Instant now = T0;
        for (int run = 0; run < 8; run++) {
            Instant at = now;
            NodeClaim recorded = FreshClaimNames.record(store, "default-abc12", name -> launching(name), at);
            assertThat(recorded.state()).isEqualTo(NodeClaimState.Launching);
            assertThat(names.add(recorded.name())).as("run %d got a name never used before", run).isTrue();
            store.update(recorded.terminated(at, Duration.ofHours(1))); // the launch failed: closed
            now = now.plus(Duration.ofMinutes(4));
        }
        // Every record has expired (readers skip them) but is still stored: DynamoDB's TTL deletes lazily.
        Instant later = now.plus(Duration.ofHours(2));
        NodeClaim after = FreshClaimNames.record(store, "default-abc12", name -> launching(name), later);

        assertThat(names).doesNotContain(after.name());
        assertThat(store.get(after.name(), later)).contains(after);
    }

    @Test
    void aFreshNameReturnsTheClaimAnEarlierDeliveryRecordedAndStillInFlight() {
        NodeClaim first = FreshClaimNames.record(store, "default-abc12", name -> launching(name), T0);

        assertThat(FreshClaimNames.record(store, "default-abc12", name -> launching(name), T0.plusSeconds(5))).isEqualTo(first);
        assertThat(store.list(T0)).hasSize(1);
    }

    @Test
    void theDriftStampIsStoredWithTheClaimAndReadBackWhole() {
        NodeClaim created = store.create(launching("default-abc12").withDrift(
                dev.gantry.core.lifecycle.DriftStamp.launched("9f1c", "gantry-1", "77ab", "gantry-1")));
        assertThat(store.get("default-abc12", T0).orElseThrow().drift()).isEqualTo(created.drift());

        NodeClaim drifted = store.update(created.withDrift(created.drift().drift("AMIDrift", T0)));

        assertThat(store.get("default-abc12", T0)).contains(drifted);
        assertThat(store.list(T0)).singleElement().extracting(c -> c.drift().drifted()).isEqualTo("AMIDrift");
        NodeClaim old = store.update(drifted.withDrift(null));
        assertThat(store.get("default-abc12", T0).orElseThrow().drift()).as("a claim written without hashes").isNull();
        assertThat(old.drift()).isNull();
    }

    @Test
    void theParametersALaunchSentAreStoredWithTheClaimAndReadBackWhole() {
        NodeClaim created = store.create(launching("default-abc12").withLaunchToken("default-abc12"));
        LaunchParameters sent = new LaunchParameters("spot", List.of(
                new LaunchParameters.Template("gantry/c/0123456789abcdef0123", "ami-0a1", 29, List.of(
                        new LaunchParameters.Override("m5.large", "us-east-1a", "subnet-0a"),
                        new LaunchParameters.Override("m5.large", "us-east-1b", "subnet-0b"))),
                new LaunchParameters.Template("gantry/c/fedcba9876543210fedc", "ami-0b", 58, List.of(
                        new LaunchParameters.Override("m5.xlarge", "us-east-1a", "subnet-0a")))),
                java.util.Map.of("gantry.dev/cluster", "c", "gantry.dev/launch", "default-abc12", "Name", "default"));

        NodeClaim recorded = store.update(created.withLaunchParameters(sent));

        assertThat(store.get("default-abc12", T0)).contains(recorded);
        assertThat(store.get("default-abc12", T0).orElseThrow().launchParameters()).isEqualTo(sent);
        assertThat(store.list(T0)).singleElement().extracting(NodeClaim::launchParameters).isEqualTo(sent);
    }

    /**
     * Regression (#21): a NodePool's name may be 63 characters, and claim names (the ClientToken of their launch, the
     * value of their node's nodeclaim label) were that plus the suffixes, past EC2's 64 and a label value's 63.
     */
    @Test
    void freshClaimNamesOfASixtyThreeCharacterNodePoolStayWithinALabelValue() {
        String planned = "p".repeat(63) + "-bcdfg";
        java.util.Set<String> names = new java.util.HashSet<>();
        Instant at = T0;
        for (int run = 0; run < 4; run++) {
            NodeClaim recorded = FreshClaimNames.record(store, planned, name -> launching(name), at);
            assertThat(recorded.name()).hasSizeLessThanOrEqualTo(FreshClaimNames.MAX_LENGTH).startsWith("ppp")
                    .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
            assertThat(names.add(recorded.name())).as("run %d got a name never used before", run).isTrue();
            assertThat(FreshClaimNames.record(store, planned, name -> launching(name), at))
                    .as("a redelivery at that instant finds it").isEqualTo(recorded);
            store.update(recorded.terminated(at, Duration.ofHours(1)));
            at = at.plus(Duration.ofMinutes(4));
        }
    }

    @Test
    void updateIncrementsTheVersionAndStoresTheNewValue() {
        NodeClaim created = store.create(launching("default-abc12"));

        NodeClaim updated = store.update(created.launched("i-0abc", "m5.xlarge", "us-east-1b", "on-demand", 0.192, T0));

        assertThat(updated.version()).isEqualTo(2);
        assertThat(store.get("default-abc12", T0)).contains(updated);
    }

    @Test
    void rejectsAnUpdateWithAStaleVersion() {
        NodeClaim created = store.create(launching("default-abc12"));
        store.update(created.launched("i-0abc", "m5.large", "us-east-1a", "spot", 0.035, T0));

        assertThatThrownBy(() -> store.update(created.registered("ip-10-0-0-1", T0))).isInstanceOf(Conflict.class);
        assertThat(store.get("default-abc12", T0).orElseThrow().state()).isEqualTo(NodeClaimState.Launched);
    }

    @Test
    void rejectsAnUpdateOfAClaimThatDoesNotExist() {
        assertThatThrownBy(() -> store.update(launching("ghost").withVersion(1))).isInstanceOf(Conflict.class);
        assertThat(store.get("ghost", T0)).isEmpty();
    }

    @RepeatedTest(3)
    void letsExactlyOneOfTwoConcurrentWritersWin() throws Exception {
        NodeClaim created = store.create(launching("default-abc12"));
        CyclicBarrier start = new CyclicBarrier(2);
        Callable<String> writerA = () -> write(start, created.launched("i-0aaa", "m5.large", "us-east-1a", "spot", 0.03, T0));
        Callable<String> writerB = () -> write(start, created.draining("emptiness", T0));

        List<String> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<String> a = pool.submit(writerA);
            Future<String> b = pool.submit(writerB);
            outcomes.add(a.get());
            outcomes.add(b.get());
        }

        assertThat(outcomes).containsExactlyInAnyOrder("won", "conflict");
        NodeClaim stored = store.get("default-abc12", T0).orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.state()).isEqualTo(outcomes.get(0).equals("won") ? NodeClaimState.Launched : NodeClaimState.Draining);
    }

    private String write(CyclicBarrier start, NodeClaim claim) throws Exception {
        start.await();
        try {
            store.update(claim);
            return "won";
        } catch (Conflict e) {
            return "conflict";
        }
    }

    @Test
    void hidesAnExpiredClaimFromEveryReaderThoughItIsStillStored() {
        NodeClaim created = store.create(launching("default-abc12"));
        NodeClaim launched = store.update(created.launched("i-0abc", "m5.large", "us-east-1a", "spot", 0.035, T0));
        Instant end = T0.plusSeconds(60);
        store.update(launched.terminated(end, Duration.ofHours(1)));
        Instant beforeExpiry = end.plus(Duration.ofMinutes(59));
        Instant atExpiry = end.plus(Duration.ofHours(1));

        assertThat(store.get("default-abc12", beforeExpiry)).isPresent();
        assertThat(store.findByInstanceId("i-0abc", beforeExpiry)).isPresent();
        assertThat(store.get("default-abc12", atExpiry)).isEmpty();
        assertThat(store.list(atExpiry)).isEmpty();
        assertThat(store.findByInstanceId("i-0abc", atExpiry)).isEmpty();
        assertThatThrownBy(() -> store.create(launching("default-abc12"))).isInstanceOf(Conflict.class);
    }

    @Test
    void findsAClaimByItsInstanceId() {
        store.create(launching("default-aaaaa"));
        NodeClaim b = store.create(launching("default-bbbbb"));
        NodeClaim launched = store.update(b.launched("i-0bbb", "m5.large", "us-east-1a", "spot", 0.035, T0));

        assertThat(store.findByInstanceId("i-0bbb", T0)).contains(launched);
        assertThat(store.findByInstanceId("i-0ccc", T0)).isEmpty();
    }

    @Test
    void listsClaimsOrderedByName() {
        for (String name : List.of("default-zz", "batch-01", "default-aa", "default-m")) {
            store.create(launching(name));
        }

        assertThat(store.list(T0)).extracting(NodeClaim::name)
                .containsExactly("batch-01", "default-aa", "default-m", "default-zz");
    }

    @Test
    void listsEveryClaimWhenThereAreMoreThanOnePage() {
        for (int i = 0; i < 25; i++) {
            store.create(launching("default-%03d".formatted(i)));
        }

        assertThat(store.list(T0)).hasSize(25).extracting(NodeClaim::name).isSorted();
    }

    @Test
    void showsAnUnavailableOfferingUntilItsMarkRunsOut() {
        OfferingKey spot = new OfferingKey("m5.large", "us-east-1a", "spot");
        OfferingKey onDemand = new OfferingKey("m5.large", "us-east-1a", "on-demand");
        store.markUnavailable(spot, T0.plus(Duration.ofMinutes(3)));
        store.markUnavailable(onDemand, T0.plus(Duration.ofMinutes(1)));

        assertThat(store.unavailableOfferings(T0)).containsExactlyInAnyOrder(spot, onDemand);
        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(2)))).containsExactly(spot);
        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(3)))).isEmpty();
    }

    @Test
    void theLaterUnavailableMarkForAnOfferingWinsWhicheverIsWrittenLast() {
        OfferingKey spot = new OfferingKey("c5.large", "us-east-1b", "spot");
        OfferingKey od = new OfferingKey("c5.large", "us-east-1b", "on-demand");
        store.markUnavailable(spot, T0.plus(Duration.ofMinutes(3)));
        store.markUnavailable(spot, T0.plus(Duration.ofMinutes(1))); // decided earlier, written later
        store.markUnavailable(od, T0.plus(Duration.ofMinutes(1)));
        store.markUnavailable(od, T0.plus(Duration.ofMinutes(3)));

        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(2)))).containsExactlyInAnyOrder(spot, od);
        assertThat(store.unavailableOfferings(T0.plus(Duration.ofMinutes(3)))).isEmpty();
    }

    @Test
    void keepsUnavailableOfferingsApartFromClaims() {
        store.markUnavailable(new OfferingKey("m5.large", "us-east-1a", "spot"), T0.plusSeconds(180));
        store.setMarker("last-hint", T0);

        assertThat(store.list(T0)).isEmpty();
        assertThat(store.get("last-hint", T0)).isEmpty();
    }

    @Test
    void storesMarkersLastWriteWins() {
        assertThat(store.marker("last-hint")).isEmpty();

        store.setMarker("last-hint", T0);
        store.setMarker("last-hint", T0.plusSeconds(5));
        store.setMarker("last-sweep", T0.minusSeconds(60));

        assertThat(store.marker("last-hint")).contains(T0.plusSeconds(5));
        assertThat(store.marker("last-sweep")).contains(T0.minusSeconds(60));
    }

    @Test
    void roundTripsEveryFieldOfAClaim() {
        List<Requirement> requirements = List.of(
                new Requirement("node.kubernetes.io/instance-type", Operator.In, List.of("m5.large", "m5.xlarge", "c5.large"), 2),
                Requirement.of("karpenter.k8s.aws/instance-cpu", Operator.Gt, "3"),
                Requirement.of("karpenter.k8s.aws/instance-memory", Operator.Lte, "65536"),
                Requirement.of("kubernetes.io/arch", Operator.NotIn, "arm64"),
                Requirement.of("example.com/gpu", Operator.DoesNotExist),
                Requirement.of("topology.kubernetes.io/zone", Operator.Exists));
        NodeClaim full = new NodeClaim("default-full", 0, "default", "sha256:abc", NodeClaimState.Draining, requirements,
                List.of("m5.large", "m5.xlarge"), List.of("ns/a", "ns/b"), "i-0123456789abcdef0", "m5.xlarge",
                "us-east-1c", "on-demand", 0.192, "ip-10-0-1-2.ec2.internal", T0, T0.plusMillis(1500),
                T0.plusSeconds(30), T0.plusSeconds(45), T0.plusSeconds(3600), T0.plusSeconds(3700), "emptiness",
                T0.plus(Duration.ofDays(2)).plusNanos(1), 7, T0.plusSeconds(3650).plusNanos(3),
                T0.plusSeconds(3500).plusNanos(5));

        NodeClaim created = store.create(full);

        assertThat(created).isEqualTo(full.withVersion(1));
        assertThat(store.get("default-full", T0)).contains(full.withVersion(1));
        assertThat(store.list(T0)).containsExactly(full.withVersion(1));
    }

    @Test
    void roundTripsTheConsolidationFieldsOfAClaim() {
        var mark = new dev.gantry.core.lifecycle.ConsolidationMark("c-abc12", "default-a",
                dev.gantry.core.lifecycle.ConsolidationMark.Phase.Launching, 3, List.of("default-a", "default-b"),
                List.of("ip-10-0-1-2.ec2.internal", "ip-10-0-1-3.ec2.internal"), List.of("c-abc12-r0"), "underutilized",
                0.384, 0.192, T0.plusSeconds(15).plusNanos(7), T0.plusSeconds(615), T0.plusSeconds(16));
        NodeClaim claim = launching("default-a").podEvent(T0.plusSeconds(5).plusNanos(9), "3f2a").launchedByConsolidation()
                .withConsolidation(mark);

        NodeClaim created = store.create(claim);

        assertThat(created).isEqualTo(claim.withVersion(1));
        assertThat(store.get("default-a", T0)).contains(claim.withVersion(1));
        NodeClaim cleared = store.update(created.withConsolidation(null));
        assertThat(store.get("default-a", T0).orElseThrow().consolidation()).as("a cleared mark stays cleared").isNull();
        assertThat(cleared.fromConsolidation()).isTrue();
        assertThat(cleared.lastPodEventAt()).isEqualTo(T0.plusSeconds(5).plusNanos(9));
    }

    @Test
    void roundTripsTheLaunchTokenABatchedClaimSharesWithItsBatch() {
        NodeClaim claim = launching("default-b").withLaunchToken("default-a");

        NodeClaim created = store.create(claim);

        assertThat(created.launchToken()).isEqualTo("default-a");
        assertThat(store.get("default-b", T0).orElseThrow().launchKey()).isEqualTo("default-a");
        assertThat(store.get("default-b", T0).orElseThrow()).isEqualTo(claim.withVersion(1));
    }

    @Test
    void roundTripsAClaimWithOnlyItsRequiredFields() {
        NodeClaim bare = new NodeClaim("bare", 0, "default", null, NodeClaimState.Launching, List.of(), List.of(),
                List.of(), null, null, null, null, 0.0, null, null, null, null, null, null, null, null, null, 0, null, null);

        store.create(bare);

        assertThat(store.get("bare", T0)).contains(bare.withVersion(1));
    }

    @Test
    void poolUsageSnapshotsRoundTripAndTheNewestWins() {
        var capacity = new dev.gantry.core.model.Resources(8000, 32L << 30, 0, 58, java.util.Map.of("nvidia.com/gpu", 1L));
        store.recordPoolUsage(new dev.gantry.core.lifecycle.PoolUsage("gpu", capacity, 2, T0));
        store.recordPoolUsage(new dev.gantry.core.lifecycle.PoolUsage("default", dev.gantry.core.model.Resources.of(4000, 16L << 30),
                1, T0.plusSeconds(60)));
        // An older run finishing late must not overwrite the newer snapshot.
        store.recordPoolUsage(new dev.gantry.core.lifecycle.PoolUsage("default", dev.gantry.core.model.Resources.of(2000, 8L << 30),
                1, T0));

        assertThat(store.poolUsage()).extracting(dev.gantry.core.lifecycle.PoolUsage::nodePool).containsExactly("default", "gpu");
        assertThat(store.poolUsage().get(0).capacity()).isEqualTo(dev.gantry.core.model.Resources.of(4000, 16L << 30));
        assertThat(store.poolUsage().get(1).capacity()).isEqualTo(capacity);
        assertThat(store.poolUsage().get(1).nodes()).isEqualTo(2);
        // DynamoDB keeps milliseconds (the newest-wins condition compares them as numbers); memory keeps the instant.
        assertThat(store.poolUsage().get(1).at()).isBetween(T0.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), T0);
    }
}
