package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A static NodePool ({@code spec.replicas}, Karpenter core {@code pkg/controllers/static/}) in the simulator: kept at its
 * count from the template, scaled through the scale subresource and through the bundle, scaled down under a PDB, never
 * consolidated, never switched to dynamic.
 */
class StaticScenariosTest {
    @Test
    void aStaticPoolFollowsItsReplicasUpAndDownUnderAPdbAndIsNeverConsolidated() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/static/scale-up-down.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("static scale-up-down: nodes " + s.get("nodes") + ", evictions " + s.get("evictions")
                + ", pods " + s.get("pods") + ", cost " + s.get("cost") + ", invariants " + s.get("invariants"));

        assertThat(s.get("invariants").get("staticCountOffTarget").asInt()).isZero();
        assertThat(s.get("invariants").get("staticNodeConsolidated").asInt()).isZero();
        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        // 3 from the template, 2 on the scale to 5, 2 on the bundle's 4 after the scale to 2 removed 3.
        assertThat(r.simulation().cloud.instances().stream().filter(i -> i.request() != null)).hasSize(7);
        assertThat(r.simulation().cloud.instances().stream().filter(i -> i.request() != null).filter(i -> i.isAlive())).hasSize(4);
        assertThat(s.get("consolidation").get("decided").asInt()).isZero();
        // The two nodes of the scale to 5 ran no pod (none asks for them) and went at the scale to 2: capacity the pool's
        // count asked for, not wasted launches (was 2).
        assertThat(s.get("nodes").get("wastedLaunches").asInt()).isZero();
        assertThat(s.get("evictions").asInt()).as("the drain evicted through the PDB").isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(r.simulation().api.config().list().stream().filter(o -> o.kind().equals("NodePool") && o.name().equals("fixed")).findFirst().orElseThrow().json())
                .as("the apply that dropped replicas was refused: still static, at 4").contains("\"replicas\":4");
    }

    @Test
    void aDriftedStaticPoolIsReplacedFromItsTemplateOneNodeAtATimeAndKeepsItsCount() {
        // Karpenter core pkg/controllers/disruption/staticdrift.go: template replacements, within budgets and limits.nodes.
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/static/drift.yaml")),
                v -> { }, Progress.none()).run();
        JsonNode s = r.summary().tree();
        System.out.println("static drift: nodes " + s.get("nodes") + ", evictions " + s.get("evictions") + ", waited "
                + s.get("evictionsWaitedForCapacity") + ", consolidation " + s.get("consolidation"));

        s.get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(s.get("nodes").get("terminatedByReason").get("drifted").asInt()).isEqualTo(3);
        assertThat(s.get("nodes").get("peak").asInt()).as("one replacement at a time").isEqualTo(4);
        assertThat(s.get("nodes").get("atEnd").asInt()).isEqualTo(3);
        assertThat(r.simulation().cloud.instances().stream().filter(i -> i.request() != null).filter(i -> i.isAlive()))
                .allSatisfy(i -> assertThat(i.imageId()).isEqualTo("ami-sim-AL2023-v20261205"));
        assertThat(s.get("evictionsWaitedForCapacity").asInt()).isZero();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }
}
