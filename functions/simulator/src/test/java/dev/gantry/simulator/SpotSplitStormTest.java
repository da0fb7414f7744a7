package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The 70% spot split through 20 minutes of spot ICE ({@code samples/scenarios/cost/spot-split-storm.yaml}). While spot
 * is out, consolidation keeps deciding to replace the fallback on-demand nodes by spot, and each command's spot
 * replacement finds no capacity. Was (since ff9875cb): 31 launches, 9 of them wasted: the command's other, on-demand
 * replacement launched and was terminated at the abort ({@code consolidation-aborted}), and the provisioner planned the
 * candidate's pods onto new on-demand nodes, which stood empty once the command was aborted and the pods stayed. Prints
 * the figures the README quotes.
 */
class SpotSplitStormTest {
    @Test
    void aConsolidationCommandWhoseSpotReplacementFindsNoCapacityLaunchesNothingInVain() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/cost/spot-split-storm.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("MEASURE spot-split-storm: nodes " + s.get("nodes") + ", cost " + s.get("cost").get("total")
                + ", split " + s.get("cost").get("spotSplit") + ", consolidation " + s.get("consolidation"));

        assertThat(r.simulation().invariants.kept()).isEmpty();
        assertThat(s.get("consolidation").get("aborted").asInt()).as("spot stays out for 20 minutes").isPositive();
        assertThat(s.get("nodes").get("wastedLaunches").asInt()).isZero();
        assertThat(s.get("nodes").get("terminatedByReason").path("consolidation-aborted").asInt()).isZero();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }
}
