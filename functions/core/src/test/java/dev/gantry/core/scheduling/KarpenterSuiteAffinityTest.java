package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Pod affinity and anti-affinity cases ported from Karpenter's topology_test.go ("Pod Affinity/Anti-Affinity"). */
class KarpenterSuiteAffinityTest {
    static final Map<String, String> SEC = Map.of("security", "s2");
    static final Map<String, String> LABELS = Map.of("test", "test");
    static final LabelSelector SEC_SEL = selector("security", "s2");
    static final String ZONE = WellKnownLabels.ZONE;
    static final String HOST = WellKnownLabels.HOSTNAME;
    static final String ARCH = WellKnownLabels.ARCH;

    static PodAffinityTerm term(String key) {
        return PodAffinityTerm.required(SEC_SEL, key);
    }

    static PodAffinityTerm preferred(LabelSelector sel, String key, int weight) {
        return new PodAffinityTerm(sel, key, List.of(), null, weight);
    }

    static TopologySpread hostSpread(LabelSelector sel) {
        return new TopologySpread(1, HOST, true, sel, null, List.of(), true, false);
    }

    static List<Pod> many(String prefix, int n, java.util.function.UnaryOperator<Pod.Builder> f) {
        return IntStream.range(0, n).mapToObj(i -> f.apply(pod(prefix + "-" + i, 100, 128)).build()).toList();
    }

    static List<Pod> all(List<Pod> a, Pod... b) {
        List<Pod> out = new ArrayList<>(a);
        out.addAll(List.of(b));
        return out;
    }

    // karpenter: topology_test.go "should schedule a pod with empty pod affinity and anti-affinity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPodWithEmptyAffinityAndAntiAffinity(Strategy s) {
        var r = scenario().pods(pod("p").podAffinity(List.of()).podAntiAffinity(List.of()).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    // karpenter: topology_test.go "should respect pod affinity (hostname)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podAffinityOnHostnamePutsThePodWithItsTarget(Strategy s) {
        var spread = many("spread", 10, b -> b.labels(LABELS).topologySpread(List.of(hostSpread(selector("test", "test")))));
        var r = scenario().pods(all(spread, pod("aff1", 100, 128, SEC).build(), pod("aff2", 100, 128).podAffinity(List.of(term(HOST))).build()))
                .pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(claimOf(r, "aff1")).isSameAs(claimOf(r, "aff2"));
    }

    // karpenter: topology_test.go "should respect pod affinity (arch)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podAffinityOnArchMatchesTheArchButTheSpreadSeparatesNodes(Strategy s) {
        var spread = hostSpread(SEC_SEL);
        var a = pod("aff1", 2000, 128, SEC).topologySpread(List.of(spread)).nodeSelector(Map.of(ARCH, "arm64")).build();
        var b = pod("aff2", 1000, 128, SEC).topologySpread(List.of(spread)).podAffinity(List.of(term(ARCH))).build();
        var r = scenario().pods(a, b).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(label(claimOf(r, "aff2"), ARCH)).isEqualTo(label(claimOf(r, "aff1"), ARCH));
        assertThat(claimOf(r, "aff1")).isNotSameAs(claimOf(r, "aff2"));
    }

    // karpenter: topology_test.go "should respect self pod affinity (hostname)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selfAffinityOnHostnameKeepsAllOnOneNode(Strategy s) {
        var r = scenario().pods(many("p", 3, b -> b.labels(SEC).podAffinity(List.of(term(HOST))))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    // karpenter: topology_test.go "should respect self pod affinity for first empty topology domain only (hostname)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selfAffinityOnHostnameFillsOnlyTheFirstNode(Strategy s) {
        var small = type("small.large", 2, 8, 0.05, "amd64", Map.of(), 5);
        var rounds = new Rounds(s);
        var r = rounds.provision(many("a", 10, b -> b.labels(SEC).podAffinity(List.of(term(HOST)))), pool("default").offer(List.of(small)));
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.placedCount()).isEqualTo(5);
        assertThat(r.unschedulable()).hasSize(5);
        // A later batch cannot start another node either: the affinity's domain is taken and that node is full.
        var again = rounds.provision(many("b", 10, b -> b.labels(SEC).podAffinity(List.of(term(HOST)))), pool("default").offer(List.of(small)));
        assertThat(again.placedCount()).isZero();
    }

    // karpenter: topology_test.go "should respect self pod affinity for first empty topology domain only (hostname/constrained zones)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selfAffinityOnHostnameCannotStartASecondNodeInOtherZones(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(pod("first", 100, 128, SEC).nodeSelector(Map.of(ZONE, ZONES.get(0))).podAffinity(List.of(term(HOST))).build(),
                pool("default").offer());
        var r = rounds.provision(many("p", 10, b -> b.labels(SEC).podAffinity(List.of(term(HOST)))
                .requiredNodeAffinity(List.of(reqs(ZONE, Operator.In, ZONES.get(1), ZONES.get(2))))), pool("default").offer());
        assertThat(r.placedCount()).isZero();
    }

    // karpenter: topology_test.go "should respect self pod affinity (zone)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selfAffinityOnZoneKeepsAllInOneZone(Strategy s) {
        var r = scenario().pods(many("p", 3, b -> b.labels(SEC).podAffinity(List.of(term(ZONE))))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).hasSize(1);
    }

    // karpenter: topology_test.go "should respect self pod affinity (zone w/ constraint)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void selfAffinityOnZoneHonoursAZoneConstraint(Strategy s) {
        var r = scenario().pods(many("p", 3, b -> b.labels(SEC).podAffinity(List.of(term(ZONE)))
                .requiredNodeAffinity(List.of(reqs(ZONE, Operator.In, ZONES.get(2)))))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(2));
        assertThat(r.newClaims()).hasSize(1);
    }

    // karpenter: topology_test.go "should allow two nodes to be created when two pods with matching affinities have incompatible selectors"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void twoSelfAffinePodsPinnedToDifferentZonesGetTwoNodes(Strategy s) {
        var sel = selector("security", "s1");
        var p1 = pod("p1", 100, 128, Map.of("security", "s1")).podAffinity(List.of(PodAffinityTerm.required(sel, ZONE)))
                .requiredNodeAffinity(List.of(reqs(ZONE, Operator.In, ZONES.get(1)))).build();
        var p2 = pod("p2", 100, 128, Map.of("security", "s1")).podAffinity(List.of(PodAffinityTerm.required(sel, ZONE)))
                .requiredNodeAffinity(List.of(reqs(ZONE, Operator.In, ZONES.get(2)))).build();
        var r = scenario().pods(p1, p2).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "p1"))).isEqualTo(ZONES.get(1));
        assertThat(zoneOf(claimOf(r, "p2"))).isEqualTo(ZONES.get(2));
    }

    // karpenter: topology_test.go "should allow violation of preferred pod affinity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPreferredAffinityToAMissingPodIsDropped(Strategy s) {
        var spread = many("spread", 10, b -> b.labels(LABELS).topologySpread(List.of(hostSpread(selector("test", "test")))));
        var r = scenario().pods(all(spread, pod("aff", 100, 128).preferredPodAffinity(List.of(preferred(SEC_SEL, HOST, 50))).build()))
                .pool(pool("default")).solve(s);
        assertScheduled(r, "aff");
    }

    // karpenter: topology_test.go "should allow violation of preferred pod anti-affinity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPreferredAntiAffinityIsDroppedWhenEveryZoneHasAMatch(Strategy s) {
        var zonal = new TopologySpread(1, ZONE, true, selector("test", "test"), null, List.of(), true, false);
        var spread = many("spread", 3, b -> b.labels(LABELS).topologySpread(List.of(zonal)));
        var anti = many("anti", 10, b -> b.preferredPodAntiAffinity(List.of(preferred(selector("test", "test"), ZONE, 50))));
        List<Pod> pods = new ArrayList<>(spread);
        pods.addAll(anti);
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    // karpenter: topology_test.go "should separate nodes using simple pod anti-affinity on hostname"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void antiAffinityOnHostnameSeparatesThePods(Strategy s) {
        for (int i = 0; i < 3; i++) {
            var target = pod("target", 100, 128, SEC).build();
            var avoider = pod("avoider", 100, 128).podAntiAffinity(List.of(term(HOST))).build();
            var r = scenario().pods(i % 2 == 0 ? List.of(avoider, target) : List.of(target, avoider)).pool(pool("default")).solve(s);
            assertAllScheduled(r);
            assertThat(claimOf(r, "target")).isNotSameAs(claimOf(r, "avoider"));
        }
    }

    static Pod zonePod(String name, String zone, boolean labelled) {
        var b = pod(name, 2000, 128).nodeSelector(Map.of(ZONE, zone));
        return (labelled ? b.labels(SEC) : b).build();
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity on zone"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void antiAffinityOnZoneFailsWhenEveryZoneHasAMatch(Strategy s) {
        var r = scenario().pods(zonePod("z1", ZONES.get(0), true), zonePod("z2", ZONES.get(1), true), zonePod("z3", ZONES.get(2), true),
                pod("anti", 100, 128).podAntiAffinity(List.of(term(ZONE))).build()).pool(pool("default")).solve(s);
        assertScheduled(r, "z1", "z2", "z3");
        assertNotScheduled(r, "anti");
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity on zone (other schedules first)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void antiAffinityOnZoneAvoidsAMatchWhoseZoneIsNotKnownYet(Strategy s) {
        // Deliberate difference: Karpenter leaves the anti-affine pod pending until the target's node exists; Gantry pins
        // the target's claim to a zone as it lands (the NodeClaim requires that zone), so it places both in one solve.
        var r = scenario().pods(pod("target", 2000, 128, SEC).build(), pod("anti", 100, 128).podAntiAffinity(List.of(term(ZONE))).build())
                .pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "anti"))).isNotEqualTo(zoneOf(claimOf(r, "target")));
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity (arch)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void antiAffinityOnArchTakesTheOtherArch(Strategy s) {
        var spread = hostSpread(SEC_SEL);
        var a = pod("aff1", 2000, 128, SEC).topologySpread(List.of(spread)).nodeSelector(Map.of(ARCH, "arm64")).build();
        var b = pod("aff2", 1000, 128, SEC).topologySpread(List.of(spread)).podAntiAffinity(List.of(term(ARCH))).build();
        var r = scenario().pods(a, b).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(label(claimOf(r, "aff2"), ARCH)).isNotEqualTo(label(claimOf(r, "aff1"), ARCH));
    }

    static List<Pod> zoneAvoiders(boolean required) {
        List<Pod> out = new ArrayList<>();
        for (int z = 0; z < 3; z++) {
            var b = pod("z" + z, 2000, 128).nodeSelector(Map.of(ZONE, ZONES.get(z)));
            out.add((required ? b.podAntiAffinity(List.of(term(ZONE))) : b.preferredPodAntiAffinity(List.of(preferred(SEC_SEL, ZONE, 10)))).build());
        }
        return out;
    }

    // karpenter: topology_test.go "should violate preferred pod anti-affinity on zone (inverse)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPreferredInverseAntiAffinityDoesNotBlockTheTarget(Strategy s) {
        var r = scenario().pods(all(zoneAvoiders(false), pod("target", 100, 128, SEC).build())).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity on zone (inverse)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aRequiredInverseAntiAffinityInEveryZoneBlocksTheTarget(Strategy s) {
        var r = scenario().pods(all(zoneAvoiders(true), pod("target", 100, 128, SEC).build())).pool(pool("default")).solve(s);
        assertScheduled(r, "z0", "z1", "z2");
        assertNotScheduled(r, "target");
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity on zone (Schrödinger)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aTargetNeverSharesAZoneWithAnAntiAffinePodWhoseZoneWasOpen(Strategy s) {
        // Deliberate difference, as above: Karpenter needs a second round; Gantry pins the first claim's zone and places
        // the target elsewhere in the same solve.
        var r = scenario().pods(pod("anywhere", 2000, 128).podAntiAffinity(List.of(term(ZONE))).build(), pod("target", 100, 128, SEC).build())
                .pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "target"))).isNotEqualTo(zoneOf(claimOf(r, "anywhere")));
    }

    // karpenter: topology_test.go "should not violate pod anti-affinity on zone (inverse w/existing nodes)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void existingPodsWithRequiredAntiAffinityInEveryZoneBlockTheTarget(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(zoneAvoiders(true), pool("default").offer());
        var r = rounds.provision(pod("target", 100, 128, SEC).build(), pool("default").offer());
        assertNotScheduled(r, "target");
    }

    // karpenter: topology_test.go "should violate preferred pod anti-affinity on zone (inverse w/existing nodes)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void existingPodsWithPreferredAntiAffinityDoNotBlockTheTarget(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(zoneAvoiders(false), pool("default").offer());
        var r = rounds.provision(pod("target", 100, 128, SEC).build(), pool("default").offer());
        assertAllScheduled(r);
    }

    // karpenter: topology_test.go "should allow violation of a pod affinity preference with a conflicting required constraint"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aConflictingRequiredSpreadOverridesAnAffinityPreference(Strategy s) {
        var pods = many("p", 3, b -> b.labels(LABELS).topologySpread(List.of(hostSpread(selector("test", "test"))))
                .preferredPodAffinity(List.of(preferred(SEC_SEL, HOST, 50))));
        var r = scenario().pods(all(pods, pod("target", 100, 128, SEC).build())).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }
}
