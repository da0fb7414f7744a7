package dev.gantry.simulator;

import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioException;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario file's EC2 fault events: a share of calls throttled, a noisy neighbour, an outage. */
class Ec2FaultEventsTest {
    @TempDir
    Path dir;

    private Scenario.Action fault(String yaml) throws IOException {
        Files.writeString(dir.resolve("pools.yaml"), "");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: s\nduration: 5m\nconfig: [pools.yaml]\nevents:\n  - {at: 1m, fault: " + yaml + "}\n");
        return ScenarioReader.read(f).events().getFirst().action();
    }

    @Test
    void aThrottleIsAShareOfCallsOrANoisyNeighbourAndAnOutageIsItsOwnFault() throws IOException {
        assertThat(fault("{throttle: {probability: 0.3, for: 5m}}")).isEqualTo(new Scenario.Throttle(0.3, Duration.ofMinutes(5)));
        assertThat(fault("{throttle: {neighbour: 4, for: 60s}}"))
                .isEqualTo(new Scenario.NoisyNeighbour(4, Duration.ofSeconds(60)));
        assertThat(fault("{outage: {for: 60s}}")).isEqualTo(new Scenario.Ec2Outage(Duration.ofSeconds(60)));
    }

    @Test
    void aThrottleWithBothOrNeitherKindIsRefusedWithItsLine() {
        assertThatThrownBy(() -> fault("{throttle: {probability: 0.3, neighbour: 4, for: 60s}}"))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("one of probability");
        assertThatThrownBy(() -> fault("{throttle: {for: 60s}}")).hasMessageContaining("one of probability");
        assertThatThrownBy(() -> fault("{throttle: {neighbour: -1, for: 60s}}")).hasMessageContaining("must not be negative");
    }

    @Test
    void theThrottleBlipSampleIsANoisyNeighbourForSixtySeconds() {
        Scenario s = ScenarioReader.read(Path.of("../../samples/scenarios/throttle-blip.yaml"));
        assertThat(s.events()).extracting(Scenario.Event::action).filteredOn(a -> a instanceof Scenario.NoisyNeighbour)
                .singleElement().isEqualTo(new Scenario.NoisyNeighbour(4, Duration.ofSeconds(60)));
        assertThat(ThrottleBlipRun.asOutage(s).events()).extracting(Scenario.Event::action)
                .contains(new Scenario.Ec2Outage(Duration.ofSeconds(60)));
    }
}
