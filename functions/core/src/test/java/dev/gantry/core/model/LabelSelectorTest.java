package dev.gantry.core.model;

import static dev.gantry.core.requirements.Operator.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.requirements.Requirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {
    private static final Map<String, String> WEB = Map.of("app", "web", "tier", "front");

    @Test
    void theEmptySelectorMatchesEveryObjectAndNothingMatchesNone() {
        assertThat(LabelSelector.EVERYTHING.matches(WEB)).isTrue();
        assertThat(LabelSelector.EVERYTHING.matches(Map.of())).isTrue();
        assertThat(LabelSelector.NOTHING.matches(WEB)).isFalse();
        assertThat(LabelSelector.NOTHING.matches(Map.of())).isFalse();
    }

    @Test
    void matchLabelsNeedEveryLabelWithItsValue() {
        assertThat(LabelSelector.of(Map.of("app", "web")).matches(WEB)).isTrue();
        assertThat(LabelSelector.of(Map.of("app", "web", "tier", "back")).matches(WEB)).isFalse();
        assertThat(LabelSelector.of(Map.of("missing", "x")).matches(WEB)).isFalse();
    }

    @Test
    void matchExpressionsFollowLabelSelectorOperators() {
        assertThat(expr(Requirement.of("app", In, "web", "api")).matches(WEB)).isTrue();
        assertThat(expr(Requirement.of("app", NotIn, "web")).matches(WEB)).isFalse();
        assertThat(expr(Requirement.of("team", NotIn, "x")).matches(WEB)).isTrue(); // NotIn matches an absent label
        assertThat(expr(Requirement.of("tier", Exists)).matches(WEB)).isTrue();
        assertThat(expr(Requirement.of("team", Exists)).matches(WEB)).isFalse();
        assertThat(expr(Requirement.of("team", DoesNotExist)).matches(WEB)).isTrue();
        assertThat(expr(Requirement.of("app", DoesNotExist)).matches(WEB)).isFalse();
    }

    @Test
    void labelsAndExpressionsMustAllHold() {
        LabelSelector s = new LabelSelector(Map.of("app", "web"), List.of(Requirement.of("tier", In, "back")), false);
        assertThat(s.matches(WEB)).isFalse();
        assertThat(s.matches(Map.of("app", "web", "tier", "back"))).isTrue();
    }

    @Test
    void selectorReadsPodLabelKeysLiterallyWithoutNodeLabelAliases() {
        // Regression: expressions went through Requirements.of, which renamed beta.kubernetes.io/arch to
        // kubernetes.io/arch and then looked for that key among the pod's labels.
        Map<String, String> pod = Map.of("beta.kubernetes.io/arch", "arm64", "eks.amazonaws.com/instance-category", "c");
        assertThat(expr(Requirement.of("beta.kubernetes.io/arch", In, "arm64")).matches(pod)).isTrue();
        assertThat(expr(Requirement.of("eks.amazonaws.com/instance-category", Exists)).matches(pod)).isTrue();
        assertThat(expr(Requirement.of("kubernetes.io/arch", Exists)).matches(pod)).isFalse();
    }

    @Test
    void andNarrowsBySomeExactLabels() {
        LabelSelector s = expr(Requirement.of("app", Exists)).and(Map.of("tier", "front"));
        assertThat(s.matches(WEB)).isTrue();
        assertThat(s.matches(Map.of("app", "web", "tier", "back"))).isFalse();
        assertThat(LabelSelector.NOTHING.and(Map.of("a", "b"))).isSameAs(LabelSelector.NOTHING);
        assertThat(LabelSelector.EVERYTHING.and(Map.of())).isSameAs(LabelSelector.EVERYTHING);
    }

    private static LabelSelector expr(Requirement r) {
        return new LabelSelector(null, List.of(r), false);
    }
}
