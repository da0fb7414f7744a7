package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The four reason formats issue #3 names, word for word, from both strategies. */
class UnschedulableReasonTest {
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void namesTheRequirementAndWhatThePoolAllows(Strategy s) {
        var r = scenario().pods(pod("arm").nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build())
                .pool(pool("default").req(WellKnownLabels.ARCH, Operator.In, "amd64")).solve(s);
        assertThat(reasonFor(r, "arm")).isEqualTo("requires kubernetes.io/arch In [arm64]; NodePool default allows [amd64]");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void namesTheExtendedResourceNoTypeOffers(Strategy s) {
        var r = scenario().pods(pod("gpu").requests(Resources.of(1000, GI).with(Resources.NVIDIA_GPU, 8)).build()).pool(pool("default")).solve(s);
        assertThat(reasonFor(r, "gpu")).isEqualTo("no instance type offers 8 nvidia.com/gpu");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void namesTheLimitThatWouldBeExceeded(Strategy s) {
        var offer = new SchedulingInput.PoolOffer(pool("default").limit("cpu", "20").build(), catalogue(), Resources.of(19_000, 40 * GI), 4);
        var r = scenario().pods(pod("p", 2000, 1024).build()).pool(offer).solve(s);
        assertThat(reasonFor(r, "p")).startsWith("NodePool default would exceed its cpu limit (20)");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void namesTheMinDomainsThatCannotBeMet(Strategy s) {
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, true, selector("app", "web"), 3, List.of(), true, false);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).topologySpread(List.of(spread)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(0), ZONES.get(1))).solve(s);
        assertThat(r.unschedulable()).hasSize(1);
        assertThat(r.unschedulable().get(0).reason()).isEqualTo("topology spread on zone cannot be satisfied: only 2 zones allowed, minDomains 3");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void givesEveryUnplacedPodAReason(Strategy s) {
        var r = scenario().pods(pod("gpu").requests(Resources.of(1000, GI).with(Resources.NVIDIA_GPU, 8)).build(),
                pod("zone").nodeSelector(Map.of(WellKnownLabels.ZONE, "nowhere")).build(), pod("ok").build()).pool(pool("default")).solve(s);
        assertThat(r.placedCount() + r.unschedulable().size()).isEqualTo(3);
        assertThat(r.unschedulable()).allSatisfy(u -> assertThat(u.reason()).isNotBlank());
    }
}
