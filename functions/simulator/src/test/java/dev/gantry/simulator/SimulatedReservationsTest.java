package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.observe.ReservationCounts;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.simulator.runtime.Latency;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedReservations;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulated capacity reservations against what EC2 does and the EC2 stub models ({@code Ec2Reservations}): a
 * launch takes a slot, a full reservation refuses with {@code ReservationCapacityExceeded}, a termination frees the
 * slot; selection as DescribeCapacityReservations answers the adapter's per-term calls (aws
 * {@code pkg/providers/capacityreservation/types.go}); a Capacity Block is reclaimed before its end and expires at it.
 */
class SimulatedReservationsTest {
    private static final String ZONE = "us-east-1a";
    private final Simulation sim = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/reservations/filled-then-on-demand.yaml")),
            v -> { }, Progress.none());
    private final NodePool pool = sim.pools.values().iterator().next();
    private final NodeClass nodeClass = sim.config.nodeClassOf(pool).orElseThrow();
    private final InstanceType type = sim.catalog.instanceTypes(nodeClass).stream()
            .filter(t -> t.offerings().stream().anyMatch(o -> o.zone().equals(ZONE))).findFirst().orElseThrow();
    private final Instant start = sim.loop.now();
    private final SimulatedCloud cloud = new SimulatedCloud("sim", "us-east-1", sim.loop, 1, sim.observers);

    {
        cloud.runtime(new LambdaRuntime(sim.loop, Latency.none()), new Faults(FaultPlan.NONE, 1));
    }

    private SimulatedReservations.Spec spec(String id, int count, String kind, Duration endsAfter) {
        return new SimulatedReservations.Spec(id, type.name(), ZONE, count, kind, false, endsAfter, null, null,
                Map.of("purpose", "batch"));
    }

    /** A claim pinned to {@code reservation}, as ReservationAssignment pins it, with the type's reserved offering. */
    private LaunchRequest pinned(String claim, String reservation) {
        Offering od = type.offerings().stream().filter(o -> o.zone().equals(ZONE)
                && o.capacityType().equals(WellKnownLabels.CAPACITY_ON_DEMAND)).findFirst().orElseThrow();
        List<Offering> offerings = new ArrayList<>(type.offerings());
        offerings.add(new Offering(ZONE, od.zoneId(), WellKnownLabels.CAPACITY_RESERVED, od.pricePerHour() / 1e7, true,
                od.listPrice()));
        Requirements reqs = Requirements.NONE.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(WellKnownLabels.CAPACITY_RESERVED))
                .with(WellKnownLabels.ZONE, ValueSet.in(ZONE)).with(ReservationLabels.ID, ValueSet.in(reservation));
        return new LaunchRequest(claim, pool, nodeClass, List.of(type.withOfferings(offerings)), reqs, Map.of(), List.of());
    }

    private void runFor(Duration d) {
        sim.loop.runUntil(sim.loop.now().plus(d), s -> { });
    }

    @Test
    void aLaunchTakesASlotAFullReservationRefusesWithReservationCapacityExceededAndATerminationFreesIt() {
        cloud.reservations().add(spec("cr-0000000000000001", 1, null, null), start);
        LaunchResult first = cloud.launch(pinned("claim-a", "cr-0000000000000001"));
        assertThat(first.instance().capacityType()).isEqualTo(WellKnownLabels.CAPACITY_RESERVED);
        assertThat(cloud.instances().getFirst().pricePerHour()).as("billed at the on-demand list price")
                .isGreaterThan(0.01);
        assertThat(cloud.reservations().select(List.of(CapacityReservationSelectorTerm.id("cr-0000000000000001"))))
                .singleElement().extracting(CapacityReservation::availableInstanceCount).isEqualTo(0);

        assertThatThrownBy(() -> cloud.launch(pinned("claim-b", "cr-0000000000000001")))
                .isInstanceOfSatisfying(InsufficientCapacity.class, e -> {
                    assertThat(e.code()).isEqualTo("ReservationCapacityExceeded");
                    assertThat(e.offerings()).singleElement().satisfies(k -> assertThat(k.capacityType()).isEqualTo("reserved"));
                });

        cloud.terminate(List.of(first.instance().instanceId()));
        runFor(Duration.ofSeconds(10));
        assertThat(cloud.launch(pinned("claim-c", "cr-0000000000000001")).instance().capacityType()).isEqualTo("reserved");
        assertThat(cloud.reservations().held()).containsEntry("cr-0000000000000001",
                List.of(cloud.instances().getLast().id()));
    }

    @Test
    void termsSelectByIdOrByTagsOwnerAndMatchCriteriaAndAnUnknownIdSelectsNothing() {
        cloud.reservations().add(spec("cr-0000000000000001", 2, null, null), start);
        cloud.reservations().add(new SimulatedReservations.Spec("cr-0000000000000002", type.name(), ZONE, 1, null, false,
                null, "999999999999", "open", Map.of("purpose", "other")), start);
        var res = cloud.reservations();
        assertThat(res.select(List.of(CapacityReservationSelectorTerm.id("cr-00000000000000ff")))).isEmpty();
        assertThat(res.select(List.of(new CapacityReservationSelectorTerm(null, null, Map.of("purpose", "*"), null))))
                .extracting(CapacityReservation::id).containsExactly("cr-0000000000000001", "cr-0000000000000002");
        assertThat(res.select(List.of(new CapacityReservationSelectorTerm(null, "999999999999", Map.of("purpose", "*"), null))))
                .extracting(CapacityReservation::id).containsExactly("cr-0000000000000002");
        assertThat(res.select(List.of(new CapacityReservationSelectorTerm(null, null, Map.of("purpose", "*"), "targeted"),
                CapacityReservationSelectorTerm.id("cr-0000000000000001"))))
                .as("ORed and deduplicated").extracting(CapacityReservation::id).containsExactly("cr-0000000000000001");
    }

    @Test
    void aCapacityBlockIsExpiringFortyMinutesBeforeItsEndReclaimedThirtyMinutesBeforeAndThenExpired() {
        cloud.reservations().add(spec("cr-0000000000000003", 2, CapacityReservation.TYPE_CAPACITY_BLOCK, Duration.ofHours(1)), start);
        cloud.launch(pinned("claim-a", "cr-0000000000000003"));
        var term = List.of(CapacityReservationSelectorTerm.id("cr-0000000000000003"));
        assertThat(cloud.reservations().select(term).getFirst().state(sim.loop.now())).isEqualTo("active");
        runFor(Duration.ofMinutes(21));
        assertThat(cloud.reservations().select(term).getFirst().state(sim.loop.now())).isEqualTo("expiring");
        assertThat(cloud.instances().getFirst().isAlive()).isTrue();
        runFor(Duration.ofMinutes(10));
        assertThat(cloud.instances().getFirst().isAlive()).as("EC2 reclaims it 30 minutes before the end").isFalse();
        assertThat(cloud.instances().getFirst().endCause()).isEqualTo("capacity-block-end");
        runFor(Duration.ofMinutes(30));
        assertThat(cloud.reservations().select(term)).as("expired: no longer active, no longer selected").isEmpty();
    }

    @Test
    void theCountInvariantFiresOnceForEachInstanceADoubleAdmitsBeyondTheCount() {
        cloud.reservations().add(spec("cr-0000000000000004", 1, null, null), start);
        cloud.reservations().overAdmitForTest();
        cloud.launch(pinned("claim-a", "cr-0000000000000004"));
        cloud.launch(pinned("claim-b", "cr-0000000000000004"));
        ReservationCounts invariant = new ReservationCounts();
        List<String> violations = invariant.check(cloud.reservations().counts(), cloud.reservations().held());
        assertThat(violations).singleElement().asString().contains("cr-0000000000000004", cloud.instances().getLast().id());
        assertThat(invariant.check(cloud.reservations().counts(), cloud.reservations().held())).as("once").isEmpty();
    }

    @Test
    void theCountInvariantHoldsWhileEc2RefusesTheLaunchBeyondTheCount() {
        cloud.reservations().add(spec("cr-0000000000000005", 1, null, null), start);
        cloud.launch(pinned("claim-a", "cr-0000000000000005"));
        assertThatThrownBy(() -> cloud.launch(pinned("claim-b", "cr-0000000000000005"))).isInstanceOf(InsufficientCapacity.class);
        assertThat(new ReservationCounts().check(cloud.reservations().counts(), cloud.reservations().held())).isEmpty();
    }
}
