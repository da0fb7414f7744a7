package dev.gantry.core.disruption.drift.rollout;

import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NEW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NOW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.OLD;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.canary;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.node;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.old;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: the rollout carried out over the store (the pause marker), the cluster (its Event) and the configuration
 * (the held image), as the sweep and every handler use it.
 */
class AmiRolloutsTest {
    final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    final InMemoryCluster cluster = new InMemoryCluster();
    final List<AmiRollout> paused = new ArrayList<>();
    NodeClass nodeClass = RolloutFixtures.nodeClass(Map.of());
    String image = NEW;
    final NodeClassResolution resolution = nc -> Optional.of(new NodeClassResolution.Selected(
            nc.amiSelectorTerms().stream().anyMatch(t -> t.id() != null) ? Map.of("amd64", nc.amiSelectorTerms().getFirst().id())
                    : Map.of("amd64", image), Set.of("subnet-1"), Set.of("sg-1")));
    final ClusterConfig read = new ClusterConfig(config(), null, null, "v1");
    final AmiRollouts.Wired wired = AmiRollouts.over(now -> read, store, resolution, cluster, cluster,
            Clock.fixed(NOW, ZoneOffset.UTC), paused::add);

    GantryConfig config() {
        return new GantryConfig(List.of(DriftHashesTest.POOL), List.of(nodeClass), "us-east-1", List.of());
    }

    void add(NodeClaim c, boolean ready) {
        store.create(c);
        cluster.putNode(node(c.name(), ready));
    }

    Predicate<NodeClaim> gate() {
        wired.config().current(NOW);
        return wired.rollouts().admits(store.list(NOW), NOW);
    }

    @Test
    void aFailedCanaryPausesOnceWithAnEventAndHoldsTheOldNodesBack() {
        add(old("o1"), true);
        add(old("o2"), true);
        add(canary("c", AmiRollout.READY_WITHIN, null), false);
        Predicate<NodeClaim> admits = gate();
        assertThat(admits.test(old("o1"))).isFalse();
        assertThat(store.marker(AmiRollouts.markerKey("default", Map.of("amd64", NEW)))).contains(NOW);
        assertThat(cluster.events()).singleElement().asString().contains("EC2NodeClass").contains("DriftRolloutPaused");
        assertThat(paused).hasSize(1);
        gate(); // a second sweep, or the same one delivered twice: nothing more is recorded
        assertThat(cluster.events()).hasSize(1);
        assertThat(paused).hasSize(1);
    }

    /**
     * A Gantry that resolved an alias's standard images only paused the rollout onto them; after the upgrade the alias
     * resolves its GPU image too, so the target's key names more images. The pause holds (and moves to the new key):
     * an upgrade must not send launches onto a release a canary failed on.
     */
    @Test
    void aPauseRecordedBeforeImageVariantsHoldsAfterTheAliasResolvesThem() {
        NodeClassResolution variants = nc -> Optional.of(new NodeClassResolution.Selected(
                Map.of("amd64/standard", NEW, "amd64/nvidia", "ami-new-gpu"), Set.of("subnet-1"), Set.of("sg-1")));
        AmiRollouts.Wired upgraded = AmiRollouts.over(now -> read, store, variants, cluster, cluster,
                Clock.fixed(NOW, ZoneOffset.UTC), paused::add);
        add(old("o1"), true);
        add(old("o2"), true);
        Instant pausedAt = NOW.minus(Duration.ofHours(3));
        store.setMarker(AmiRollouts.markerKey("default", Map.of("amd64", NEW)), pausedAt);

        upgraded.config().current(NOW);
        Predicate<NodeClaim> admits = upgraded.rollouts().admits(store.list(NOW), NOW);

        assertThat(admits.test(store.get("o1", NOW).orElseThrow())).isFalse();
        assertThat(upgraded.config().current(NOW).config().nodeClasses().getFirst().amiSelectorTerms())
                .extracting(NodeClass.AmiSelectorTerm::id).containsExactly(OLD);
        assertThat(store.marker(AmiRollouts.markerKey("default", Map.of("amd64/standard", NEW, "amd64/nvidia", "ami-new-gpu"))))
                .contains(pausedAt);
        assertThat(cluster.events()).isEmpty();
    }

    /** While paused, a GPU node on the alias's standard image is held back too: that image is not its key's target. */
    @Test
    void whilePausedAGpuNodeOnTheStandardImageIsHeldBack() {
        Map<String, String> target = Map.of("amd64/standard", NEW, "amd64/nvidia", "ami-new-gpu");
        NodeClassResolution variants = nc -> Optional.of(new NodeClassResolution.Selected(target, Set.of("subnet-1"), Set.of("sg-1")));
        AmiRollouts.Wired upgraded = AmiRollouts.over(now -> read, store, variants, cluster, cluster,
                Clock.fixed(NOW, ZoneOffset.UTC), paused::add);
        NodeClaim gpu = old("g").withLaunchParameters(RolloutFixtures.on(NEW));
        store.create(gpu);
        cluster.putNode(new dev.gantry.core.model.Node(gpu.nodeName(), "aws:///us-east-1a/i-g", Map.of("kubernetes.io/arch",
                "amd64", "karpenter.k8s.aws/instance-gpu-count", "1"), Map.of(), List.of(),
                dev.gantry.core.model.Resources.of(4000, 16L << 30), true, false, false, NOW.minusSeconds(7200), List.of(), null));
        store.setMarker(AmiRollouts.markerKey("default", target), NOW.minusSeconds(600));

        upgraded.config().current(NOW);
        Predicate<NodeClaim> admits = upgraded.rollouts().admits(store.list(NOW), NOW);

        assertThat(admits.test(store.get("g", NOW).orElseThrow())).isFalse();
    }

    @Test
    void whilePausedLaunchesUseTheOldImageByIdAndTheClassHashIsUnchanged() {
        add(old("o1"), true);
        add(canary("c", AmiRollout.READY_WITHIN, null), false);
        gate();
        ClusterConfig held = wired.config().current(NOW);
        NodeClass pinned = held.config().nodeClasses().getFirst();
        assertThat(pinned.amiSelectorTerms()).extracting(NodeClass.AmiSelectorTerm::id).containsExactly(OLD);
        assertThat(pinned.effectiveAmiFamily()).isEqualTo(nodeClass.effectiveAmiFamily());
        assertThat(DriftHashes.nodeClass(pinned)).isEqualTo(DriftHashes.nodeClass(nodeClass));
        assertThat(wired.config().current(NOW)).isSameAs(held);
        assertThat(wired.config().raw()).isSameAs(read.config());
    }

    /**
     * Regression: the pinned class was copied through a constructor without reservation terms, so while a rollout was
     * paused the class selected no reservation: launches went on-demand beside free reserved slots and every reserved
     * node read as {@code CapacityReservationDrift}, to be replaced. The pinned class differs in its AMI only.
     */
    @Test
    void whilePausedTheClassKeepsItsReservationTermsAndEveryOtherField() {
        NodeClass c = nodeClass;
        NodeClass reserving = new NodeClass(c.name(), c.group(), c.kind(), c.amiFamily(), c.amiSelectorTerms(),
                c.subnetSelectorTerms(), c.securityGroupSelectorTerms(), c.role(), c.instanceProfile(), c.userData(),
                c.tags(), c.blockDeviceMappings(), c.metadataOptions(), c.kubelet(), c.associatePublicIPAddress(),
                c.detailedMonitoring(), c.convertedFrom(),
                List.of(NodeClass.CapacityReservationSelectorTerm.id("cr-0123456789abcdef0")), Map.of("a", "b"));
        NodeClass pinned = AmiRollouts.pinned(reserving, Map.of("amd64", OLD));

        assertThat(pinned.capacityReservationSelectorTerms()).isEqualTo(reserving.capacityReservationSelectorTerms());
        for (var f : NodeClass.class.getRecordComponents()) {
            if (!f.getName().equals("amiSelectorTerms") && !f.getName().equals("amiFamily")) {
                try {
                    assertThat(f.getAccessor().invoke(pinned)).as(f.getName()).isEqualTo(f.getAccessor().invoke(reserving));
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
    }

    @Test
    void whilePausedTheCanaryOnTheBadImageMayStillBeReplaced() {
        add(old("o1"), true);
        NodeClaim c = canary("c", AmiRollout.READY_WITHIN, null);
        add(c, false);
        Predicate<NodeClaim> admits = gate();
        assertThat(admits.test(c.withDrift(DriftHashes.stamp(DriftHashesTest.POOL, nodeClass)
                .drift(dev.gantry.core.disruption.drift.DriftCheck.AMI, NOW)))).isTrue();
    }

    @Test
    void withNothingPausedTheClusterReadingIsPassedOnAsItIs() {
        add(old("o1"), true);
        assertThat(wired.config().current(NOW)).isSameAs(read);
        assertThat(gate().test(old("o1"))).isTrue(); // the canary wave
    }

    @Test
    void aFixedReleaseIsANewRolloutWithItsOwnCanary() {
        add(old("o1"), true);
        add(canary("c", AmiRollout.READY_WITHIN, null), false);
        gate();
        image = "ami-fixed";
        assertThat(wired.config().current(NOW)).isSameAs(read);
        assertThat(gate().test(old("o1"))).isTrue(); // the new image's canary wave; the bad canary is an old node now
    }

    @Test
    void otherDriftReasonsAreNotGated() {
        add(old("o1"), true);
        add(canary("c", Duration.ofMinutes(3), Duration.ofMinutes(1)), true);
        NodeClaim templateDrifted = old("o2").withDrift(DriftHashes.stamp(DriftHashesTest.POOL, nodeClass)
                .drift(dev.gantry.core.disruption.drift.DriftCheck.NODEPOOL, NOW));
        Predicate<NodeClaim> admits = gate();
        assertThat(admits.test(old("o1"))).isFalse(); // soaking
        assertThat(admits.test(templateDrifted)).isTrue();
    }

    @Test
    void aReleaseRollsOnlyAfterTheClustersStartDelayCountedFromWhenItWasFirstSeen() {
        add(old("o1"), true);
        wired.rollouts().withStartDelay(new StartDelay(Duration.ofMinutes(30)));
        wired.config().current(NOW);
        assertThat(wired.rollouts().admits(store.list(NOW), NOW).test(old("o1"))).isFalse();
        java.time.Instant later = NOW.plus(Duration.ofMinutes(29));
        assertThat(wired.rollouts().admits(store.list(later), later).test(old("o1"))).as("still counted from the first sight").isFalse();
        java.time.Instant after = NOW.plus(Duration.ofMinutes(30));
        assertThat(wired.rollouts().admits(store.list(after), after).test(old("o1"))).isTrue();
    }

    @Test
    void aLaunchedClaimKeepsNoLaunchRecordSoItsImageComesFromTheSweepsListing() {
        add(old("o1").withLaunchParameters(null), true);
        add(canary("c", Duration.ofMinutes(5), Duration.ofMinutes(3)).withLaunchParameters(null), true);
        wired.rollouts().listed(List.of(
                new dev.gantry.core.cloud.CloudInstance("i-o1", "m5.large", "us-east-1a", "on-demand", "running", NOW, "ip",
                        Map.of(), OLD, "subnet-1", List.of()),
                new dev.gantry.core.cloud.CloudInstance("i-c", "m5.large", "us-east-1a", "on-demand", "running", NOW, "ip",
                        Map.of(), NEW, "subnet-1", List.of())));
        assertThat(gate().test(old("o1").withLaunchParameters(null))).as("the canary soaks").isFalse();
    }
}
