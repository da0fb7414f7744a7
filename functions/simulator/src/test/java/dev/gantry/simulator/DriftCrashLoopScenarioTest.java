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
 * Gantry's own canary gate on a crash-looping AMI ({@code core.disruption.drift.rollout.CanaryPods}): the canary's
 * node becomes Ready but its pods restart, so the rollout pauses at the canary, no other old node is replaced, and no
 * pod is lost.
 */
class DriftCrashLoopScenarioTest {
    static final String OLD = "ami-sim-AL2023";
    static final String LOOPING = "ami-sim-AL2023-v20261205-crashloop";

    @Test
    void aCrashLoopingAmiIsPausedAtItsCanaryWithNoPodLostAndNoOtherOldNodeReplaced() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/drift/drift-crashloop.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("drift-crashloop: " + s.get("drift") + ", nodes " + s.get("nodes") + ", evictions " + s.get("evictions")
                + ", consolidation " + s.get("consolidation") + ", pods " + s.get("pods"));
        List<Recorder.Entry> timeline = r.simulation().recorder.timeline();
        timeline.stream().filter(e -> e.kind().equals("drift") || e.kind().equals("consolidation") || e.kind().equals("scenario"))
                .limit(40).forEach(e -> System.out.println("  " + e.t() + " " + e.kind() + " " + e.text()));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(timeline).as("the rollout paused on the canary's pods")
                .anySatisfy(e -> assertThat(e.text()).contains("failed").contains("crash-loops").contains("new launches keep"));
        List<SimulatedInstance> launchedLooping = r.simulation().cloud.instances().stream()
                .filter(i -> LOOPING.equals(i.imageId())).toList();
        assertThat(launchedLooping).as("only the canary wave ever ran the crash-looping image").hasSizeLessThanOrEqualTo(2);
        List<SimulatedInstance> live = r.simulation().cloud.instances().stream()
                .filter(SimulatedInstance::isAlive).filter(i -> i.request() != null).toList();
        // The canary wave's own nodes are drifted back to the held image, but a drain can stay blocked: their pods
        // crash-loop, a PodDisruptionBudget counts a pod between two restarts as unhealthy, and no drift command evicts
        // past a PDB (Karpenter's rule too). Every other node, those launched for the later scale-up included, runs the
        // old image.
        assertThat(live).isNotEmpty().allSatisfy(i -> assertThat(i.imageId().equals(OLD) || launchedLooping.contains(i))
                .as("%s runs %s and is not of the canary wave", i.id(), i.imageId()).isTrue());
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("evictionsWaitedForCapacity").asInt()).isZero();
        assertThat(r.simulation().cluster.events()).as("the EC2NodeClass's Event")
                .anySatisfy(e -> assertThat(e).contains("EC2NodeClass").contains("DriftRolloutPaused"));
    }
}
