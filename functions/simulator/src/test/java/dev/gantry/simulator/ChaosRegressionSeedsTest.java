package dev.gantry.simulator;

import dev.gantry.simulator.observe.Placement;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The chaos-sweep seeds that found a defect, each run again with the same mix of faults and held to every invariant:
 * a seed's draws move when the code under it changes, so these are a quick smoke check of the sweep (a few seconds
 * each), not a proof that the path they once took is still taken; the named regression tests beside each fix are.
 */
class ChaosRegressionSeedsTest {
    @ParameterizedTest(name = "{0} seed {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "spot-storm | 7  | a slice's claim write lost to a consolidation mark and dropped the drain (DrainRecoveryTest)",
            "spot-storm | 4  | a slice's own write, its answer lost, dropped the drain and held the cpu limit (DrainRecoveryTest)",
            "spot-storm | 46 | a hung batch hold left the batch at the queue's 6 minutes, holding the FIFO group (DeadInvocationsTest)",
            "quickstart | 16 | ICE on every offering the pods allow: they wait out the 3-minute mark as in Karpenter (Placement)",
    })
    void aSeedThatOnceFoundADefectHoldsEveryInvariant(String scenario, long seed, String found) {
        Scenario read = ScenarioReader.read(Path.of("../../samples/scenarios/" + scenario + ".yaml")).withSeed(seed);
        Scenario s = read.withFaults(read.faults().withChaos(1));
        Simulation sim = new Simulation(s, v -> { }, Progress.none()).run().simulation();
        assertThat(sim.invariants.kept()).as(found).isEmpty();
        assertThat(sim.invariants.total()).isZero();
    }
}
