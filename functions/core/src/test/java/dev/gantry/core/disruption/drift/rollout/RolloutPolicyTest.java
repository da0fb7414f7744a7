package dev.gantry.core.disruption.drift.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gantry's own: the EC2NodeClass annotations {@code gantry.dev/drift-canary} and {@code gantry.dev/drift-soak}. */
class RolloutPolicyTest {
    @Test
    void withoutAnnotationsOneCanarySoaksFifteenMinutes() {
        RolloutPolicy p = RolloutPolicy.of(Map.of());
        assertThat(p).isEqualTo(RolloutPolicy.DEFAULT);
        assertThat(p.canaries(200)).isEqualTo(1);
        assertThat(p.soak()).isEqualTo(Duration.ofMinutes(15));
    }

    @Test
    void aCountOrAPercentageRoundedUpAndAtLeastOne() {
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "3")).canaries(200)).isEqualTo(3);
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "10%")).canaries(200)).isEqualTo(20);
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "10%")).canaries(15)).isEqualTo(2);
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "1%")).canaries(3)).isEqualTo(1);
    }

    @Test
    void soakDurations() {
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.SOAK, "1h30m")).soak()).isEqualTo(Duration.ofMinutes(90));
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.SOAK, "90s")).soak()).isEqualTo(Duration.ofSeconds(90));
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.SOAK, "0")).soak()).isZero();
    }

    @Test
    void badValuesAreNamedAndFallBackToTheDefault() {
        assertThat(RolloutPolicy.canaryProblem("ten")).get().asString().contains("node count");
        assertThat(RolloutPolicy.canaryProblem("0")).isPresent();
        assertThat(RolloutPolicy.canaryProblem("150%")).isPresent();
        assertThat(RolloutPolicy.soakProblem("15 minutes")).get().asString().contains("15m");
        assertThat(RolloutPolicy.of(Map.of(RolloutPolicy.CANARY, "ten", RolloutPolicy.SOAK, "x"))).isEqualTo(RolloutPolicy.DEFAULT);
    }
}
