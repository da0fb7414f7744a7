package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reservation scenarios ({@code samples/scenarios/reservations/}, #29 §4) over the simulated reservations: a
 * reservation filled first and on-demand after it (aws {@code reserved_capacity_resolver.go}: a reserved offering is
 * "free" while it has a slot), and a Capacity Block drained when it turns expiring (aws
 * {@code pkg/controllers/capacityreservation/expiration/controller.go}).
 */
class ReservationScenariosTest {
    private static Simulation.Result run(String file) {
        return new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/reservations/" + file)), v -> { },
                Progress.none()).run();
    }

    private static List<SimulatedInstance> launched(Simulation.Result r) {
        return r.simulation().cloud.instances().stream().filter(i -> i.request() != null).toList();
    }

    private static void print(String name, Simulation.Result r) {
        JsonNode s = r.summary().tree();
        System.out.println(name + ": cost " + s.get("cost") + ", pods " + s.get("pods") + ", nodes " + s.get("nodes")
                + ", invariants " + s.get("invariants"));
        java.time.Instant start = r.simulation().scenario.run().start();
        launched(r).forEach(i -> System.out.println("  " + java.time.Duration.between(start, i.launchTime()) + " "
                + i.type().name() + " " + i.zone() + " " + i.capacityType() + " ended "
                + (i.endedAt() == null ? "-" : java.time.Duration.between(start, i.endedAt()) + " " + i.endCause())));
    }

    @Test
    void aReservationIsFilledFirstThenOnDemandAndNeverOverfilled() {
        Simulation.Result r = run("filled-then-on-demand.yaml");
        print("filled-then-on-demand", r);
        JsonNode s = r.summary().tree();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        List<SimulatedInstance> reserved = launched(r).stream().filter(i -> i.capacityType().equals("reserved")).toList();
        List<SimulatedInstance> onDemand = launched(r).stream().filter(i -> i.capacityType().equals("on-demand")).toList();
        assertThat(reserved).isNotEmpty().allMatch(i -> i.type().name().equals("m6i.xlarge") && i.zone().equals("us-east-1a"));
        assertThat(onDemand).as("on-demand once the reservation is used up").isNotEmpty();
        // Filled first: no on-demand launch before the run that used up the reservation's last slot (one plan's
        // launches fan out within a second).
        assertThat(onDemand.getFirst().launchTime()).as("the reservation is filled first").isAfterOrEqualTo(
                reserved.get(3).launchTime().minusSeconds(1));
        assertThat(reserved).as("the reservation is used up, never beyond").hasSize(4);
        assertThat(launched(r).stream().filter(i -> i.endedAt() == null))
                .as("after the scale-down, consolidation keeps reserved nodes (free) and removes the on-demand ones")
                .isNotEmpty().allMatch(i -> i.capacityType().equals("reserved"));
        assertThat(reserved).allMatch(i -> "cr-0a1b2c3d4e5f60001".equals(i.userDataLabels().get(ReservationLabels.ID)));
        assertThat(s.get("cost").get("byCapacityType").has("reserved")).isTrue();
        assertThat(s.get("cost").get("byCapacityType").get("reserved").asDouble()).isPositive();
        assertThat(s.get("cost").get("byCapacityType").get("on-demand").asDouble()).isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    @Test
    void anExpiringCapacityBlockIsDrainedAndItsPodsRescheduledBeforeEc2ReclaimsIt() {
        Simulation.Result r = run("capacity-block-expiry.yaml");
        print("capacity-block-expiry", r);
        JsonNode s = r.summary().tree();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        List<SimulatedInstance> block = launched(r).stream().filter(i -> i.capacityType().equals("reserved")).toList();
        assertThat(block).as("the block is filled").hasSize(4);
        java.time.Instant start = r.simulation().scenario.run().start();
        // Drained from the expiring state (20m) and gone before EC2 reclaims the block (30m).
        assertThat(block).allMatch(i -> i.endedAt() != null && !i.endedAt().isBefore(start.plusSeconds(20 * 60))
                && i.endedAt().isBefore(start.plusSeconds(30 * 60)));
        assertThat(launched(r).stream().filter(i -> i.endedAt() != null && "capacity-block-end".equals(endCause(i))))
                .as("nothing left for EC2 to reclaim").isEmpty();
        assertThat(launched(r).stream().filter(i -> i.capacityType().equals("on-demand") && i.endedAt() == null)).isNotEmpty();
        assertThat(s.get("cost").get("byCapacityType").get("reserved").asDouble()).isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    /**
     * An interruptible ODCR's owner reclaims two of its instances: EC2 sends "EC2 Capacity Reservation Instance
     * Interruption Warning" (events/eventbridge/capacity-reservation-interruption.json) and ends them two minutes later;
     * Gantry drains them on the warning (aws {@code pkg/controllers/interruption}, the capacity reservation message).
     */
    @Test
    void anInterruptibleReservationReclaimsItsInstancesAfterTheWarningAndThePodsMove(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        Path samples = Path.of("../../samples").toAbsolutePath().normalize();
        Path file = dir.resolve("interruptible.yaml");
        java.nio.file.Files.writeString(file, """
                name: interruptible
                duration: 30m
                seed: 31
                config: [%1$s/scenarios/reservations/reserved-pool.yaml]
                cluster:
                  manifests: [%1$s/workloads/daemonsets.yaml]
                  reservations:
                    - {id: cr-0c1b2c3d4e5f60003, instanceType: m6i.xlarge, zone: us-east-1a, count: 2, interruptible: true,
                       tags: {purpose: batch}}
                events:
                  - {at: 0s, apply: %1$s/workloads/inflate.yaml}
                  - {at: 10m, reservationInterruption: {reservation: cr-0c1b2c3d4e5f60003, count: 2}}
                """.formatted(samples));
        Simulation.Result r = new Simulation(dev.gantry.simulator.scenario.ScenarioReader.read(file), v -> { },
                Progress.none()).run();
        print("interruptible", r);
        JsonNode s = r.summary().tree();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        List<SimulatedInstance> reserved = launched(r).stream().filter(i -> i.capacityType().equals("reserved")).toList();
        assertThat(reserved).hasSize(2).allMatch(i -> i.endedAt() != null);
        java.time.Instant warned = r.simulation().scenario.run().start().plusSeconds(600);
        assertThat(reserved).allMatch(i -> !i.endedAt().isBefore(warned) && !i.endedAt().isAfter(warned.plusSeconds(120)));
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(launched(r).stream().filter(i -> i.endedAt() == null)).isNotEmpty();
    }

    /**
     * An EKS Auto Mode NodeClass selects reservations as an EC2NodeClass does (its owner spelt {@code owner}): the
     * reservation is filled first, at capacity type {@code reserved}, then on-demand. Its terms were dropped with a
     * warning, so its pools never used the reservation.
     */
    @Test
    void anAutoModeNodeClassFillsTheReservationItSelects(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        Path samples = Path.of("../../samples").toAbsolutePath().normalize();
        Path config = dir.resolve("auto-mode-reserved.yaml");
        java.nio.file.Files.writeString(config, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: reserved}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: reserved}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: ["reserved", "on-demand"]}
                        - {key: eks.amazonaws.com/instance-category, operator: In, values: ["c", "m", "r"]}
                        - {key: eks.amazonaws.com/instance-generation, operator: Gt, values: ["5"]}
                ---
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: reserved}
                spec:
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  capacityReservationSelectorTerms: [{tags: {purpose: batch}, owner: "123456789012"}]
                """);
        Path file = dir.resolve("auto-mode.yaml");
        java.nio.file.Files.writeString(file, """
                name: auto-mode-reserved
                duration: 20m
                seed: 29
                config: [%2$s]
                cluster:
                  manifests: [%1$s/workloads/daemonsets.yaml]
                  reservations:
                    - {id: cr-0a1b2c3d4e5f60001, instanceType: m6i.xlarge, zone: us-east-1a, count: 4, tags: {purpose: batch}}
                events:
                  - {at: 0s, apply: %1$s/workloads/inflate.yaml}
                  - {at: 5m, scale: {deployment: default/inflate, replicas: 24}}
                """.formatted(samples, config));
        Simulation.Result r = new Simulation(ScenarioReader.read(file), v -> { }, Progress.none()).run();
        print("auto-mode-reserved", r);
        JsonNode s = r.summary().tree();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        List<SimulatedInstance> reserved = launched(r).stream().filter(i -> i.capacityType().equals("reserved")).toList();
        assertThat(reserved).as("the reservation is used up, never beyond").hasSize(4)
                .allMatch(i -> "cr-0a1b2c3d4e5f60001".equals(i.userDataLabels().get(ReservationLabels.ID)));
        assertThat(launched(r).stream().filter(i -> i.capacityType().equals("on-demand"))).isNotEmpty();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    private static String endCause(SimulatedInstance i) {
        return i.endCause();
    }
}
