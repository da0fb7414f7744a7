package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.runtime.ReadTally;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulated sweep reads as the deployed one: in its function's read scope ({@code InvocationScope}), built by the
 * deployed code, so each whole list (pods, nodes, claims) is read once between the sweep's own writes, and a staleness
 * that scope could bring shows in a simulation. Counted on the simulated API server and store ({@link ReadTally}): a
 * list the same sweep makes again with no write of its own finished since is a repeat (a list of the claims live at an
 * earlier instant than the kept one's is not: the scope reads it afresh, see {@code InvocationClaims}). The quickstart
 * scales up and down, so its sweeps register, drain and consolidate, writing between their lists. Without the scope a sweep lists
 * the pods at least twice (its own steps, then the consolidation decision's snapshot), the nodes three or four times and
 * the claims eight to ten times.
 */
class SweepReadScopeScenarioTest {
    @Test
    void aSimulatedSweepReadsEachListOnceBetweenItsWrites() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/quickstart.yaml")), v -> { },
                Progress.none()).run();
        ReadTally reads = r.simulation().runtime.reads();
        long sweeps = r.simulation().runtime.stats().get("sweep").invocations;
        assertThat(sweeps).isEqualTo(30);
        Map<String, ReadTally.Count> counts = new LinkedHashMap<>();
        for (String list : List.of("pods", "nodes", "claims")) {
            ReadTally.Count c = reads.count("sweep", list);
            counts.put(list, c);
            System.out.printf("sweep %s lists: %d in %d sweeps (%.2f a sweep), %d repeated%n", list, c.lists(), sweeps,
                    c.lists() / (double) sweeps, c.repeats());
        }
        counts.forEach((list, c) -> {
            assertThat(c.lists()).as(list + " lists").isGreaterThanOrEqualTo(sweeps);
            assertThat(c.repeats()).as(list + " lists repeated with no write between, in " + sweeps + " sweeps").isZero();
        });
    }
}
