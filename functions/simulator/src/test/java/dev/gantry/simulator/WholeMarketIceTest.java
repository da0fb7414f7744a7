package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Spot and on-demand out in every zone for 20 minutes ({@code samples/scenarios/cost/whole-market-ice.yaml}): when
 * capacity returns, the first launches land on the dearest types whose marks have run out, and consolidation must
 * bring the cost back.
 */
class WholeMarketIceTest {
    @Test
    void theDearNodesLaunchedWhenCapacityReturnsAreReplaced() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/cost/whole-market-ice.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("MEASURE whole-market-ice: nodes " + s.get("nodes") + ", cost " + s.get("cost").get("total")
                + ", consolidation " + s.get("consolidation") + ", time to schedule " + s.get("pods").get("timeToScheduleSeconds"));
        assertThat(r.simulation().invariants.kept()).isEmpty();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        // An m8idn.32xlarge spot node ($2.62/h) launched at 0:40 ends up holding most of the 40 web pods. Kept by
        // Karpenter's rules (a spot node is not replaced without spot-to-spot, nor a node by two): $3.84 over the run.
        // Replaced at 0:43 by two on-demand nodes in two zones ($0.65/h), and those by spot: $0.84.
        assertThat(s.get("cost").get("total").asDouble()).isLessThan(1.5);
    }
}
