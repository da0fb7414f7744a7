package dev.gantry.core.disruption.drift.rollout;

import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.NOW;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.TARGET;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.node;
import static dev.gantry.core.disruption.drift.rollout.RolloutFixtures.old;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.drift.rollout.AmiRollout.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: a launch refused for its image counts against the canary; one that found no capacity does not
 * (Karpenter v1.14.1 tells the two apart only for a condition's message: {@code ToReasonMessage},
 * aws/karpenter-provider-aws pkg/errors/errors.go, InvalidAMIID.NotFound and InvalidAMIID.Malformed).
 */
class CanaryLaunchRefusedTest {
    final List<NodeClaim> claims = new ArrayList<>();
    final Map<String, Node> nodes = new HashMap<>();

    /** A replacement recorded after the target was first seen, whose launch was closed with {@code reason}. */
    static NodeClaim closed(String reason) {
        return NodeClaim.launching("r", "general", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "on-demand", 0.1, NOW.minusSeconds(30)).withLaunchParameters(RolloutFixtures.on(RolloutFixtures.NEW))
                .draining(reason, NOW.minusSeconds(29)).terminated(NOW.minusSeconds(29), Duration.ofHours(1))
                .withLaunchParameters(null);
    }

    AmiRollout decide() {
        for (int i = 0; i < 5; i++) {
            NodeClaim o = old("o" + i);
            claims.add(o);
            nodes.put(o.nodeName(), node(o.name(), true));
        }
        return AmiRollout.decide("default", RolloutPolicy.DEFAULT, TARGET, claims, nodes,
                new AmiRollout.Images(Map.of(), NOW.minus(Duration.ofMinutes(5))), CanaryPods.NONE, Optional.empty(), null, null, NOW);
    }

    @Test
    @DisplayName("Gantry's own: a canary launch refused for its image (InvalidAMIID.*) pauses the rollout")
    void aLaunchRefusedForItsImagePausesTheRollout() {
        claims.add(closed(NodeClaim.IMAGE_REFUSED));
        AmiRollout r = decide();
        assertThat(r.phase()).isEqualTo(Phase.PAUSED);
        assertThat(r.failed()).isTrue();
        assertThat(r.why()).contains("the launch of nodeclaim/r was refused for its image");
    }

    @Test
    @DisplayName("Gantry's own: a canary launch that found no capacity is not the image's fault")
    void aLaunchWithoutCapacityDoesNotCount() {
        claims.add(closed("launch-failed"));
        assertThat(decide().phase()).isEqualTo(Phase.CANARY);
    }
}
