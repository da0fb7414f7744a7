package dev.gantry.simulator;

import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator runs the deployed consolidation settings unless a scenario overrides a field. */
class DeployedConsolidationScenarioTest {
    @TempDir
    Path dir;

    private Scenario read(String extra) throws IOException {
        Files.writeString(dir.resolve("pools.yaml"), "");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: s\nduration: 1m\nconfig: [pools.yaml]\n" + extra);
        return ScenarioReader.read(f);
    }

    @Test
    void aScenarioThatSetsNoConsolidationRunsTheDeploymentDefault() throws IOException {
        assertThat(read("").gantry().consolidation()).isEqualTo(DeploymentSettings.DEFAULT.consolidation())
                .isSameAs(Simulation.DEPLOYED.consolidation());
    }

    @Test
    void aScenarioOverridesOnlyTheFieldsItSets() throws IOException {
        assertThat(read("consolidation: {strategy: karpenter}\n").gantry().consolidation()).isEqualTo(new ConsolidationSettings(
                DeploymentSettings.DEFAULT.consolidation().spotToSpot(), ConsolidationSettings.Strategy.KARPENTER));
        assertThat(read("consolidation: {spotToSpot: true}\n").gantry().consolidation()).isEqualTo(new ConsolidationSettings(
                true, DeploymentSettings.DEFAULT.consolidation().strategy()));
    }
}
