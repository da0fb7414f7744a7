package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's pod anti-affinity cases, including the inverse direction (a placed pod's terms keep others away). */
class PodAntiAffinityTest {
    private static PodAffinityTerm away(String app, String key) {
        return PodAffinityTerm.required(selector("app", app), key);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void separatesPodsOntoDifferentNodesWithHostnameAntiAffinity(Strategy s) {
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 250, 256, Map.of("app", "web"))
                .podAntiAffinity(List.of(away("web", WellKnownLabels.HOSTNAME))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerClaim(r)).containsExactly(1, 1, 1, 1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateZoneAntiAffinity(Strategy s) {
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 250, 256, Map.of("app", "web"))
                .podAntiAffinity(List.of(away("web", WellKnownLabels.ZONE))).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(1L, 1L, 1L);
        assertThat(r.unschedulable()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void avoidsTheZoneOfAnExistingMatchingPod(Strategy s) {
        var n = existing(node("n1", ZONES.get(0), 1, 2), pod("db", 1000, 1024, Map.of("app", "db")).build());
        var pods = IntStream.range(0, 2).mapToObj(i -> pod("web-" + i, 250, 256).podAntiAffinity(List.of(away("db", WellKnownLabels.ZONE))).build()).toList();
        var r = scenario().pods(pods).node(n).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).doesNotContainKey(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void keepsOtherPodsAwayFromAPlacedPodsZone(Strategy s) {
        // The inverse: the big pod, placed first, forbids app=web in its zone.
        var r = scenario().pods(pod("guard", 3000, 1024).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0)))
                        .podAntiAffinity(List.of(away("web", WellKnownLabels.ZONE))).build(),
                pod("web", 250, 256, Map.of("app", "web")).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "web"))).isNotEqualTo(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void keepsPodsAwayFromAnExistingNodesAntiAffinePod(Strategy s) {
        var guard = pod("guard", 500, 512).podAntiAffinity(List.of(away("web", WellKnownLabels.ZONE))).build();
        var n = existing(node("n1", ZONES.get(0), 8, 32), guard);
        var r = scenario().pods(pod("web", 250, 256, Map.of("app", "web")).build()).node(n).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web")).isNull();
        assertThat(zoneOf(claimOf(r, "web"))).isNotEqualTo(ZONES.get(0));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresPreferredAntiAffinityOfPlacedPodsInTheInverseDirection(Strategy s) {
        var preferred = new PodAffinityTerm(selector("app", "web"), WellKnownLabels.ZONE, List.of(), null, 50);
        var guard = pod("guard", 500, 512).preferredPodAntiAffinity(List.of(preferred)).build();
        var n = existing(node("n1", ZONES.get(0), 8, 32), guard);
        var r = scenario().pods(pod("web", 250, 256, Map.of("app", "web")).build()).node(n).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotViolateAntiAffinityOnArch(Strategy s) {
        var r = scenario().pods(pod("arm", 2000, 1024).labels(Map.of("app", "arm")).nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build(),
                pod("web", 500, 512).podAntiAffinity(List.of(away("arm", WellKnownLabels.ARCH))).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "web").instanceType().labels().get(WellKnownLabels.ARCH)).isEqualTo("amd64");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesAZoneUnconstrainedPodBesideAnAntiAffinePodWithoutSharingItsZone(Strategy s) {
        // "Schrödinger": the anywhere pod's zone is open when the anti-affine pod is checked, so it must be pinned first.
        var r = scenario().pods(pod("anywhere", 2000, 1024).labels(Map.of("app", "web")).build(),
                pod("anti", 500, 512).podAntiAffinity(List.of(away("web", WellKnownLabels.ZONE))).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "anti"))).isNotEqualTo(zoneOf(claimOf(r, "anywhere")));
    }

    @Test
    void explainsZoneAntiAffinityThatCannotBeMet() {
        var pods = IntStream.range(0, 4).mapToObj(i -> pod("web-" + i, 250, 256, Map.of("app", "web"))
                .podAntiAffinity(List.of(away("web", WellKnownLabels.ZONE))).build()).toList();
        var r = Scheduler.solve(Fixtures.input(pods, pool("default").offer()));
        assertThat(r.unschedulable().get(0).reason()).contains("anti-affinity").contains("zone");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void allowsNonMatchingPodsOnTheSameNode(Strategy s) {
        var r = scenario().pods(pod("web", 500, 512, Map.of("app", "web")).podAntiAffinity(List.of(away("web", WellKnownLabels.HOSTNAME))).build(),
                pod("api", 500, 512, Map.of("app", "api")).build())
                .pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, dev.gantry.core.requirements.Operator.In, "on-demand")).solve(s);
        assertThat(claimOf(r, "web")).isSameAs(claimOf(r, "api"));
    }
}
