package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue #21's first defect as its reporters saw it (samples/scenarios/labelled/): a NodePool whose requirements carry a
 * custom label ({@code workload In [batch]}), pods selecting it, scaled up in three waves while the first nodes boot.
 * A claim in flight lacked its requirement labels, so each wave, and each buffer chunk, looked for room on new claims:
 * 6 nodes launched where 4 suffice, and with a two-chunk buffer 11 where 5 suffice, every extra one removed empty.
 */
class LabelledPoolScenariosTest {
    private static JsonNode run(String name) {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/labelled/" + name + ".yaml")),
                v -> { }, Progress.none()).run();
        System.out.println(r.summary().table());
        assertThat(r.simulation().invariants.kept()).isEmpty();
        assertThat(r.simulation().invariants.total()).isZero();
        JsonNode s = r.summary().tree();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        return s;
    }

    @Test
    void wavesOfPodsSelectingARequirementLabelFindRoomOnTheClaimsInFlight() {
        JsonNode nodes = run("burst").get("nodes");
        // 12 one-vCPU workers, three to a 4-vCPU node.
        assertThat(nodes.get("launched").asInt()).isEqualTo(4);
        assertThat(nodes.get("wastedLaunches").asInt()).isZero();
    }

    @Test
    void aBufferSelectingARequirementLabelIsLaunchedOnceAndNotAgainEveryRun() {
        JsonNode nodes = run("burst-buffered").get("nodes");
        // The 12 workers' 4 nodes, and one more for the buffer's two chunks.
        assertThat(nodes.get("launched").asInt()).isEqualTo(5);
        assertThat(nodes.get("wastedLaunches").asInt()).isZero();
    }
}
