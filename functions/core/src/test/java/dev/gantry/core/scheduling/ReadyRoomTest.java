package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Scheduler#solveAsBound}: the pods of a launch are bound by kube-scheduler, which filters on their required
 * constraints and only scores their preferences. Room on existing nodes and claims in flight is Ready before anything
 * the plan launches, so a pending pod takes it wherever its required constraints allow; a claim opened elsewhere to keep
 * a preference would launch for nothing. {@link Scheduler#solve} (consolidation's simulations) keeps preferences
 * wherever new capacity can.
 *
 * <p>The cluster: a claim in flight in the first zone (on-demand) with room for four 1-vCPU pods, and one node in each
 * of the other two zones, full, each running one replica of {@code web}. The pool launches spot or on-demand.
 */
class ReadyRoomTest {
    private static final String A = ZONES.get(0);
    private static final String B = ZONES.get(1);
    private static final String C = ZONES.get(2);

    private static Pod.Builder replica(String name) {
        return pod(name, 1000, 512, Map.of("app", "web")).owner("ReplicaSet", "web-1");
    }

    private static TopologySpread zoneSpread(boolean doNotSchedule) {
        return TopologySpread.of(1, WellKnownLabels.ZONE, doNotSchedule, selector("app", "web"));
    }

    private static SchedulingInput input(List<Pod> pending) {
        List<SchedulingInput.ExistingNode> nodes = List.of(
                existing(node("full-b", B, 1, 4), replica("running-b").build()),
                existing(node("full-c", C, 1, 4), replica("running-c").build()));
        List<SchedulingInput.InFlightClaim> inFlight = List.of(inFlight("booting-a", "default", A, 4, 16, List.of()));
        return new SchedulingInput(pending, nodes, inFlight, List.of(), List.of(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand", "spot").offer(catalogue())), Map.of());
    }

    private static List<Pod> batch(int n, java.util.function.UnaryOperator<Pod.Builder> shape) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(shape.apply(replica("new-" + i)).build());
        }
        return out;
    }

    /**
     * Four replicas with a ScheduleAnyway zonal spread (maxSkew 1; one replica runs in each of the other zones). Kept as
     * if required, the spread sends three of them to new nodes in those zones; kube-scheduler binds all four to the
     * claim in flight when it is Ready, and the new nodes launch for nothing (graviton-overlay, seed 12).
     */
    @Test
    void aSoftlySpreadBatchTakesTheRoomOfAClaimInFlightRatherThanNewNodesInOtherZones() {
        SchedulingInput in = input(batch(4, b -> b.topologySpread(List.of(zoneSpread(false)))));

        SchedulingResult planned = Scheduler.solve(in);
        assertThat(planned.newClaims()).as("consolidation's reading keeps the spread with new nodes").isNotEmpty();

        SchedulingResult bound = Scheduler.solveAsBound(in);
        assertThat(bound.newClaims()).isEmpty();
        assertThat(bound.inFlightClaims().get("booting-a")).hasSize(4);
        assertThat(bound.unschedulable()).isEmpty();
    }

    /** Only the room at hand is taken first: the pods it cannot hold get new claims that keep the spread. */
    @Test
    void thePodsTheRoomCannotHoldStillGetNewClaimsThatKeepTheirSpread() {
        SchedulingResult bound = Scheduler.solveAsBound(input(batch(7, b -> b.topologySpread(List.of(zoneSpread(false))))));

        assertThat(bound.inFlightClaims().get("booting-a")).hasSize(4);
        assertThat(bound.newClaims()).extracting(c -> c.offering().zone()).doesNotContain(A);
        assertThat(bound.newClaims().stream().mapToInt(c -> c.pods().size()).sum()).isEqualTo(3);
    }

    /** A DoNotSchedule spread is a filter: kube-scheduler keeps it, and so does the plan. */
    @Test
    void aRequiredSpreadStillSendsPodsToNewNodesInTheOtherZones() {
        SchedulingResult bound = Scheduler.solveAsBound(input(batch(4, b -> b.topologySpread(List.of(zoneSpread(true))))));

        assertThat(bound.newClaims()).isNotEmpty();
        assertThat(bound.inFlightClaims().getOrDefault("booting-a", List.of()).size()).isLessThan(4);
    }

    /**
     * Any of a pod's required node-affinity terms will do for kube-scheduler. Relaxing preferences in Karpenter's order
     * drops the first term before the preferences, so the term that matches the claim in flight (its zone) is never
     * tried without the pod's preference for spot: the pod got a spot node of its own.
     */
    @Test
    void theRoomMatchesAnyRequiredTermWithoutThePreferences() {
        List<Requirements> terms = List.of(reqs(WellKnownLabels.ZONE, Operator.In, A), reqs(WellKnownLabels.ZONE, Operator.In, B));
        Pod p = replica("new-0").requiredNodeAffinity(terms)
                .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(50, reqs(WellKnownLabels.CAPACITY_TYPE, Operator.In, "spot"))))
                .build();
        SchedulingInput in = input(List.of(p));

        assertThat(Scheduler.solve(in).newClaims()).as("the preference kept with a new spot node").hasSize(1);

        SchedulingResult bound = Scheduler.solveAsBound(in);
        assertThat(bound.newClaims()).isEmpty();
        assertThat(bound.inFlightClaims().get("booting-a")).containsExactly(p);
    }
}
