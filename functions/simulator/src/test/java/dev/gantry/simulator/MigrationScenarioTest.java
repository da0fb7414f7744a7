package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.model.Node;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration sample ({@code samples/scenarios/migration.yaml}): six nodes a Karpenter launched, five of a NodePool
 * Gantry manages. Gantry adopts those five with no node replaced, leaves the sixth alone, and then runs them as its own:
 * the underused one is consolidated and the one past {@code expireAfter}, counted from its real launch, is replaced.
 */
class MigrationScenarioTest {
    private static Simulation.Result run;
    private static List<SimulatedInstance> karpenters;

    @BeforeAll
    static void runIt() {
        run = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/migration.yaml")), v -> { },
                Progress.none()).run();
        karpenters = run.simulation().cloud.instances().stream()
                .filter(i -> KarpenterTags.launchedFor(Simulation.CLUSTER, i.tags())).toList();
    }

    private static boolean adopted(SimulatedInstance i) {
        return Simulation.CLUSTER.equals(i.tags().get(CloudInstance.TAG_CLUSTER));
    }

    /** How long after the start the instance began to shut down. */
    private static Duration endedIn(SimulatedInstance i) {
        return Duration.between(run.simulation().start, i.endedAt());
    }

    @Test
    void theFiveNodesOfTheManagedPoolAreAdoptedUnderTheirNodeClaimNamesAndTheOtherPoolsIsLeftAlone() {
        assertThat(karpenters).hasSize(6);
        assertThat(karpenters).filteredOn(MigrationScenarioTest::adopted).hasSize(5)
                .allSatisfy(i -> {
                    assertThat(i.tags().get(KarpenterTags.NODEPOOL)).isEqualTo("general");
                    assertThat(i.tags().get(CloudInstance.TAG_NODECLAIM)).isEqualTo(i.tags().get(KarpenterTags.NODECLAIM));
                });
        SimulatedInstance legacy = karpenters.stream().filter(i -> !adopted(i)).findFirst().orElseThrow();
        assertThat(legacy.tags().get(KarpenterTags.NODEPOOL)).isEqualTo("legacy");
        assertThat(legacy.state()).isEqualTo("running");
        Node node = run.simulation().cluster.node(legacy.dnsName());
        assertThat(node.finalizers()).as("still Karpenter's").containsExactly(Node.KARPENTER_FINALIZER);
    }

    @Test
    void noNodeIsReplacedAtAdoption_theConsolidationAndTheExpiryThatFollowActOnAdoptedNodes() {
        JsonNode nodes = run.summary().tree().get("nodes");
        assertThat(nodes.get("terminatedByReason").get("underutilized").asInt()).isEqualTo(1);
        assertThat(nodes.get("terminatedByReason").get("expiry").asInt()).isEqualTo(1);
        assertThat(nodes.get("terminated").asInt()).isEqualTo(2);
        assertThat(nodes.get("launched").asInt()).as("one replacement each").isEqualTo(2);
        List<SimulatedInstance> ended = karpenters.stream().filter(i -> !i.isAlive()).toList();
        assertThat(ended).as("both ended nodes are adopted ones").hasSize(2).allMatch(MigrationScenarioTest::adopted);
        assertThat(ended).extracting(i -> i.type().name()).containsExactlyInAnyOrder("m5.2xlarge", "m5.xlarge");
        assertThat(ended).as("none at adoption (the first sweep, 30 s in)")
                .allMatch(i -> endedIn(i).compareTo(Duration.ofMinutes(5)) > 0);
        // The underused m5.2xlarge: consolidateAfter (5m) counted from the adoption, then its replacement's boot.
        SimulatedInstance consolidated = ended.stream().filter(i -> i.type().name().equals("m5.2xlarge")).findFirst().orElseThrow();
        assertThat(endedIn(consolidated)).isBetween(Duration.ofMinutes(5), Duration.ofMinutes(15));
        // Launched 719h before the start: expireAfter 720h runs out an hour in, counted from the real launch.
        SimulatedInstance expired = ended.stream().filter(i -> i.type().name().equals("m5.xlarge")).findFirst().orElseThrow();
        assertThat(Duration.between(expired.launchTime(), run.simulation().start)).isEqualTo(Duration.ofHours(719));
        assertThat(endedIn(expired)).isBetween(Duration.ofHours(1), Duration.ofMinutes(70));
        assertThat(run.simulation().invariants.kept()).isEmpty();
        run.summary().tree().get("invariants").properties().forEach(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
        assertThat(run.summary().tree().get("pods").get("pendingAtEnd").asInt()).isZero();
    }
}
