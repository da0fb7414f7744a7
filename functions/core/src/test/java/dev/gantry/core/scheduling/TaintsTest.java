package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** NodePool taints against pod tolerations; startup taints never block scheduling. */
class TaintsTest {
    static Stream<Arguments> tolerations() {
        return Stream.of(
                Arguments.of("equal key, value and effect", Taint.Effect.NoSchedule, Toleration.equal("dedicated", "gpu", Taint.Effect.NoSchedule), true),
                Arguments.of("exists on the key", Taint.Effect.NoSchedule, Toleration.exists("dedicated"), true),
                Arguments.of("empty key exists tolerates everything", Taint.Effect.NoSchedule, Toleration.exists(""), true),
                Arguments.of("equal with no effect matches every effect", Taint.Effect.NoExecute, Toleration.equal("dedicated", "gpu", null), true),
                Arguments.of("NoExecute tolerated explicitly", Taint.Effect.NoExecute, Toleration.equal("dedicated", "gpu", Taint.Effect.NoExecute), true),
                Arguments.of("wrong value", Taint.Effect.NoSchedule, Toleration.equal("dedicated", "cpu", Taint.Effect.NoSchedule), false),
                Arguments.of("wrong effect", Taint.Effect.NoExecute, Toleration.equal("dedicated", "gpu", Taint.Effect.NoSchedule), false),
                Arguments.of("wrong key", Taint.Effect.NoSchedule, Toleration.exists("other"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tolerations")
    void schedulesOnATaintedPoolOnlyWhenTheTaintIsTolerated(String why, Taint.Effect effect, Toleration toleration, boolean schedules) {
        var r = scenario().pods(pod("p").tolerations(List.of(toleration)).build()).pool(pool("default").taint("dedicated", "gpu", effect)).solve();
        assertThat(r.unschedulable().isEmpty()).isEqualTo(schedules);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void explainsWhichPoolTaintBlocksThePod(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("gpu").taint("nvidia.com/gpu", "true", Taint.Effect.NoSchedule)).solve(s);
        assertThat(reasonFor(r, "p")).isEqualTo("NodePool gpu has taint nvidia.com/gpu=true:NoSchedule, which the pod does not tolerate");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresStartupTaintsForScheduling(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("default").startupTaint("node.cilium.io/agent-not-ready", Taint.Effect.NoExecute)).solve(s);
        assertAllScheduled(r);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesUntoleratingPodsToTheUntaintedPool(Strategy s) {
        var plain = scenario().pods(pod("plain").build())
                .pool(pool("dedicated").weight(50).taint("dedicated", "team-a", Taint.Effect.NoSchedule)).pool(pool("general")).solve(s);
        var tolerant = scenario().pods(pod("tolerant").tolerations(List.of(Toleration.exists("dedicated"))).build())
                .pool(pool("dedicated").weight(50).taint("dedicated", "team-a", Taint.Effect.NoSchedule)).pool(pool("general")).solve(s);
        assertThat(claimOf(plain, "plain").nodePool()).isEqualTo("general");
        assertThat(claimOf(tolerant, "tolerant").nodePool()).isEqualTo("dedicated");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void requiresEveryPoolTaintToBeTolerated(Strategy s) {
        var r = scenario().pods(pod("p").tolerations(List.of(Toleration.exists("a"))).build())
                .pool(pool("default").taint("a", "1", Taint.Effect.NoSchedule).taint("b", "1", Taint.Effect.NoExecute)).solve(s);
        assertThat(reasonFor(r, "p")).contains("b=1:NoExecute");
    }
}
