package dev.gantry.core.disruption.drift.rollout;

import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodeClass;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: a per-cluster start delay for AMI releases (against the storms of aws/karpenter-provider-aws#6862 and
 * #6952, where every cluster following {@code @latest} drifts in the same minute).
 */
class StartDelayTest {
    @Test
    void theDelayIsTheSameForOneClusterAndWithinTheWindow() {
        String arn = "arn:aws:eks:us-east-1:111122223333:cluster/prod";
        assertThat(StartDelay.of(arn)).isEqualTo(StartDelay.of(arn));
        assertThat(StartDelay.of(arn).delay()).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(StartDelay.WINDOW);
    }

    @Test
    void aFleetOfClustersSpreadsOverTheWindow() {
        Set<Long> minutes = new HashSet<>();
        int[] perQuarter = new int[4];
        IntStream.range(0, 400).forEach(i -> {
            Duration d = StartDelay.of("arn:aws:eks:us-east-1:111122223333:cluster/c" + i).delay();
            minutes.add(d.toMinutes());
            perQuarter[(int) (d.toMinutes() / 15)]++;
        });
        assertThat(minutes).as("distinct start minutes of 400 clusters").hasSizeGreaterThan(50);
        for (int q : perQuarter) {
            assertThat(q).as("clusters per quarter hour").isBetween(60, 140);
        }
    }

    @Test
    void aReleaseWaitsForTheDelayBeforeItsCanaryThenStarts() {
        List<dev.gantry.core.lifecycle.NodeClaim> claims = List.of(RolloutFixtures.old("o1"));
        Map<String, dev.gantry.core.model.Node> nodes = Map.of("node-o1", RolloutFixtures.node("o1", true));
        AmiRollout waiting = AmiRollout.decide("default", RolloutPolicy.DEFAULT, RolloutFixtures.TARGET, claims, nodes,
                Optional.empty(), null, NOW.plusSeconds(60), NOW);
        assertThat(waiting.phase()).isEqualTo(AmiRollout.Phase.WAITING);
        assertThat(waiting.admitsOldNodes()).isFalse();
        AmiRollout started = AmiRollout.decide("default", RolloutPolicy.DEFAULT, RolloutFixtures.TARGET, claims, nodes,
                Optional.empty(), null, NOW, NOW);
        assertThat(started.phase()).isEqualTo(AmiRollout.Phase.CANARY);
    }

    @Test
    void onlyAClassFollowingReleasesWaits() {
        assertThat(AmiRollouts.followsReleases(RolloutFixtures.nodeClass(Map.of()))).isTrue();
        NodeClass pinned = AmiRollouts.pinned(RolloutFixtures.nodeClass(Map.of()), Map.of("amd64", "ami-1"));
        assertThat(AmiRollouts.followsReleases(pinned)).isFalse();
    }
}
