package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Multiple NodePools" and "Weighted NodePools": the heaviest pool that can take a pod takes it. */
class WeightsTest {
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesToTheHighestWeightPool(Strategy s) {
        var r = scenario().pods(pods("web", 3, 500, 512, Map.of())).pool(pool("low").weight(10)).pool(pool("high").weight(90))
                .pool(pool("unset")).solve(s);
        assertThat(r.newClaims()).allSatisfy(c -> assertThat(c.nodePool()).isEqualTo("high"));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void prefersTheHeavierPoolEvenWhenItIsMoreExpensive(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("cheap").weight(1))
                .pool(pool("pricey").weight(50).req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("pricey");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesToAnExplicitlySelectedPoolEvenIfOthersWeighMore(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.NODEPOOL, "light")).build())
                .pool(pool("heavy").weight(100)).pool(pool("light").weight(1)).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("light");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fallsThroughToALighterPoolWhenTheHeavierIsIncompatible(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build())
                .pool(pool("amd").weight(100).req(WellKnownLabels.ARCH, Operator.In, "amd64")).pool(pool("any").weight(1)).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("any");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesToAPoolByItsLabels(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of("team", "b")).build())
                .pool(pool("a").label("team", "a")).pool(pool("b").label("team", "b")).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("b");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void breaksEqualWeightsByNameForDeterminism(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("zeta").weight(5)).pool(pool("alpha").weight(5)).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("alpha");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void treatsAnUnsetWeightAsLighterThanAnyWeight(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("aaa-unset")).pool(pool("zzz-weighted").weight(1)).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("zzz-weighted");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void explainsEveryPoolsRefusalWhenNoneFits(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ARCH, "s390x")).build())
                .pool(pool("a").weight(2).req(WellKnownLabels.ARCH, Operator.In, "amd64"))
                .pool(pool("b").weight(1).req(WellKnownLabels.ARCH, Operator.In, "arm64")).solve(s);
        assertThat(reasonFor(r, "p")).contains("NodePool a allows [amd64]").contains("NodePool b allows [arm64]");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void reportsThatNoPoolCanLaunchWhenThereAreNone(Strategy s) {
        var r = scenario().pods(pod("p").build()).solve(s);
        assertThat(reasonFor(r, "p")).isEqualTo("no NodePool can launch capacity");
    }
}
