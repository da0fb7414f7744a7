package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * samples/scenarios/gitops.yaml: seed 002's NodePool changed in the cluster while Gantry runs (a limit lowered at noon,
 * the requirements narrowed to on-demand at 13:00). The real handlers read it from the simulated API server on every
 * run, through the same reader as the deployed functions.
 */
class GitOpsScenarioTest {
    private static Simulation.Result run;
    private static JsonNode summary;

    @BeforeAll
    static void runIt() {
        run = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/gitops.yaml")), v -> { }, Progress.none()).run();
        summary = run.summary().tree();
        System.out.println("gitops: configChanges " + summary.get("configChanges"));
    }

    @Test
    void runsWithItsInvariantsIntact() {
        assertThat(run.simulation().invariants.kept()).isEmpty();
        summary.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
    }

    @Test
    void eachChangeIsUsedByARunWithinSecondsThanksToTheWebhooksHint() {
        List<JsonNode> changes = summary.get("configChanges").valueStream().toList();
        assertThat(changes).extracting(c -> c.get("object").asText())
                .containsExactly("NodePool/seed002-node-pool", "NodePool/seed002-node-pool");
        assertThat(changes).extracting(c -> c.get("at").asLong()).containsExactly(7200L, 10800L);
        // The validating webhook admitted the write and hinted the provisioner, whose run read it at once (without the
        // hint, the next sweep: up to a minute).
        assertThat(changes).allSatisfy(c -> assertThat(c.get("firstRunUsingItAfterSeconds").asDouble()).isBetween(0.0, 10.0));
    }

    @Test
    void afterTheLimitIsLoweredNothingIsLaunchedPastIt() {
        JsonNode lowered = summary.get("configChanges").get(0);
        assertThat(lowered.get("cpuLimit").asText()).isEqualTo("12");
        double limit = 12;
        assertThat(lowered.get("cpuLaunchedPeakAfter").asDouble())
                .isLessThanOrEqualTo(Math.max(limit, lowered.get("cpuLaunchedWhenUsed").asDouble()));
        // The web tier grew past what 12 CPUs hold: pods waited for the 13:00 change, then were placed.
        assertThat(summary.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    @Test
    void afterTheRequirementsAreNarrowedEveryLaunchIsOnDemand() {
        JsonNode narrowed = summary.get("configChanges").get(1);
        assertThat(narrowed.get("launchedAfter").asInt()).isPositive();
        // Outside the requirements in force: a spot node, here.
        assertThat(narrowed.get("launchedOutsideRequirements").asInt()).isZero();
    }
}
