package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
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
    // --- Zonal, Hostname, CapacityType and combined spreads ---

    static final String ZONE = dev.gantry.core.requirements.WellKnownLabels.ZONE;
    static final String HOST = dev.gantry.core.requirements.WellKnownLabels.HOSTNAME;
    static final String CT = dev.gantry.core.requirements.WellKnownLabels.CAPACITY_TYPE;
    static final String ARCH = dev.gantry.core.requirements.WellKnownLabels.ARCH;

    static TopologySpread tsc(String key, int skew) {
        return new TopologySpread(skew, key, true, selector("test", "test"), null, List.of(), true, false);
    }

    static TopologySpread tsc(String key, int skew, Integer minDomains) {
        return new TopologySpread(skew, key, true, selector("test", "test"), minDomains, List.of(), true, false);
    }

    static List<Pod> spreading(String prefix, int n, long cpu, TopologySpread... spreads) {
        return IntStream.range(0, n).mapToObj(i -> pod(prefix + "-" + i, cpu, 128, LABELS).topologySpread(List.of(spreads)).build()).toList();
    }

    static List<Pod> spreading(int n, TopologySpread... spreads) {
        return spreading("p", n, 100, spreads);
    }

    static Fixtures.PoolBuilder zones(Fixtures.PoolBuilder b, int... idx) {
        return b.req(ZONE, Operator.In, IntStream.of(idx).mapToObj(ZONES::get).toArray(String[]::new));
    }

    static List<Long> counts(Map<String, Long> m) {
        return m.values().stream().sorted().toList();
    }

    // karpenter: topology_test.go "should ignore unknown topology keys"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresUnknownTopologyKeys(Strategy s) {
        var pods = List.of(pod("a", 100, 128, LABELS).topologySpread(List.of(tsc("unknown", 1))).build(),
                pod("b", 100, 128).build());
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertNotScheduled(r, "a");
        assertScheduled(r, "b");
    }

    // karpenter: topology_test.go "should not spread an invalid label selector"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotSpreadWhenTheSelectorMatchesNothing(Strategy s) {
        var none = new TopologySpread(1, ZONE, true, dev.gantry.core.model.LabelSelector.NOTHING, null, List.of(), true, false);
        var r = scenario().pods(spreading(2, none)).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    // karpenter: topology_test.go "should balance pods across zones (match labels)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesFourPodsAcrossThreeZones(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1))).pool(pool("default")).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(1L, 1L, 2L);
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossThePoolsThreeZones(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1))).pool(zones(pool("default"), 0, 1, 2)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(1L, 1L, 2L);
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints (subset) with requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossASubsetOfZonesFromRequirements(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1))).pool(zones(pool("default"), 0, 1)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(2L, 2L);
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints (subset) with labels"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void putsEverythingInTheZoneAPoolLabelFixes(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1))).pool(pool("default").label(ZONE, ZONES.get(0))).solve(s);
        assertThat(podsPerZone(r)).containsExactly(Map.entry(ZONES.get(0), 4L));
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints (subset) with requirements and labels"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aZoneLabelNarrowsTheZoneRequirement(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1))).pool(zones(pool("default"), 0, 1).label(ZONE, ZONES.get(0))).solve(s);
        assertThat(podsPerZone(r)).containsExactly(Map.entry(ZONES.get(0), 4L));
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints (subset) with labels across NodePools"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossZonesOfTwoPoolsOneFixedByLabel(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ZONE, 1)))
                .pool(zones(pool("a"), 0, 1).label(ZONE, ZONES.get(0))).pool(zones(pool("b"), 1)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(2L, 2L);
    }

    // karpenter: topology_test.go "should respect NodePool zonal constraints (existing pod)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsAnExistingPodInAZoneThePoolNoLongerOffers(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(pod("first", 1100, 128, LABELS).nodeSelector(Map.of(ZONE, ZONES.get(2))).build(), pool("default").offer());
        rounds.provision(spreading("p", 6, 1100, tsc(ZONE, 1)), zones(pool("default"), 0, 1).offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 2L, 2L);
    }

    // karpenter: topology_test.go "should schedule to the non-minimum domain if its all that's available"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesToTheOnlyAvailableDomainUpToMaxSkew(Strategy s) {
        var rounds = new Rounds(s);
        var spread = tsc(ZONE, 5);
        rounds.provision(spreading("a", 1, 1100, spread), zones(pool("default"), 0).offer());
        rounds.provision(spreading("b", 1, 1100, spread), zones(pool("default"), 1).offer());
        var r = rounds.provision(spreading("c", 10, 1100, spread), zones(pool("default"), 2).offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 1L, 6L);
        assertThat(r.unschedulable()).hasSize(4);
    }

    // karpenter: topology_test.go "should only schedule to minimum domains if already violating max skew"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void recoversFromAnExistingSkewByFillingTheSmallestDomains(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(spreading("a", 9, 1100, tsc(ZONE, 1)), pool("default").offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(3L, 3L, 3L);
        String keep = ZONES.get(0);
        rounds.delete(p -> !rounds.nodes().stream().filter(n -> n.node().name().equals(p.nodeName())).findFirst().orElseThrow()
                .node().labels().get(ZONE).equals(keep));
        rounds.provision(spreading("b", 3, 1100, tsc(ZONE, 1)), pool("default").offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 2L, 3L);
    }

    // karpenter: topology_test.go "should not violate max-skew when unsat = do not schedule"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateMaxSkewWhenAZoneIsNoLongerOffered(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(spreading("a", 1, 1100, tsc(ZONE, 1)), zones(pool("default"), 0).offer());
        var r = rounds.provision(spreading("b", 10, 1100, tsc(ZONE, 1)), zones(pool("default"), 1, 2).offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 2L, 2L);
        assertThat(r.unschedulable()).hasSize(6);
    }

    // karpenter: topology_test.go "should not violate max-skew when unsat = do not schedule (discover domains)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void discoversADomainFromAnExistingMatchingPodWithoutASpread(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(pod("plain", 1100, 128, LABELS).build(), zones(pool("default"), 0).offer());
        rounds.provision(spreading("b", 10, 1100, tsc(ZONE, 1)), zones(pool("default"), 1, 2).offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 2L, 2L);
    }

    // karpenter: topology_test.go "should only count running/scheduled pods with matching labels scheduled to nodes with a corresponding domain"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsOnlyRunningMatchingPodsOnNodesWithTheDomain(Strategy s) {
        var failed = new Pod.Status("Failed", false, null, null, null);
        var succeeded = new Pod.Status("Succeeded", false, null, null, null);
        var n1 = existing(node("n1", ZONES.get(0), 0, 1), pod("unlabelled", 0, 0).build(),
                Pod.builder("other-ns", "wrong-ns").labels(LABELS).build(),
                pod("failed", 0, 0, LABELS).status(failed).build(), pod("succeeded", 0, 0, LABELS).status(succeeded).build(),
                pod("m1", 0, 0, LABELS).build(), pod("m2", 0, 0, LABELS).build());
        var n2 = existing(node("n2", ZONES.get(1), 0, 1), pod("m3", 0, 0, LABELS).build());
        var noZone = new Node("n3", null, Map.of(HOST, "n3"), Map.of(), List.of(), Resources.ZERO, true, false, false, java.time.Instant.EPOCH);
        var n3 = existing(noZone, pod("m4", 0, 0, LABELS).build());
        var r = scenario().node(n1).node(n2).node(n3).pods(spreading(2, tsc(ZONE, 1))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        // zone a holds 2 counted pods, zone b 1: the two new pods go to zones c and b, leaving 2, 2, 1... or c twice is
        // over the skew; either way the final counts are {2, 2, 1}.
        Map<String, Long> total = new java.util.TreeMap<>(Map.of(ZONES.get(0), 2L, ZONES.get(1), 1L));
        podsPerZone(r).forEach((z, c) -> total.merge(z, c, Long::sum));
        assertThat(counts(total)).containsExactly(1L, 2L, 2L);
    }

    // karpenter: topology_test.go "should match all pods when labelSelector is not specified"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aSpreadWithAnEmptySelectorCountsEveryPod(Strategy s) {
        var all = new TopologySpread(1, ZONE, true, dev.gantry.core.model.LabelSelector.EVERYTHING, null, List.of(), true, false);
        var r = scenario().pods(pod("p", 100, 128).topologySpread(List.of(all)).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    // karpenter: topology_test.go "should handle interdependent selectors"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsOutsideTheirOwnSpreadsSelectorPackTogether(Strategy s) {
        var pods = IntStream.range(0, 5).mapToObj(i -> pod("p-" + i, 100, 128).topologySpread(List.of(tsc(HOST, 1))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    // karpenter: topology_test.go "should respect minDomains constraints"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void minDomainsAboveTheZonesOfferedCapsEachZoneAtMaxSkew(Strategy s) {
        var r = scenario().pods(spreading(3, tsc(ZONE, 1, 3))).pool(zones(pool("default"), 0, 1)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(1L, 1L);
        assertThat(r.unschedulable()).hasSize(1);
    }

    // karpenter: topology_test.go "satisfied minDomains constraints (equal) should allow expected pod scheduling"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void minDomainsEqualToTheZonesOfferedSpreadsNormally(Strategy s) {
        var r = scenario().pods(spreading(11, tsc(ZONE, 1, 3))).pool(zones(pool("default"), 0, 1, 2)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(3L, 4L, 4L);
    }

    // karpenter: topology_test.go "satisfied minDomains constraints (greater than minimum) should allow expected pod scheduling"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void minDomainsBelowTheZonesOfferedSpreadsNormally(Strategy s) {
        var r = scenario().pods(spreading(11, tsc(ZONE, 1, 2))).pool(zones(pool("default"), 0, 1, 2)).solve(s);
        assertThat(counts(podsPerZone(r))).containsExactly(3L, 4L, 4L);
    }

    // karpenter: topology_test.go "should balance pods across nodes"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossNodes(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(HOST, 1))).pool(pool("default")).solve(s);
        assertThat(podsPerClaim(r)).containsExactly(1, 1, 1, 1);
    }

    // karpenter: topology_test.go "should balance pods on the same hostname up to maxskew"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void packsPodsOnOneHostUpToMaxSkew(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(HOST, 4))).pool(pool("default")).solve(s);
        assertThat(podsPerClaim(r)).containsExactly(4);
    }

    static Pod appSpread(String name, String app, String arch) {
        var spread = new TopologySpread(1, HOST, true, selector("app", app), null, List.of(), true, false);
        var b = pod(name, 100, 128, Map.of("app", app)).topologySpread(List.of(spread));
        if (arch != null) {
            b.requiredNodeAffinity(List.of(reqs(ARCH, Operator.In, arch)));
        }
        return b.build();
    }

    // karpenter: topology_test.go "balance multiple deployments with hostname topology spread"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void twoDeploymentsSpreadByHostnameShareTwoNodes(Strategy s) {
        var r = scenario().pods(appSpread("a1", "app1", null), appSpread("a2", "app1", null), appSpread("b1", "app2", null),
                appSpread("b2", "app2", null)).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(2);
    }

    // karpenter: topology_test.go "balance multiple deployments with hostname topology spread & varying arch"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void twoDeploymentsOfDifferentArchesSpreadByHostnameTakeFourNodes(Strategy s) {
        var r = scenario().pods(appSpread("a1", "app1", "amd64"), appSpread("a2", "app1", "amd64"), appSpread("b1", "app2", "arm64"),
                appSpread("b2", "app2", "arm64")).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(4);
    }

    // karpenter: topology_test.go "should balance pods across capacity types"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossCapacityTypes(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(CT, 1))).pool(pool("default")).solve(s);
        assertThat(podsPerCapacityType(r)).containsExactly(Map.entry("on-demand", 2L), Map.entry("spot", 2L));
    }

    // karpenter: topology_test.go "should respect NodePool capacity type constraints"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossTheCapacityTypesThePoolAllows(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(CT, 1))).pool(pool("default").req(CT, Operator.In, "spot", "on-demand")).solve(s);
        assertThat(podsPerCapacityType(r)).containsExactly(Map.entry("on-demand", 2L), Map.entry("spot", 2L));
    }

    // karpenter: topology_test.go "should not violate max-skew when unsat = do not schedule (capacity type)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateCapacityTypeSkewWhenOnlyOneTypeIsOffered(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(spreading("a", 1, 1100, tsc(CT, 1)), pool("default").req(CT, Operator.In, "spot").offer());
        rounds.provision(spreading("b", 5, 1100, tsc(CT, 1)), pool("default").req(CT, Operator.In, "on-demand").offer());
        assertThat(counts(rounds.skew(CT, selector("test", "test")))).containsExactly(1L, 2L);
    }

    // karpenter: topology_test.go "should violate max-skew when unsat = schedule anyway (capacity type)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void violatesCapacityTypeSkewWhenScheduleAnyway(Strategy s) {
        var anyway = new TopologySpread(1, CT, false, selector("test", "test"), null, List.of(), true, false);
        var rounds = new Rounds(s);
        rounds.provision(spreading("a", 1, 1100, anyway), pool("default").req(CT, Operator.In, "spot").offer());
        rounds.provision(spreading("b", 5, 1100, anyway), pool("default").req(CT, Operator.In, "on-demand").offer());
        assertThat(counts(rounds.skew(CT, selector("test", "test")))).containsExactly(1L, 5L);
    }

    // karpenter: topology_test.go "should balance pods across capacity-types (node required affinity constrained)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossCapacityTypesWhenAffinityAllowsOnlyOneKeepsThemThere(Strategy s) {
        var pods = IntStream.range(0, 5).mapToObj(i -> pod("p-" + i, 100, 128, LABELS).topologySpread(List.of(tsc(CT, 1)))
                .requiredNodeAffinity(List.of(reqs(CT, Operator.In, "spot"))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerCapacityType(r)).containsOnlyKeys("spot");
    }

    // karpenter: topology_test.go "should balance pods across arch (no constraints)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesPodsAcrossArches(Strategy s) {
        var r = scenario().pods(spreading(4, tsc(ARCH, 1))).pool(pool("default")).solve(s);
        assertThat(podsPerDomain(r, ARCH)).containsExactly(Map.entry("amd64", 2L), Map.entry("arm64", 2L));
    }

    // karpenter: topology_test.go "should spread pods while respecting both constraints (hostname and zonal)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsHostnameAndZonalSpreadsTogether(Strategy s) {
        var rounds = new Rounds(s);
        var both = new TopologySpread[] {tsc(HOST, 1), tsc(ZONE, 1)};
        rounds.provision(spreading("a", 2, 100, both), pool("default").offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 1L);
        rounds.provision(spreading("b", 3, 100, both), pool("default").offer());
        assertThat(counts(rounds.skew(ZONE, selector("test", "test")))).containsExactly(1L, 2L, 2L);
        assertThat(rounds.skew(HOST, selector("test", "test")).values()).allMatch(c -> c == 1L);
    }

    // karpenter: topology_test.go "should spread pods while respecting both constraints" (Combined Zonal and Capacity Type Topology)
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsZonalAndCapacityTypeSpreadsTogether(Strategy s) {
        var rounds = new Rounds(s);
        var both = new TopologySpread[] {tsc(CT, 1), tsc(ZONE, 1)};
        int[] batches = {2, 3, 3, 11};
        int[] maxCt = {1, 3, 5, 11};
        int[] maxZone = {1, 2, 4, 7};
        for (int b = 0; b < batches.length; b++) {
            rounds.provision(spreading("b" + b, batches[b], 100, both), pool("default").offer());
            int round = b;
            assertThat(rounds.skew(CT, selector("test", "test")).values()).as("capacity types").allMatch(c -> c <= maxCt[round]);
            assertThat(rounds.skew(ZONE, selector("test", "test")).values()).as("zones").allMatch(c -> c <= maxZone[round]);
        }
    }

    // karpenter: topology_test.go "should spread pods while respecting all constraints" (Combined Hostname, Zonal, and Capacity Type Topology)
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsHostnameZonalAndCapacityTypeSpreadsTogether(Strategy s) {
        var all = new TopologySpread[] {tsc(CT, 1), tsc(ZONE, 2), tsc(HOST, 3)};
        var rounds = new Rounds(s);
        for (int i = 1; i < 15; i++) {
            rounds.provision(spreading("r" + i, i, 100, all), pool("default").offer());
            var zones = rounds.skew(ZONE, selector("test", "test")).values();
            var cts = rounds.skew(CT, selector("test", "test")).values();
            assertThat(java.util.Collections.max(zones) - (zones.size() < 3 ? 0 : java.util.Collections.min(zones))).isLessThanOrEqualTo(2);
            assertThat(java.util.Collections.max(cts) - (cts.size() < 2 ? 0 : java.util.Collections.min(cts))).isLessThanOrEqualTo(1);
            assertThat(rounds.skew(HOST, selector("test", "test")).values()).allMatch(c -> c <= 3);
        }
    }

    // karpenter: topology_test.go "should limit spread options by nodeSelector"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeSelectorLimitsTheZonesOfAZonalSpread(Strategy s) {
        var pods = new ArrayList<Pod>();
        for (int z = 0; z < 2; z++) {
            for (int i = 0; i < 5; i++) {
                pods.add(pod("z" + z + "-" + i, 100, 128, LABELS).topologySpread(List.of(tsc(ZONE, 1)))
                        .nodeSelector(Map.of(ZONE, ZONES.get(z))).build());
            }
        }
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsExactly(Map.entry(ZONES.get(0), 5L), Map.entry(ZONES.get(1), 5L));
    }

    // karpenter: topology_test.go "should limit spread options by node requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void requiredAffinityLimitsTheZonesOfAZonalSpread(Strategy s) {
        var pods = IntStream.range(0, 10).mapToObj(i -> pod("p-" + i, 100, 128, LABELS).topologySpread(List.of(tsc(ZONE, 1)))
                .requiredNodeAffinity(List.of(reqs(ZONE, Operator.In, ZONES.get(0), ZONES.get(1)))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(counts(podsPerZone(r))).containsExactly(5L, 5L);
    }

    // karpenter: topology_test.go "should not limit spread options by preferred node affinity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void preferredAffinityDoesNotLimitTheZonesOfAZonalSpread(Strategy s) {
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("p-" + i, 100, 128, LABELS).topologySpread(List.of(tsc(ZONE, 1)))
                .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(10, reqs(ZONE, Operator.In, ZONES.get(0), ZONES.get(1))))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(counts(podsPerZone(r))).containsExactly(2L, 2L, 2L);
    }

    // karpenter: topology_test.go "should limit spread options by nodeSelector" (Combined Capacity Type Topology and Node Affinity)
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeSelectorLimitsTheCapacityTypesOfASpread(Strategy s) {
        var pods = new ArrayList<Pod>();
        for (String ct : List.of("spot", "on-demand")) {
            for (int i = 0; i < 5; i++) {
                pods.add(pod(ct + "-" + i, 100, 128, LABELS).topologySpread(List.of(tsc(CT, 1))).nodeSelector(Map.of(CT, ct)).build());
            }
        }
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerCapacityType(r)).containsExactly(Map.entry("on-demand", 5L), Map.entry("spot", 5L));
    }
}
