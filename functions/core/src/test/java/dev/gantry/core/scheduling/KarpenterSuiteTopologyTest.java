package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cases ported from Karpenter's topology_test.go (each names its source); both strategies must pass them. */
class KarpenterSuiteTopologyTest {
    static final Map<String, String> LABELS = Map.of("test", "test");
    static final String SPREAD = "fake-label";
    static final Taint TAINT = new Taint("taintname", "taintvalue", Taint.Effect.NoSchedule);

    static TopologySpread spread(String key, boolean honorAffinity, boolean honorTaints) {
        return new TopologySpread(1, key, true, selector("test", "test"), null, List.of(), honorAffinity, honorTaints);
    }

    static List<Pod> pods(int n, long cpuMillis, TopologySpread s, Map<String, String> nodeSelector) {
        return IntStream.range(0, n).mapToObj(i -> pod("p-" + i, cpuMillis, 128, LABELS).topologySpread(List.of(s))
                .nodeSelector(nodeSelector).build()).toList();
    }

    // --- NodeTaintsPolicy ---

    // karpenter: topology_test.go "should balance pods across a label (NodeTaintsPolicy=ignore)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void taintsPolicyIgnoreCountsTaintedNodesDomains(Strategy s) {
        var r = scenario().node(existing(node("n1", ZONES.get(0), 0, 1, Map.of(SPREAD, "foo"), List.of(TAINT))))
                .node(existing(node("n2", ZONES.get(0), 0, 1, Map.of(SPREAD, "bar"), List.of(TAINT))))
                .pods(pods(5, 1000, spread(SPREAD, true, false), Map.of())).pool(pool("default").label(SPREAD, "baz")).solve(s);
        assertThat(podsPerDomain(r, SPREAD).values()).containsExactly(1L);
    }

    // karpenter: topology_test.go "should balance pods across a label (NodeTaintsPolicy=honor)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void taintsPolicyHonorIgnoresTheDomainsOfNodesWhoseTaintsThePodDoesNotTolerate(Strategy s) {
        var r = scenario().node(existing(node("n1", ZONES.get(0), 0, 1, Map.of(SPREAD, "foo"), List.of(TAINT))))
                .node(existing(node("n2", ZONES.get(0), 0, 1, Map.of(SPREAD, "bar"), List.of(TAINT))))
                .pods(pods(5, 1000, spread(SPREAD, true, true), Map.of())).pool(pool("default").label(SPREAD, "baz")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerDomain(r, SPREAD)).containsExactly(Map.entry("baz", 5L));
    }

    static Fixtures.PoolBuilder taintedBarPool() {
        return pool("tainted").taint("taint-key", "taint-value", Taint.Effect.NoSchedule)
                .req("karpenter.sh/capacity-type", Operator.Exists).req(SPREAD, Operator.In, "bar");
    }

    // karpenter: topology_test.go "should balance pods across a label when discovered from the nodepool (NodeTaintsPolicy=ignore)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void taintsPolicyIgnoreCountsADomainOnlyATaintedPoolOffers(Strategy s) {
        var r = scenario().pods(pods(2, 100, spread(SPREAD, true, false), Map.of()))
                .pool(pool("default").req(SPREAD, Operator.In, "foo")).pool(taintedBarPool()).solve(s);
        assertThat(podsPerDomain(r, SPREAD)).containsExactly(Map.entry("foo", 1L));
        assertThat(r.unschedulable()).hasSize(1);
    }

    // karpenter: topology_test.go "should balance pods across a label when discovered from the nodepool (NodeTaintsPolicy=honor)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void taintsPolicyHonorIgnoresADomainOnlyATaintedPoolOffers(Strategy s) {
        var r = scenario().pods(pods(2, 100, spread(SPREAD, true, true), Map.of()))
                .pool(pool("default").req(SPREAD, Operator.In, "foo")).pool(taintedBarPool()).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerDomain(r, SPREAD)).containsExactly(Map.entry("foo", 2L));
    }

    // karpenter: topology_test.go "should balance pods across a label when mutually exclusive NodePools (by taints) share domains (NodeTaintsPolicy=honor)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void taintsPolicyHonorSpreadsEachDeploymentOverTheDomainsItsPoolsOffer(Strategy s) {
        var spread = spread(SPREAD, true, true);
        List<Pod> all = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            var tol = new Toleration("taint-key", Toleration.Operator.Equal, "nodepool-" + i, Taint.Effect.NoSchedule);
            for (int j = 0; j < (i + 1) * 2; j++) {
                all.add(pod("d" + i + "-" + j, 100, 128, LABELS).topologySpread(List.of(spread)).tolerations(List.of(tol)).build());
            }
        }
        var r = scenario().pods(all)
                .pool(pool("np-0").taint("taint-key", "nodepool-0", Taint.Effect.NoSchedule).req(SPREAD, Operator.In, "foo", "bar"))
                .pool(pool("np-1").taint("taint-key", "nodepool-1", Taint.Effect.NoSchedule).req(SPREAD, Operator.In, "foo", "baz"))
                .solve(s);
        assertAllScheduled(r);
        assertThat(podsPerDomain(r, SPREAD).values()).containsExactlyInAnyOrder(3L, 2L, 1L);
    }

    // --- NodeAffinityPolicy ---

    static SchedulingResult affinityPolicyCase(Strategy s, boolean honor) {
        return scenario().node(existing(node("n1", ZONES.get(0), 0, 1, Map.of(SPREAD, "foo", "selector", "mismatch"), List.of())))
                .node(existing(node("n2", ZONES.get(0), 0, 1, Map.of(SPREAD, "bar", "selector", "mismatch"), List.of())))
                .pods(pods(5, 1000, spread(SPREAD, honor, false), Map.of("selector", "value")))
                .pool(pool("default").label(SPREAD, "baz").label("selector", "value")).solve(s);
    }

    // karpenter: topology_test.go "should balance pods across a label (NodeAffinityPolicy=ignore)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void affinityPolicyIgnoreCountsNodesThePodsSelectorExcludes(Strategy s) {
        assertThat(podsPerDomain(affinityPolicyCase(s, false), SPREAD).values()).containsExactly(1L);
    }

    // karpenter: topology_test.go "should balance pods across a label (NodeAffinityPolicy=honor)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void affinityPolicyHonorIgnoresNodesThePodsSelectorExcludesThroughAnotherLabel(Strategy s) {
        var r = affinityPolicyCase(s, true);
        assertAllScheduled(r);
        assertThat(podsPerDomain(r, SPREAD)).containsExactly(Map.entry("baz", 5L));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void affinityPolicyHonorDoesNotCountMatchingPodsOnNodesThePodsSelectorExcludes(Strategy s) {
        // Two matching pods sit in zone a on a node of another team; with Honor they do not count, so zone a is not skewed.
        var other = existing(node("other", ZONES.get(0), 1, 2, Map.of("team", "b"), List.of()),
                pod("old-0", 100, 128, LABELS).build(), pod("old-1", 100, 128, LABELS).build());
        var zonal = spread(dev.gantry.core.requirements.WellKnownLabels.ZONE, true, false);
        var r = scenario().node(other).pods(pods(3, 100, zonal, Map.of("team", "a")))
                .pool(pool("a").label("team", "a")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r).values()).containsExactly(1L, 1L, 1L);
    }
}
