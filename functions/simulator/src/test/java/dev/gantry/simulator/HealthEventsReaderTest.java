package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.simulator.scenario.HealthEvent;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioException;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node-health events of a scenario: what they read as, and their mistakes at their line. */
class HealthEventsReaderTest {
    @TempDir
    Path dir;

    private Path write(String events) throws IOException {
        Path pool = Path.of("../../samples/nodepools/seed002-v1beta1.yaml").toAbsolutePath().normalize();
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: s\nduration: 1h\nconfig: [" + pool + "]\nevents:\n" + events);
        return f;
    }

    @Test
    void conditionsAndStatusChecksRead() throws IOException {
        Scenario s = ScenarioReader.read(write("""
                  - {at: 10m, nodeCondition: {type: AcceleratedHardwareReady, status: "False", nodePool: gpu}}
                  - {at: 20m, statusCheck: {event: instance-retirement, in: 48h, zone: us-east-1a, count: 3}}
                """));
        assertThat(s.events()).extracting(e -> ((Scenario.Health) e.action()).event()).containsExactly(
                new HealthEvent.Condition("AcceleratedHardwareReady", "False", "gpu", null, 1),
                new HealthEvent.StatusCheck(null, "instance-retirement", 48 * 3600, null, "us-east-1a", 3));
    }

    @Test
    void mistakesAreReportedAtTheirLine() throws IOException {
        Path f = write("  - {at: 1m, nodeCondition: {type: KernelReady, status: false}}\n");
        assertThatThrownBy(() -> ScenarioReader.read(f)).isInstanceOf(ScenarioException.class)
                .hasToString(f + ":5: status must be one of [True, False, Unknown] (quote \"False\" and \"True\"), not 'false'");
        Path g = write("  - {at: 1m, statusCheck: {event: meteor-strike}}\n");
        assertThatThrownBy(() -> ScenarioReader.read(g)).hasToString(g + ":5: event must be one of [instance-reboot, "
                + "system-reboot, system-maintenance, instance-retirement, instance-stop], not 'meteor-strike'");
        Path h = write("  - {at: 1m, statusCheck: {check: disk}}\n");
        assertThatThrownBy(() -> ScenarioReader.read(h)).hasToString(h + ":5: check must be one of [instance, system, ok], not 'disk'");
    }
}
