package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
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

/** One test per scheduler bug the category suites found, named after what broke. */
class SchedulingRegressionTest {
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podCountedByAnAffinityGroupIsNotPinnedToAZoneItsNodeSelectorExcludes(Strategy s) {
        // Topology pinned a counted pod to the least-loaded zone of the claim, ignoring the pod's own zone selector.
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build(),
                pod("web", 500, 512).podAffinity(List.of(PodAffinityTerm.required(selector("app", "db"), WellKnownLabels.ZONE))).build())
                .pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "db"))).isEqualTo(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void preferredNodeAffinityDoesNotShrinkTheDomainsOfAZonalSpread(Strategy s) {
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).topologySpread(List.of(spread))
                .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(10, reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(0)))))
                .build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void hostnameNodeSelectorDoesNotLaunchANewNode(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.HOSTNAME, "red-node")).build()).pool(pool("default")).solve(s);
        assertThat(reasonFor(r, "p")).contains("hostname");
        assertThat(r.newClaims()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void daemonSetSelectingACustomLabelThePoolDoesNotSetAddsNoOverhead(Strategy s) {
        var ds = daemonSet("agent", Pod.builder("kube-system", "agent").requests(Resources.of(1000, GI)).nodeSelector(Map.of("team", "a"))
                .owner("DaemonSet", "agent").build());
        var r = scenario().pods(pod("p", 1500, 1024).build()).daemonSet(ds).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(1500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void minValuesIsEnforcedWhenAPodNarrowsTheOptions(Strategy s) {
        var r = scenario().pods(pod("p", 3000, 1024).build())
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_TYPE, 3, "c5.large", "m5.xlarge", "m5.2xlarge")).solve(s);
        assertThat(reasonFor(r, "p")).isEqualTo("NodePool default requires minValues 3 for node.kubernetes.io/instance-type; "
                + "the instance types that fit offer only 2");
    }
}
