package dev.gantry.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeTaintTest {
    private static Node tainted(Taint... taints) {
        return new Node("n", null, null, null, List.of(taints), null, true, true, false, null, null, null);
    }

    @Test
    void aNodeCarriesATaintWithItsKeyAndEffectWhateverItsValue() {
        assertThat(tainted(new Taint("karpenter.sh/disrupted", "consolidation", Taint.Effect.NoSchedule)).hasTaint(Taint.DISRUPTED))
                .isTrue();
    }

    @Test
    void theSameKeyWithAnotherEffectIsAnotherTaint() {
        assertThat(tainted(new Taint("karpenter.sh/disrupted", "", Taint.Effect.NoExecute)).hasTaint(Taint.DISRUPTED)).isFalse();
        assertThat(tainted().hasTaint(Taint.DISRUPTED)).isFalse();
    }
}
