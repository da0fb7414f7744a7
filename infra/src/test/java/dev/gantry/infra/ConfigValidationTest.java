package dev.gantry.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigValidationTest {

    @Test
    void badNodePoolFailsSynthWithTheValidatorsLine() throws Exception {
        Path dir = SynthFixture.tempDir();
        Path bad = dir.resolve("nodepools/default.yaml");
        Files.writeString(bad, SynthFixture.NODEPOOL.replace("operator: In", "operator: Within"));
        List<String> expected = ConfigValidators.standard().errors(List.of(bad));
        assertThat(expected).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith(bad + ":"));

        assertThatThrownBy(() -> SynthFixture.build(SynthFixture.withDefaults(Map.of(), dir), dir))
                .isInstanceOf(SynthInputException.class)
                .hasMessage(String.join("\n", expected))
                .hasMessageContaining("Within");
    }

    @Test
    void theFixturesNodePoolAndNodeClassAreValid() {
        Path dir = SynthFixture.tempDir();
        assertThat(ConfigValidators.standard().errors(List.of(dir.resolve("nodepools/default.yaml")))).isEmpty();
    }

    @Test
    void samplesShippedWithTheRepositoryValidate() {
        Path samples = Path.of("../samples/nodepools");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(samples), "samples/nodepools not present");
        assertThat(ConfigValidators.standard().errors(ConfigBundle.yamlFiles(samples))).isEmpty();
    }

    @Test
    void bundleListsYamlFilesInADirectoryInSortedOrder() throws Exception {
        Path dir = Files.createTempDirectory("gantry-bundle");
        Files.writeString(dir.resolve("b.yaml"), "a: 1\n");
        Files.writeString(dir.resolve("a.yml"), "a: 1\n");
        Files.writeString(dir.resolve("notes.txt"), "ignored\n");
        assertThat(ConfigBundle.yamlFiles(dir)).containsExactly(dir.resolve("a.yml"), dir.resolve("b.yaml"));
    }
}
