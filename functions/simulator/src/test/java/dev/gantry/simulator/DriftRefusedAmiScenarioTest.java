package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own canary gate on an AMI EC2 refuses ({@code InvalidAMIID.NotFound}, the port's {@code ImageRefused}): the
 * canary's launch is refused for its image, which counts against the canary (a launch without capacity does not), so
 * the rollout pauses, no old node is replaced, and new launches keep the old image.
 */
class DriftRefusedAmiScenarioTest {
    static final String OLD = "ami-sim-AL2023";
    static final String REFUSED = "ami-sim-AL2023-v20261205-withdrawn";

    @Test
    void aRefusedAmiIsPausedAtItsCanaryWithNoPodLostAndLaunchesKeepTheOldImage() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/drift/drift-refused-ami.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("drift-refused-ami: " + s.get("drift") + ", nodes " + s.get("nodes") + ", evictions " + s.get("evictions")
                + ", consolidation " + s.get("consolidation") + ", pods " + s.get("pods"));
        List<Recorder.Entry> timeline = r.simulation().recorder.timeline();
        timeline.stream().filter(e -> e.kind().equals("drift") || e.kind().equals("consolidation") || e.kind().equals("scenario"))
                .limit(40).forEach(e -> System.out.println("  " + e.t() + " " + e.kind() + " " + e.text()));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(timeline).as("the rollout paused on the refused launch")
                .anySatisfy(e -> assertThat(e.text()).contains("failed").contains("refused for its image").contains("new launches keep"));
        assertThat(r.simulation().cloud.instances()).as("EC2 never launched the withdrawn image")
                .noneSatisfy(i -> assertThat(i.imageId()).isEqualTo(REFUSED));
        assertThat(s.get("drift").get("driftedTerminated").asInt()).as("no old node replaced").isZero();
        List<SimulatedInstance> live = r.simulation().cloud.instances().stream()
                .filter(SimulatedInstance::isAlive).filter(i -> i.request() != null).toList();
        assertThat(live).as("the old image runs every node at the end, those launched for the later scale-up too").isNotEmpty()
                .allSatisfy(i -> assertThat(i.imageId()).isEqualTo(OLD));
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("evictionsWaitedForCapacity").asInt()).isZero();
        assertThat(r.simulation().cluster.events()).as("the EC2NodeClass's Event")
                .anySatisfy(e -> assertThat(e).contains("EC2NodeClass").contains("DriftRolloutPaused"));
    }
}
