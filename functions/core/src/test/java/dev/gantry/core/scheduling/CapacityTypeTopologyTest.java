package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's capacity-type topology cases: spot and on-demand are the two domains. */
class CapacityTypeTopologyTest {
    private static final Map<String, String> WEB = Map.of("app", "web");

    private static List<Pod> pods(int n, TopologySpread spread, Map<String, String> nodeSelector) {
        return IntStream.range(0, n).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(spread))
                .nodeSelector(nodeSelector).build()).toList();
    }

    private static TopologySpread spread(boolean doNotSchedule, boolean honorNodeAffinity) {
        return new TopologySpread(1, WellKnownLabels.CAPACITY_TYPE, doNotSchedule, selector("app", "web"), null, List.of(), honorNodeAffinity, false);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossCapacityTypes(Strategy s) {
        var r = scenario().pods(pods(4, spread(true, true), Map.of())).pool(pool("default")).solve(s);
        assertThat(podsPerCapacityType(r)).containsEntry("spot", 2L).containsEntry("on-demand", 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsThePoolsCapacityTypeConstraint(Strategy s) {
        var r = scenario().pods(pods(4, spread(true, true), Map.of())).pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "spot")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerCapacityType(r)).containsOnlyKeys("spot");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateMaxSkewWhenUnsatisfiableIsDoNotSchedule(Strategy s) {
        var r = scenario().pods(pods(3, spread(true, false), Map.of(WellKnownLabels.CAPACITY_TYPE, "on-demand"))).pool(pool("default")).solve(s);
        assertThat(r.placedCount()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void violatesMaxSkewWhenUnsatisfiableIsScheduleAnyway(Strategy s) {
        var r = scenario().pods(pods(3, spread(false, false), Map.of(WellKnownLabels.CAPACITY_TYPE, "on-demand"))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerCapacityType(r)).containsOnlyKeys("on-demand");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void limitsSpreadOptionsByRequiredCapacityType(Strategy s) {
        var r = scenario().pods(pods(4, spread(true, true), Map.of(WellKnownLabels.CAPACITY_TYPE, "on-demand"))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerCapacityType(r)).containsOnlyKeys("on-demand");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void spreadsAcrossZonesAndCapacityTypesTogether(Strategy s) {
        var zonal = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(zonal, spread(true, true))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
        assertThat(podsPerCapacityType(r)).containsEntry("spot", 3L).containsEntry("on-demand", 3L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsExistingNodesCapacityType(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("old-0", 100, 128, WEB).build(), pod("old-1", 100, 128, WEB).build());
        var r = scenario().pods(pods(2, spread(true, true), Map.of())).node(n).pool(pool("default")).solve(s);
        assertThat(podsPerCapacityType(r)).containsOnlyKeys("spot");
    }
}
