package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's required pod-affinity cases on hostname, zone and other keys, with namespaces. */
class PodAffinityTest {
    private static PodAffinityTerm to(String app, String key) {
        return PodAffinityTerm.required(selector("app", app), key);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPodWithEmptyAffinityLists(Strategy s) {
        var r = scenario().pods(pod("p").podAffinity(List.of()).podAntiAffinity(List.of()).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesAFollowerOnTheSameNodeAsItsTarget(Strategy s) {
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).build(),
                pod("web", 500, 512).podAffinity(List.of(to("db", WellKnownLabels.HOSTNAME))).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "db"));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesAFollowerWithTheTargetEvenWhenTheFollowerIsLarger(Strategy s) {
        // Karpenter retries pods that fail while others still schedule, so pod order does not decide affinity.
        var r = scenario().pods(pod("db", 500, 512).labels(Map.of("app", "db")).build(),
                pod("web", 2000, 2048).podAffinity(List.of(to("db", WellKnownLabels.HOSTNAME))).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "db"));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesAFollowerOnTheExistingNodeOfItsTarget(Strategy s) {
        var n = existing(node("n1", ZONES.get(1), 4, 16), pod("db", 1000, 1024, Map.of("app", "db")).build());
        var r = scenario().pods(pod("web").podAffinity(List.of(to("db", WellKnownLabels.HOSTNAME))).build()).node(n).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotLaunchANewNodeForHostnameAffinityToAFullExistingNode(Strategy s) {
        var n = existing(node("n1", ZONES.get(1), 2, 8), pod("db", 2000, 1024, Map.of("app", "db")).build());
        var r = scenario().pods(pod("web").podAffinity(List.of(to("db", WellKnownLabels.HOSTNAME))).build()).node(n).pool(pool("default")).solve(s);
        assertNotScheduled(r, "web");
        assertThat(r.newClaims()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesAZoneFollowerInTheZoneOfAnExistingTarget(Strategy s) {
        var n = existing(node("n1", ZONES.get(2), 2, 8), pod("db", 2000, 1024, Map.of("app", "db")).build());
        var r = scenario().pods(pod("web").podAffinity(List.of(to("db", WellKnownLabels.ZONE))).build()).node(n).pool(pool("default")).solve(s);
        assertThat(zoneOf(claimOf(r, "web"))).isEqualTo(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsSelfAffinityOnHostname(Strategy s) {
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web"))
                .podAffinity(List.of(to("web", WellKnownLabels.HOSTNAME))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsSelfAffinityOnZone(Strategy s) {
        var pods = IntStream.range(0, 8).mapToObj(i -> pod("web-" + i, 1500, 2048, Map.of("app", "web"))
                .podAffinity(List.of(to("web", WellKnownLabels.ZONE))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default").req(WellKnownLabels.INSTANCE_TYPE, dev.gantry.core.requirements.Operator.In, "c5.xlarge")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims().size()).isGreaterThan(1);
        assertThat(podsPerZone(r)).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsSelfAffinityOnZoneWithAZoneConstraint(Strategy s) {
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web"))
                .nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(1))).podAffinity(List.of(to("web", WellKnownLabels.ZONE))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r)).containsOnlyKeys(ZONES.get(1));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void followsAConstrainedTargetsZone(Strategy s) {
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build(),
                pod("web", 500, 512).podAffinity(List.of(to("db", WellKnownLabels.ZONE))).build()).pool(pool("default")).solve(s);
        assertThat(zoneOf(claimOf(r, "web"))).isEqualTo(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void followsATargetsArch(Strategy s) {
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build(),
                pod("web", 500, 512).podAffinity(List.of(to("db", WellKnownLabels.ARCH))).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "web").instanceType().labels().get(WellKnownLabels.ARCH)).isEqualTo("arm64");
    }

    @Test
    void doesNotScheduleAPodWithAffinityToANonExistentPod() {
        var r = scenario().pods(pod("web").podAffinity(List.of(to("ghost", WellKnownLabels.HOSTNAME))).build()).pool(pool("default")).solve();
        assertThat(reasonFor(r, "web")).isEqualTo("pod affinity on hostname: no pod matches its selector");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void handlesAChainOfDependentAffinities(Strategy s) {
        var r = scenario().pods(pod("a", 3000, 1024).labels(Map.of("app", "a")).build(),
                pod("b", 2000, 1024).labels(Map.of("app", "b")).podAffinity(List.of(to("a", WellKnownLabels.ZONE))).build(),
                pod("c", 1000, 1024).podAffinity(List.of(to("b", WellKnownLabels.ZONE))).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "c"))).isEqualTo(zoneOf(claimOf(r, "a")));
    }

    @Test
    void failsToSchedulePodsWithUnsatisfiableAffinity() {
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0))).build(),
                pod("web", 500, 512).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(1)))
                        .podAffinity(List.of(to("db", WellKnownLabels.ZONE))).build()).pool(pool("default")).solve();
        assertScheduled(r, "db");
        assertNotScheduled(r, "web");
    }

    @Test
    void ignoresTargetsInOtherNamespacesByDefault() {
        var r = scenario().pods(Pod.builder("other", "db").requests(dev.gantry.core.model.Resources.of(2000, GI)).labels(Map.of("app", "db")).build(),
                pod("web").podAffinity(List.of(to("db", WellKnownLabels.HOSTNAME))).build()).pool(pool("default")).solve();
        assertNotScheduled(r, "web");
    }

    @Test
    void countsTargetsInTheNamespacesTheTermLists() {
        var term = new PodAffinityTerm(selector("app", "db"), WellKnownLabels.HOSTNAME, List.of("other"), null, 0);
        var r = scenario().pods(Pod.builder("other", "db").requests(dev.gantry.core.model.Resources.of(2000, GI)).labels(Map.of("app", "db")).build(),
                pod("web").podAffinity(List.of(term)).build()).pool(pool("default")).solve();
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "db"));
    }

    @Test
    void countsTargetsInNamespacesTheNamespaceSelectorMatches() {
        var term = new PodAffinityTerm(selector("app", "db"), WellKnownLabels.HOSTNAME, List.of(), selector("tier", "data"), 0);
        var r = scenario().namespace("other", Map.of("tier", "data"))
                .pods(Pod.builder("other", "db").requests(dev.gantry.core.model.Resources.of(2000, GI)).labels(Map.of("app", "db")).build(),
                        pod("web").podAffinity(List.of(term)).build()).pool(pool("default")).solve();
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "db"));
    }

    @Test
    void countsTargetsInEveryNamespaceForAnEmptyNamespaceSelector() {
        var term = new PodAffinityTerm(selector("app", "db"), WellKnownLabels.HOSTNAME, List.of(), LabelSelector.EVERYTHING, 0);
        var r = scenario().pods(Pod.builder("other", "db").requests(dev.gantry.core.model.Resources.of(2000, GI)).labels(Map.of("app", "db")).build(),
                pod("web").podAffinity(List.of(term)).build()).pool(pool("default")).solve();
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "db"));
    }
}
