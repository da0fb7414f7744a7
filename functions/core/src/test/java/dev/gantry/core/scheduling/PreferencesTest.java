package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Preferential Fallback": preferences apply while they can be met, and are relaxed one at a time when not. */
class PreferencesTest {
    private static Pod.WeightedRequirements prefer(int weight, String key, String... values) {
        return new Pod.WeightedRequirements(weight, reqs(key, Operator.In, values));
    }

    @Test
    void doesNotRelaxTheFinalRequiredTerm() {
        var terms = List.of(reqs(WellKnownLabels.ZONE, Operator.In, "invalid"), reqs(WellKnownLabels.ZONE, Operator.In, "also-invalid"));
        var r = scenario().pods(pod("p").requiredNodeAffinity(terms).build()).pool(pool("default")).solve();
        assertNotScheduled(r, "p");
    }

    @Test
    void relaxesMultipleRequiredTermsUntilOneFits() {
        var terms = List.of(reqs(WellKnownLabels.ZONE, Operator.In, "invalid"), reqs(WellKnownLabels.ZONE, Operator.In, "also-invalid"),
                reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(1)));
        var r = scenario().pods(pod("p").requiredNodeAffinity(terms).build()).pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(1));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void honoursAPreferredNodeAffinityThatCanBeMet(Strategy s) {
        var r = scenario().pods(pod("p").preferredNodeAffinity(List.of(prefer(50, WellKnownLabels.ZONE, ZONES.get(2)))).build())
                .pool(pool("default")).solve(s);
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(2));
    }

    @Test
    void relaxesAllPreferredTermsThatCannotBeMet() {
        var r = scenario().pods(pod("p").preferredNodeAffinity(List.of(prefer(50, WellKnownLabels.ZONE, "invalid"),
                prefer(10, WellKnownLabels.ARCH, "s390x"))).build()).pool(pool("default")).solve();
        assertAllScheduled(r);
    }

    @Test
    void relaxesToLighterWeightsInOrder() {
        var r = scenario().pods(pod("p").preferredNodeAffinity(List.of(prefer(1, WellKnownLabels.ZONE, ZONES.get(0)),
                prefer(100, WellKnownLabels.ZONE, "invalid"), prefer(50, WellKnownLabels.ZONE, ZONES.get(2)))).build())
                .pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(2));
    }

    @Test
    void schedulesEvenIfThePreferenceConflictsWithTheRequirement() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0)))
                .preferredNodeAffinity(List.of(prefer(100, WellKnownLabels.ZONE, ZONES.get(1)))).build()).pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(0));
    }

    @Test
    void prefersAPoolWithoutAPreferNoScheduleTaint() {
        var r = scenario().pods(pod("p").build())
                .pool(pool("tainted").weight(100).taint("spot-only", "true", Taint.Effect.PreferNoSchedule))
                .pool(pool("plain")).solve();
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("plain");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void toleratesAPreferNoScheduleTaintWhenNothingElseFits(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("tainted").taint("spot-only", "true", Taint.Effect.PreferNoSchedule)).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("tainted");
    }

    @Test
    void relaxesNodeAffinityPreferencesBeforeToleratingPreferNoSchedule() {
        // The preferred zone is only offered by the tainted pool: Karpenter drops the preference first, so the pod goes untainted.
        var r = scenario().pods(pod("p").preferredNodeAffinity(List.of(prefer(50, WellKnownLabels.ZONE, ZONES.get(2)))).build())
                .pool(pool("tainted").weight(100).taint("x", "y", Taint.Effect.PreferNoSchedule))
                .pool(pool("plain").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(0))).solve();
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("plain");
    }

    @Test
    void relaxesAScheduleAnywaySpreadThatCannotBeMet() {
        var spread = new TopologySpread(1, WellKnownLabels.HOSTNAME, false, selector("app", "web"), null, List.of(), true, false);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).topologySpread(List.of(spread)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default").limit("nodes", "1")).solve();
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    @Test
    void keepsAScheduleAnywaySpreadWhileItCanBeMet() {
        var spread = new TopologySpread(1, WellKnownLabels.ZONE, false, selector("app", "web"), null, List.of(), true, false);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).topologySpread(List.of(spread)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve();
        assertThat(podsPerZone(r).values()).containsExactly(1L, 1L, 1L);
    }

    @Test
    void honoursPreferredPodAffinityThatCanBeMet() {
        var term = new PodAffinityTerm(selector("app", "db"), WellKnownLabels.ZONE, List.of(), null, 50);
        var r = scenario().pods(pod("db", 2000, 1024).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build(),
                pod("web", 500, 512).preferredPodAffinity(List.of(term)).build()).pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "web"))).isEqualTo(ZONES.get(2));
    }

    @Test
    void relaxesPreferredPodAffinityToAPodThatDoesNotExist() {
        var term = new PodAffinityTerm(selector("app", "ghost"), WellKnownLabels.HOSTNAME, List.of(), null, 50);
        var r = scenario().pods(pod("web").preferredPodAffinity(List.of(term)).build()).pool(pool("default")).solve();
        assertAllScheduled(r);
    }

    @Test
    void relaxesPreferredPodAntiAffinityWhenEveryZoneIsTaken() {
        var term = new PodAffinityTerm(selector("app", "web"), WellKnownLabels.ZONE, List.of(), null, 50);
        var pods = IntStream.range(0, 5).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).preferredPodAntiAffinity(List.of(term)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve();
        assertAllScheduled(r);
        assertThat(podsPerZone(r)).hasSize(3);
    }
}
