package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue #21's first defect as its reporters saw it (samples/scenarios/labelled/): a NodePool whose requirements carry a
 * custom label ({@code workload In [batch]}), pods selecting it, scaled up in three waves while the first nodes boot.
 * A claim in flight lacked its requirement labels, so each wave, and each buffer chunk, looked for room on new claims:
 * 6 nodes launched where 4 suffice, and with a two-chunk buffer 11 where 5 suffice, every extra one removed empty.
 * And rebalance.yaml: a recommendation for an on-demand node of a pool that opts in disrupts nothing.
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

    @Test
    void aRebalanceRecommendationForAnOnDemandNodeDisruptsNothing() {
        // Gantry's own (aws/karpenter-provider-aws#2813): only spot nodes of an opted-in pool are replaced, by a
        // rebalance command (RebalanceCommandsTest); this pool is on-demand. Issue #21's defect 3 (a drain waiting for
        // its replacement) is now expiry's alone, covered by InterruptionServiceTest's waiting-drain tests.
        JsonNode s = run("rebalance");
        assertThat(s.get("nodes").get("terminated").asInt()).isZero();
        assertThat(s.get("evictions").asInt()).isZero();
        assertThat(s.get("nodes").get("wastedLaunches").asInt()).isZero();
    }
}
