package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "In-Flight Nodes" cases: claims launched but not yet registered take pods before anything new is launched. */
class InFlightTest {
    private static final String ZONE_A = ZONES.get(0);

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotLaunchASecondNodeWhenAnInFlightNodeCanHoldThePod(Strategy s) {
        var r = scenario().pods(pod("a").build()).inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, List.of())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("if-1");
        assertThat(r.inFlightClaims()).containsKey("if-1");
        assertThat(r.newClaims()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesAnInFlightNodeThatMatchesThePodsNodeSelector(Strategy s) {
        var r = scenario().pods(pod("a").nodeSelector(Map.of(WellKnownLabels.ZONE, ZONE_A)).build())
                .inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, List.of())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("if-1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesASecondNodeWhenThePodDoesNotFitTheInFlightNode(Strategy s) {
        var r = scenario().pods(pod("a", 6000, 1024).build()).inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, List.of()))
                .pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(claimOf(r, "a")).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesASecondNodeWhenThePodIsIncompatibleWithTheInFlightNode(Strategy s) {
        var r = scenario().pods(pod("a").nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build())
                .inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, List.of())).pool(pool("default")).solve(s);
        assertThat(zoneOf(claimOf(r, "a"))).isEqualTo(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsPodsAlreadyExpectedOnTheInFlightNode(Strategy s) {
        var r = scenario().pods(pod("a", 2000, 1024).build())
                .inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, List.of(), pod("nominated", 3000, 1024).build())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void packsInFlightNodesBeforeLaunchingNewOnes(Strategy s) {
        var r = scenario().pods(pods("web", 6, 1000, 1024, Map.of()))
                .inFlight(inFlight("if-1", "default", ZONE_A, 2, 8, List.of()))
                .inFlight(inFlight("if-2", "default", ZONE_A, 2, 8, List.of())).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.inFlightClaims().get("if-1")).hasSize(2);
        assertThat(r.inFlightClaims().get("if-2")).hasSize(2);
        assertThat(r.newClaims().stream().mapToInt(c -> c.pods().size()).sum()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotAssumeAPodSchedulesToATaintedInFlightNode(Strategy s) {
        var taint = List.of(new Taint("gpu", "true", Taint.Effect.NoSchedule));
        var r = scenario().pods(pod("a").build()).inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, taint)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void assumesATolerantPodSchedulesToATaintedInFlightNode(Strategy s) {
        var taint = List.of(new Taint("gpu", "true", Taint.Effect.NoSchedule));
        var r = scenario().pods(pod("a").tolerations(List.of(Toleration.exists("gpu"))).build())
                .inFlight(inFlight("if-1", "default", ZONE_A, 4, 16, taint)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("if-1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossZonesCountingInFlightNodes(Strategy s) {
        var labels = Map.of("app", "web");
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        Pod[] onInFlight = {pod("old-0", 100, 128, labels).build(), pod("old-1", 100, 128, labels).build()};
        var pending = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 1000, 1024, labels).topologySpread(List.of(spread)).build()).toList();
        var r = scenario().pods(pending).inFlight(inFlight("if-1", "default", ZONE_A, 1, 2, List.of(), onInFlight)).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsEntry(ZONES.get(1), 2L).containsEntry(ZONES.get(2), 2L).doesNotContainKey(ZONE_A);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossHostnamesCountingInFlightNodes(Strategy s) {
        var labels = Map.of("app", "web");
        var spread = TopologySpread.of(1, WellKnownLabels.HOSTNAME, true, selector("app", "web"));
        var pending = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, labels).topologySpread(List.of(spread)).build()).toList();
        var r = scenario().pods(pending).inFlight(inFlight("if-1", "default", ZONE_A, 8, 32, List.of())).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.inFlightClaims().get("if-1")).hasSize(1);
        assertThat(r.newClaims()).hasSize(2).allSatisfy(c -> assertThat(c.pods()).hasSize(1));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesPodsWithTheSameHostPortToDifferentNodes(Strategy s) {
        var port = List.of(new HostPort(80, "TCP", null));
        var r = scenario().pods(pod("a").hostPorts(port).build(), pod("b").hostPorts(port).build())
                .inFlight(inFlight("if-1", "default", ZONE_A, 8, 32, List.of())).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.inFlightClaims().get("if-1")).hasSize(1);
        assertThat(r.newClaims()).hasSize(1);
    }
}
