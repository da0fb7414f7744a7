package dev.gantry.core.model;

import static dev.gantry.core.model.Taint.Effect.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tolerations by the rules of Kubernetes' {@code Toleration.ToleratesTaint}. */
class TolerationTest {
    private static final Taint GPU = new Taint("nvidia.com/gpu", "true", NoSchedule);
    private static final Taint DEDICATED = new Taint("dedicated", "infra", NoExecute);
    private static final Taint SOFT = new Taint("soft", "", PreferNoSchedule);

    @Test
    void anEmptyKeyWithExistsToleratesEveryTaint() {
        Toleration all = Toleration.exists("");
        assertThat(all.tolerates(GPU)).isTrue();
        assertThat(all.tolerates(DEDICATED)).isTrue();
        assertThat(all.tolerates(Taint.DISRUPTED)).isTrue();
        assertThat(new Toleration(null, Toleration.Operator.Exists, null, null).tolerates(GPU)).isTrue();
    }

    @Test
    void anEmptyKeyWithExistsAndAnEffectToleratesOnlyThatEffect() {
        Toleration t = new Toleration("", Toleration.Operator.Exists, "", NoSchedule);
        assertThat(t.tolerates(GPU)).isTrue();
        assertThat(t.tolerates(DEDICATED)).isFalse();
    }

    @Test
    void existsToleratesAnyValueOfItsKey() {
        Toleration t = Toleration.exists("dedicated");
        assertThat(t.tolerates(DEDICATED)).isTrue();
        assertThat(t.tolerates(new Taint("dedicated", "other", NoSchedule))).isTrue();
        assertThat(t.tolerates(GPU)).isFalse();
    }

    @Test
    void equalNeedsTheSameKeyAndValue() {
        assertThat(Toleration.equal("dedicated", "infra", NoExecute).tolerates(DEDICATED)).isTrue();
        assertThat(Toleration.equal("dedicated", "apps", NoExecute).tolerates(DEDICATED)).isFalse();
        assertThat(Toleration.equal("other", "infra", NoExecute).tolerates(DEDICATED)).isFalse();
        assertThat(Toleration.equal("soft", "", null).tolerates(SOFT)).isTrue();
        assertThat(Toleration.equal("soft", null, null).tolerates(SOFT)).isTrue();
    }

    @Test
    void aNullEffectMatchesEveryEffect() {
        Toleration t = Toleration.equal("dedicated", "infra", null);
        for (Taint.Effect e : Taint.Effect.values()) {
            assertThat(t.tolerates(new Taint("dedicated", "infra", e))).as("%s", e).isTrue();
        }
    }

    @Test
    void aDifferentEffectIsNotTolerated() {
        assertThat(Toleration.equal("dedicated", "infra", NoSchedule).tolerates(DEDICATED)).isFalse();
    }

    @Test
    void theOperatorDefaultsToEqual() {
        Toleration t = new Toleration("dedicated", null, "infra", null);
        assertThat(t.operator()).isEqualTo(Toleration.Operator.Equal);
        assertThat(t.tolerates(DEDICATED)).isTrue();
        assertThat(t.tolerates(new Taint("dedicated", "x", NoExecute))).isFalse();
    }

    @Test
    void anEmptyKeyWithEqualMatchesAnyKeyWithThatValue() {
        // Kubernetes' API validation forbids this form, but ToleratesTaint itself only compares the value.
        Toleration t = new Toleration("", Toleration.Operator.Equal, "infra", null);
        assertThat(t.tolerates(DEDICATED)).isTrue();
        assertThat(t.tolerates(GPU)).isFalse();
    }

    @Test
    void findsTheFirstHardTaintNotTolerated() {
        List<Taint> taints = List.of(SOFT, GPU, DEDICATED);
        assertThat(Toleration.firstUntolerated(List.of(), taints)).isEqualTo(GPU);
        assertThat(Toleration.firstUntolerated(List.of(Toleration.exists("nvidia.com/gpu")), taints)).isEqualTo(DEDICATED);
        assertThat(Toleration.firstUntolerated(List.of(Toleration.exists("nvidia.com/gpu"), Toleration.exists("dedicated")), taints))
                .isNull();
        assertThat(Toleration.anyTolerates(List.of(Toleration.exists("x"), Toleration.exists("soft")), SOFT)).isTrue();
        assertThat(Toleration.anyTolerates(List.of(), SOFT)).isFalse();
    }

    @Test
    void parsesTaintEffectsByTheirExactSpelling() {
        assertThat(Taint.Effect.parse("NoSchedule")).isEqualTo(NoSchedule);
        assertThat(Taint.Effect.parse("PreferNoSchedule")).isEqualTo(PreferNoSchedule);
        assertThat(Taint.Effect.parse("NoExecute")).isEqualTo(NoExecute);
        assertThatThrownBy(() -> Taint.Effect.parse("noschedule")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'noschedule' is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)");
        assertThatThrownBy(() -> Taint.Effect.parse(null)).hasMessage("'null' is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)");
    }

    @Test
    void taintsPrintAsKubectlWritesThem() {
        assertThat(GPU).hasToString("nvidia.com/gpu=true:NoSchedule");
        assertThat(Taint.DISRUPTED).hasToString("karpenter.sh/disrupted:NoSchedule");
        assertThat(new Taint("k", null, NoExecute).value()).isEmpty();
        assertThatThrownBy(() -> new Taint("k", "v", null)).isInstanceOf(NullPointerException.class);
    }
}
