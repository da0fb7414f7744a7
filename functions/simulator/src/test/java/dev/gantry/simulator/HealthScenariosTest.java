package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Node health in the simulator: Karpenter's repair policies (aws pkg/cloudprovider/cloudprovider.go RepairPolicies),
 * its 20% safeguard (core pkg/controllers/node/health/controller.go) and v1.12's instance status checks (aws
 * pkg/controllers/interruption/instancestatus_controller.go), through the real sweep in virtual time.
 */
class HealthScenariosTest {
    private static Simulation.Result run(String file) {
        return new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/health/" + file)), v -> { },
                Progress.none()).run();
    }

    private static List<Recorder.Entry> terminations(Simulation.Result r, String reason) {
        return r.simulation().recorder.timeline().stream()
                .filter(e -> e.kind().equals("terminate") && e.text().contains("(" + reason)).toList();
    }

    @Test
    void theSafeguardHoldsThroughAZoneWideFailureAndOneBadNodeIsRepairedAfterwards() {
        Simulation.Result r = run("zone-failure.yaml");
        JsonNode s = r.summary().tree();
        List<Recorder.Entry> repaired = terminations(r, "unhealthy");
        long blocked = r.simulation().cluster.events().stream().filter(e -> e.contains("NodeRepairBlocked")).count();
        System.out.println("zone-failure: nodes " + s.get("nodes") + ", repaired " + repaired + ", NodeRepairBlocked events "
                + blocked + ", status-check terminations " + terminations(r, "status-check-failed")
                + ", scheduled retirement " + terminations(r, "interruption") + ", pods " + s.get("pods"));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(blocked).as("the zone's repairs were blocked, and said so").isPositive();
        // Regression: 225 before the simulated recorder deduplicated. Karpenter's recorder (core pkg/events/recorder.go,
        // health/events.go): one NodeRepairBlocked per object per 15 minutes; the outage lasts 45.
        long objects = r.simulation().cluster.events().stream().filter(e -> e.contains("NodeRepairBlocked"))
                .map(e -> e.substring(0, e.indexOf(' '))).distinct().count();
        assertThat(blocked).as("deduplicated per object").isLessThanOrEqualTo(objects * 4);
        assertThat(repaired).as("only the kernel deadlock, 30 minutes after 75m").hasSize(1)
                .allSatisfy(e -> assertThat(e.t()).isBetween(105L * 60, 107L * 60));
        assertThat(terminations(r, "status-check-failed")).as("the failed system check, 2 min + a sweep after 80m")
                .hasSize(1).allSatisfy(e -> assertThat(e.t()).isBetween(82L * 60, 84L * 60));
        assertThat(terminations(r, "interruption")).as("the retirement, drained ahead of its date").hasSize(1)
                .allSatisfy(e -> assertThat(e.t()).isBetween(90L * 60, 100L * 60));
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    @Test
    void aGpuNodeWithAHardwareFailureIsRepairedAfterTenMinutes() {
        Simulation.Result r = run("gpu-failure.yaml");
        JsonNode s = r.summary().tree();
        List<Recorder.Entry> repaired = terminations(r, "unhealthy");
        System.out.println("gpu-failure: nodes " + s.get("nodes") + ", repaired " + repaired + ", pods " + s.get("pods"));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(repaired).hasSize(1).allSatisfy(e -> {
            assertThat(e.text()).contains("g5.");
            assertThat(e.t()).as("10 minutes after 20m, within a sweep").isBetween(30L * 60, 31L * 60 + 10);
        });
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).as("the trainer's replacement node came up").isZero();
    }
}
