package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drift in the simulator: an AMI release for {@code al2023@latest} drifts every node (AMIDrift, aws
 * {@code pkg/cloudprovider/drift.go}), and the sweep replaces them through the consolidation command machinery, one
 * command at a time within the pool's Drifted budget, each replacement initialized before its node is drained.
 */
class DriftScenariosTest {
    @Test
    void anAmiReleaseRollsEveryNodeOntoTheNewImageWithNoPodLeftWithoutAPlace() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/drift/drift-ami.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        JsonNode drift = s.get("drift");
        System.out.println("drift-ami: " + drift + ", nodes " + s.get("nodes") + ", evictions " + s.get("evictions")
                + ", waited " + s.get("evictionsWaitedForCapacity") + ", consolidation " + s.get("consolidation"));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        List<SimulatedInstance> live = r.simulation().cloud.instances().stream()
                .filter(SimulatedInstance::isAlive).filter(i -> i.request() != null).toList();
        assertThat(live).isNotEmpty();
        assertThat(live).as("every node runs the released image").allSatisfy(i ->
                assertThat(i.imageId()).isEqualTo("ami-sim-AL2023-v20261205"));
        JsonNode commands = s.get("consolidation");
        assertThat(drift.get("driftedTerminated").asInt()).isPositive()
                .isEqualTo(commands.get("handed").asInt()).isEqualTo(commands.get("decided").asInt());
        assertThat(commands.get("aborted").asInt()).isZero();
        assertThat(drift.get("maxPendingPodsDuringRollout").asInt()).as("each node's pods had their place first").isZero();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("evictionsWaitedForCapacity").asInt()).as("replacements were up before each drain").isZero();
        assertThat(drift.get("rolloutSeconds").asLong()).isPositive().isLessThan(90 * 60);
    }
}
