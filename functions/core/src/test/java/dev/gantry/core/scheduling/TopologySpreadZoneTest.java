package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's zonal topology cases: maxSkew, DoNotSchedule, minDomains, selectors, matchLabelKeys, nodeAffinityPolicy. */
class TopologySpreadZoneTest {
    static final Map<String, String> WEB = Map.of("app", "web");
    static final TopologySpread ZONAL = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));

    static List<Pod> spreadPods(String prefix, int n, TopologySpread spread) {
        return IntStream.range(0, n).mapToObj(i -> pod(prefix + "-" + i, 500, 512, WEB).topologySpread(List.of(spread)).build()).toList();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossZonesWithMatchLabels(Strategy s) {
        var r = scenario().pods(spreadPods("web", 9, ZONAL)).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(3L, 3L, 3L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossZonesWithMatchExpressions(Strategy s) {
        var sel = new LabelSelector(Map.of(), List.of(Requirement.of("app", Operator.In, "web", "api")), false);
        var r = scenario().pods(spreadPods("web", 6, TopologySpread.of(1, WellKnownLabels.ZONE, true, sel))).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsThePoolsZonalConstraints(Strategy s) {
        var r = scenario().pods(spreadPods("web", 4, ZONAL)).pool(pool("default").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(0), ZONES.get(1))).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(0), ZONES.get(1)).containsValues(2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsZonalConstraintsFromPoolLabels(Strategy s) {
        var r = scenario().pods(spreadPods("web", 3, ZONAL)).pool(pool("default").label(WellKnownLabels.ZONE, ZONES.get(2))).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void spreadsAcrossTheZonesOfSeveralPools(Strategy s) {
        var r = scenario().pods(spreadPods("web", 6, ZONAL))
                .pool(pool("a").weight(10).req(WellKnownLabels.ZONE, Operator.In, ZONES.get(0)))
                .pool(pool("bc").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(1), ZONES.get(2))).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsMatchingPodsOnExistingNodes(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("old-0", 100, 128, WEB).build(), pod("old-1", 100, 128, WEB).build());
        var r = scenario().pods(spreadPods("web", 4, ZONAL)).node(n).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsEntry(ZONES.get(1), 2L).containsEntry(ZONES.get(2), 2L).doesNotContainKey(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotCountPodsThatTheSelectorDoesNotMatch(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("other-0", 500, 128, Map.of("app", "other")).build(),
                pod("other-1", 500, 128, Map.of("app", "other")).build());
        var r = scenario().pods(spreadPods("web", 3, ZONAL)).node(n).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(1L, 1L, 1L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesOnlyToTheMinimumDomainWhenAlreadyViolatingMaxSkew(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("old-0", 100, 128, WEB).build(), pod("old-1", 100, 128, WEB).build(),
                pod("old-2", 100, 128, WEB).build());
        var r = scenario().pods(spreadPods("web", 1, ZONAL)).node(n).pool(pool("default")).solve(s);
        assertThat(zoneOf(claimOf(r, "web-0"))).isNotEqualTo(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateMaxSkewWhenTheOtherZonesAreUnreachable(Strategy s) {
        // nodeAffinityPolicy Ignore: every zone counts for the skew, but the pod can only go to the first one.
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, true, selector("app", "web"), null, List.of(), false, false);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(spread))
                .nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(r.placedCount()).isEqualTo(1);
        assertThat(r.unschedulable()).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void limitsSpreadOptionsByTheNodeSelectorWhenHonouringNodeAffinity(Strategy s) {
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(ZONAL))
                .nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void limitsSpreadOptionsByRequiredNodeAffinity(Strategy s) {
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(ZONAL))
                .requiredNodeAffinity(List.of(reqs(WellKnownLabels.ZONE, Operator.NotIn, ZONES.get(2))))
                .build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(0), ZONES.get(1)).containsValues(2L, 2L);
    }

    @Test
    void doesNotLimitSpreadOptionsByPreferredNodeAffinity() {
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(ZONAL))
                .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(10, reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(0)))))
                .build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve();
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).hasSize(3);
    }

    @ParameterizedTest(name = "{0} zones allowed, minDomains {1}: {2} placed")
    @CsvSource({"3,3,6", "3,2,6", "2,3,2", "3,4,3"})
    void respectsMinDomains(int zonesAllowed, int minDomains, int placed) {
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, true, selector("app", "web"), minDomains, List.of(), true, false);
        var r = scenario().pods(spreadPods("web", 6, spread))
                .pool(pool("default").req(WellKnownLabels.ZONE, Operator.In, ZONES.subList(0, zonesAllowed).toArray(String[]::new))).solve();
        assertThat(r.placedCount()).isEqualTo(placed);
        assertThat(r.unschedulable()).hasSize(6 - placed);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void spreadsEachRevisionIndependentlyWithMatchLabelKeys(Strategy s) {
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, true, selector("app", "web"), null, List.of("rev"), true, false);
        List<Pod> pods = new ArrayList<>();
        for (String rev : List.of("r1", "r2")) {
            for (int i = 0; i < 3; i++) {
                pods.add(pod(rev + "-" + i, 500, 512, Map.of("app", "web", "rev", rev)).topologySpread(List.of(spread)).build());
            }
        }
        // r1 has a pod bound in zone a already (on a full node); r2 must not count it.
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("old-r1", 1000, 128, Map.of("app", "web", "rev", "r1")).build());
        var r = scenario().pods(pods).node(n).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        var r2Zones = r.newClaims().stream().flatMap(c -> c.pods().stream().filter(p -> p.name().startsWith("r2")).map(p -> zoneOf(c))).toList();
        var r1Zones = r.newClaims().stream().flatMap(c -> c.pods().stream().filter(p -> p.name().startsWith("r1")).map(p -> zoneOf(c))).toList();
        assertThat(r2Zones).containsExactlyInAnyOrderElementsOf(ZONES);
        assertThat(r1Zones).contains(ZONES.get(1), ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresUnknownLabelsInMatchLabelKeys(Strategy s) {
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, true, selector("app", "web"), null, List.of("missing"), true, false);
        var r = scenario().pods(spreadPods("web", 3, spread)).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(1L, 1L, 1L);
    }

    @Test
    void doesNotSpreadWhenTheLabelSelectorIsNull() {
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, null);
        var r = scenario().pods(spreadPods("web", 4, spread)).pool(pool("default")).solve();
        assertAllScheduled(r);
    }

    @Test
    void doesNotScheduleASpreadOnAnUnknownTopologyKey() {
        var spread = TopologySpread.of(1, "unknown", true, selector("app", "web"));
        var r = scenario().pods(pod("spread", 500, 512, WEB).topologySpread(List.of(spread)).build(), pod("plain").build()).pool(pool("default")).solve();
        assertNotScheduled(r, "spread");
        assertScheduled(r, "plain");
    }

    @Test
    void allowsALargerMaxSkew() {
        var spread = TopologySpread.of(2, WellKnownLabels.ZONE, true, selector("app", "web"));
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(spread))
                .build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve();
        assertAllScheduled(r);
        assertThat(podsPerZone(r).values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2L));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void handlesInterdependentSelectors(Strategy s) {
        // Two groups spread over each other's pods: both selectors count the union.
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, new LabelSelector(Map.of(),
                List.of(Requirement.of("app", Operator.In, "web", "api")), false));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(pod("web-" + i, 500, 512, WEB).topologySpread(List.of(spread)).build());
            pods.add(pod("api-" + i, 500, 512, Map.of("app", "api")).topologySpread(List.of(spread)).build());
        }
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void spreadsAcrossZonesAndHostnamesTogether(Strategy s) {
        var host = TopologySpread.of(1, WellKnownLabels.HOSTNAME, true, selector("app", "web"));
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512, WEB).topologySpread(List.of(ZONAL, host)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
        assertThat(r.newClaims()).hasSize(6);
    }
}
