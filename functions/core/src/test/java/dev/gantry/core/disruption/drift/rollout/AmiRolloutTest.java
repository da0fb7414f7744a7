package dev.gantry.core.disruption.drift.rollout;

import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NEW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NOW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.OLD;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.TARGET;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.canary;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.node;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.old;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.drift.rollout.AmiRollout.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: an AMI rollout in waves with a health gate (Karpenter v1.14 replaces AMI-drifted nodes within the
 * Drifted budget with no canary or soak: core {@code pkg/controllers/disruption/drift.go}).
 */
class AmiRolloutTest {
    final List<NodeClaim> claims = new ArrayList<>();
    final Map<String, Node> nodes = new HashMap<>();

    void add(NodeClaim c, boolean ready) {
        claims.add(c);
        nodes.put(c.nodeName(), node(c.name(), ready));
    }

    void olds(int n) {
        for (int i = 0; i < n; i++) {
            add(old("o" + i), true);
        }
    }

    AmiRollout decide(RolloutPolicy policy, Optional<Instant> paused, String resume) {
        return AmiRollout.decide("default", policy, TARGET, claims, nodes, paused, resume, NOW);
    }

    AmiRollout decide() {
        return decide(RolloutPolicy.DEFAULT, Optional.empty(), null);
    }

    @Test
    void withEveryNodeOnTheTargetThereIsNothingToRoll() {
        add(canary("c", Duration.ofHours(1), Duration.ofHours(1)), true);
        assertThat(decide().phase()).isEqualTo(Phase.NONE);
        assertThat(decide().admitsOldNodes()).isTrue();
    }

    @Test
    void aNewImageStartsWithACanaryWaveThatAdmitsOldNodes() {
        olds(5);
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.CANARY);
        assertThat(r.canaries()).isEqualTo(1);
        assertThat(r.admitsOldNodes()).isTrue();
    }

    @Test
    void onceTheCanaryIsOutTheRestWaitsForItsSoak() {
        olds(5);
        add(canary("c", Duration.ofMinutes(5), Duration.ofMinutes(3)), true);
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.SOAK);
        assertThat(r.admitsOldNodes()).isFalse();
    }

    @Test
    void aCanaryStillLaunchingFillsTheWave() {
        olds(5);
        claims.add(NodeClaim.launching("r", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, NOW));
        assertThat(decide().phase()).isEqualTo(Phase.SOAK);
    }

    @Test
    void aCanaryReadyForTheWholeSoakLetsTheRestGo() {
        olds(5);
        add(canary("c", Duration.ofMinutes(20), RolloutPolicy.DEFAULT_SOAK), true);
        assertThat(decide().phase()).isEqualTo(Phase.GO);
        assertThat(decide().admitsOldNodes()).isTrue();
    }

    @Test
    void aPercentageWaveIsRoundedUpOverTheClassNodes() {
        olds(19);
        add(canary("c", Duration.ofMinutes(20), Duration.ofMinutes(16)), true);
        RolloutPolicy tenPercent = RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "10%"));
        AmiRollout r = decide(tenPercent, Optional.empty(), null);
        assertThat(r.canaries()).isEqualTo(2);
        assertThat(r.phase()).isEqualTo(Phase.CANARY);
    }

    @Test
    void aCanaryNeverReadyPausesTheRolloutAndHoldsTheOldImage() {
        olds(5);
        add(canary("c", AmiRollout.READY_WITHIN, null), false);
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.PAUSED);
        assertThat(r.failed()).isTrue();
        assertThat(r.held()).containsEntry("amd64", OLD);
        assertThat(r.admitsOldNodes()).isFalse();
        assertThat(r.why()).contains("not Ready").contains(RolloutPolicy.RESUME);
    }

    @Test
    void aCanaryNotYetReadyInsideItsTimeIsNotAFailure() {
        olds(5);
        add(canary("c", AmiRollout.READY_WITHIN.minusSeconds(1), null), false);
        assertThat(decide().phase()).isEqualTo(Phase.SOAK);
    }

    @Test
    void aCanaryDeletedBeforeItInitializedPausesTheRollout() {
        olds(3);
        claims.add(canary("c", Duration.ofMinutes(3), null).draining("consolidation-aborted", NOW));
        assertThat(decide().failed()).isTrue();
    }

    @Test
    void aCanaryThatGoesNotReadyDuringItsSoakPausesTheRollout() {
        olds(3);
        add(canary("c", Duration.ofMinutes(8), Duration.ofMinutes(6)), false);
        assertThat(decide().failed()).isTrue();
    }

    /**
     * EC2 reuses a private IP, and with it the host name that is the node's name: a NotReady node of another instance
     * under the canary's registered node name is not the canary's (ClaimsByNode's rule: the provider id wins), so it
     * does not fail the rollout. By the name alone it did.
     */
    @Test
    void aNotReadyNodeOfAnotherInstanceUnderTheCanarysNodeNameDoesNotFailTheRollout() {
        olds(3);
        NodeClaim c = canary("c", Duration.ofMinutes(8), Duration.ofMinutes(6));
        claims.add(c);
        nodes.put(c.nodeName(), new Node(c.nodeName(), "aws:///us-east-1a/i-someone-else", Map.of("kubernetes.io/arch", "amd64"),
                Map.of(), List.of(), dev.gantry.core.model.Resources.of(2000, 8L << 30), false, false, false, NOW, List.of(), null));

        AmiRollout r = decide();

        assertThat(r.failed()).isFalse();
        assertThat(r.phase()).isEqualTo(Phase.SOAK);
    }

    @Test
    void aLaunchThatNeverGotAnInstanceIsNotTheImagesFault() {
        olds(3);
        claims.add(NodeClaim.launching("r", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, NOW.minusSeconds(1200)).withLaunchParameters(RolloutFixtures.on(NEW))
                .draining("insufficient-capacity", NOW));
        assertThat(decide().phase()).isEqualTo(Phase.CANARY);
    }

    @Test
    void aRecordedPauseHoldsUntilTheOperatorNamesTheImage() {
        olds(3);
        add(canary("c", Duration.ofHours(1), Duration.ofHours(1)), true); // even a canary that later soaked
        assertThat(decide(RolloutPolicy.DEFAULT, Optional.of(NOW.minusSeconds(60)), null).phase()).isEqualTo(Phase.PAUSED);
        assertThat(decide(RolloutPolicy.DEFAULT, Optional.of(NOW.minusSeconds(60)), "ami-other").phase()).isEqualTo(Phase.PAUSED);
        AmiRollout resumed = decide(RolloutPolicy.DEFAULT, Optional.of(NOW.minusSeconds(60)), NEW);
        assertThat(resumed.phase()).isEqualTo(Phase.RESUMED);
        assertThat(resumed.admitsOldNodes()).isTrue();
    }

    @Test
    void afterTheCanariesSoakedALaterFailureDoesNotPause() {
        olds(3);
        add(canary("c", Duration.ofHours(1), Duration.ofMinutes(50)), true);
        add(canary("d", Duration.ofMinutes(30), null), false);
        assertThat(decide().phase()).isEqualTo(Phase.GO);
    }

    @Test
    void theHeldImageIsTheOneMostOldNodesRun() {
        olds(3);
        add(old("x").withLaunchParameters(RolloutFixtures.on("ami-older")), true);
        assertThat(AmiRollout.held(claims, nodes, Map.of("amd64", NEW))).isEqualTo(Map.of("amd64", OLD));
    }

    /**
     * A GPU node on the alias's standard image (launched before Gantry resolved the NVIDIA image) runs one of the
     * target's images but not its own key's: it is an old node, so its move onto the NVIDIA image waits for a canary
     * like any other, rather than counting as already rolled.
     */
    @Test
    void aGpuNodeOnTheStandardImageIsOldSoItsMoveToTheNvidiaImageWaitsForACanary() {
        NodeClaim gpu = old("g").withLaunchParameters(RolloutFixtures.on(NEW));
        claims.add(gpu);
        nodes.put(gpu.nodeName(), new Node(gpu.nodeName(), "aws:///us-east-1a/i-g", Map.of("kubernetes.io/arch", "amd64",
                "karpenter.k8s.aws/instance-gpu-count", "1"), Map.of(), List.of(), dev.gantry.core.model.Resources.of(4000, 16L << 30),
                true, false, false, NOW.minusSeconds(7200), List.of(), null));
        Map<String, String> target = Map.of("amd64/standard", NEW, "amd64/nvidia", "ami-new-gpu");

        AmiRollout r = AmiRollout.decide("default", RolloutPolicy.DEFAULT, target, claims, nodes, Optional.empty(), null, NOW);

        assertThat(r.phase()).isEqualTo(Phase.CANARY);
        assertThat(r.exposed()).isZero();
    }

    @Test
    void underAnAliasTheGpuNodesImageIsHeldForGpuTypesAndPinnedForThem() {
        olds(2);
        NodeClaim gpu = old("g").withLaunchParameters(RolloutFixtures.on("ami-old-gpu"));
        claims.add(gpu);
        nodes.put(gpu.nodeName(), new Node(gpu.nodeName(), "aws:///us-east-1a/i-g", Map.of("kubernetes.io/arch", "amd64",
                "karpenter.k8s.aws/instance-gpu-count", "1"), Map.of(), List.of(), dev.gantry.core.model.Resources.of(4000, 16L << 30),
                true, false, false, NOW.minusSeconds(7200), List.of(), null));
        Map<String, String> target = Map.of("amd64/standard", NEW, "amd64/nvidia", "ami-new-gpu");

        Map<String, String> held = AmiRollout.held(claims, nodes, target);
        assertThat(held).isEqualTo(Map.of("amd64/standard", OLD, "amd64/nvidia", "ami-old-gpu"));
        // A paused class launches on the held images by id, each for the types it served.
        assertThat(AmiRollouts.pinned(RolloutFixtures.nodeClass(Map.of()), held).amiSelectorTerms()).containsExactly(
                dev.gantry.core.model.NodeClass.AmiSelectorTerm.pinned("ami-old-gpu", "amd64/nvidia"),
                dev.gantry.core.model.NodeClass.AmiSelectorTerm.pinned(OLD, "amd64/standard"));
    }
}
