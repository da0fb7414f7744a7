package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Existing Nodes" cases: room on nodes already in the cluster is used before anything is launched. */
class ExistingNodesTest {
    private static final String ZONE_A = ZONES.get(0);

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesPodToAnExistingNodeWithRoom(Strategy s) {
        var r = scenario().pods(pod("a").build()).node(existing(node("n1", ZONE_A, 4, 16))).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("n1");
        assertThat(r.newClaims()).isEmpty();
        assertThat(r.totalPricePerHour()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesMultiplePodsToAnExistingNodeThenLaunchesForTheRest(Strategy s) {
        var r = scenario().pods(pods("web", 6, 1000, 1024, Map.of())).node(existing(node("n1", ZONE_A, 4, 16))).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.existingNodes().get("n1")).hasSize(4);
        assertThat(r.newClaims().stream().mapToInt(c -> c.pods().size()).sum()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void theOldestOfEqualPodsTakesTheRoomLeftOnAnExistingNode(Strategy s) {
        // Regression (#11 §7): equal pods went by key, so a pod whose name sorts late lost every free slot to newer
        // pods while they kept coming (the simulator's spot storm: 1,000 pods waited 620 s). The kube-scheduler's
        // queue takes the oldest first, and so does the plan.
        java.time.Instant t0 = java.time.Instant.parse("2025-06-01T00:00:00Z");
        var old = pod("z-old", 2000, 1024).status(new dev.gantry.core.model.Pod.Status("Pending", true, t0, null, null)).build();
        var newer = pod("a-new", 2000, 1024).status(new dev.gantry.core.model.Pod.Status("Pending", true, t0.plusSeconds(60), null, null)).build();
        var r = scenario().pods(newer, old).node(existing(node("n1", ZONE_A, 4, 16), pod("bound", 1500, 1024).build()))
                .pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "z-old")).isEqualTo("n1");
        assertThat(nodeOf(r, "a-new")).isNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsPodsAlreadyBoundToTheNode(Strategy s) {
        var r = scenario().pods(pod("a", 2000, 1024).build())
                .node(existing(node("n1", ZONE_A, 4, 16), pod("bound", 3000, 1024).build())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(claimOf(r, "a")).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesANodeForAPodIncompatibleWithTheExistingNodesLabels(Strategy s) {
        var r = scenario().pods(pod("b").nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(1))).build())
                .node(existing(node("n1", ZONE_A, 4, 16))).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "b")).isNull();
        assertThat(zoneOf(claimOf(r, "b"))).isEqualTo(ZONES.get(1));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleOntoATaintedNodeWithoutAToleration(Strategy s) {
        var n = node("n1", ZONE_A, 4, 16, Map.of(), List.of(new Taint("dedicated", "db", Taint.Effect.NoSchedule)));
        var r = scenario().pods(pod("a").build()).node(existing(n)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(claimOf(r, "a")).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesOntoATaintedNodeThePodTolerates(Strategy s) {
        var n = node("n1", ZONE_A, 4, 16, Map.of(), List.of(new Taint("dedicated", "db", Taint.Effect.NoSchedule)));
        var r = scenario().pods(pod("a").tolerations(List.of(Toleration.equal("dedicated", "db", Taint.Effect.NoSchedule))).build())
                .node(existing(n)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void skipsCordonedNodes(Strategy s) {
        var r = scenario().pods(pod("a").build()).node(existing(cordoned(node("n1", ZONE_A, 4, 16)))).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void skipsNodesMarkedForDeletion(Strategy s) {
        var r = scenario().pods(pod("a").build()).node(existing(deleting(node("n1", ZONE_A, 4, 16)))).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesToANodeNotOwnedByAnyNodePool(Strategy s) {
        var n = node("self-managed", ZONE_A, 8, 32, Map.of("team", "infra"), List.of());
        var r = scenario().pods(pod("a").nodeSelector(Map.of("team", "infra")).build()).node(existing(n)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("self-managed");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesANodeWhenTheExistingNodeHoldsTheSameHostPort(Strategy s) {
        var port = List.of(new HostPort(8080, "TCP", null));
        var r = scenario().pods(pod("a").hostPorts(port).build())
                .node(existing(node("n1", ZONE_A, 4, 16), pod("bound").hostPorts(port).build())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isNull();
        assertThat(claimOf(r, "a")).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void prefersExistingNodesToInFlightClaims(Strategy s) {
        var r = scenario().pods(pod("a").build()).node(existing(node("n1", ZONE_A, 4, 16)))
                .inFlight(inFlight("claim-x", "default", ZONE_A, 4, 16, List.of())).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "a")).isEqualTo("n1");
        assertThat(r.inFlightClaims()).isEmpty();
    }
}
