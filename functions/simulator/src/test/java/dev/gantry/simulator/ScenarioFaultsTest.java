package dev.gantry.simulator;

import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.runtime.CallKind;
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

/** The scenario file's {@code faults:} and {@code latency:} sections, and their errors with line numbers. */
class ScenarioFaultsTest {
    @TempDir
    Path dir;

    private Path write(String body) throws IOException {
        Path pool = Path.of("../../samples/nodepools/seed002-v1beta1.yaml").toAbsolutePath().normalize();
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "name: s\nduration: 10m\nconfig: [" + pool + "]\n" + body);
        return f;
    }

    @Test
    void theFaultsSectionSetsRatesLagsAndTargetedFaults() throws IOException {
        Scenario s = ScenarioReader.read(write("""
                faults:
                  ec2Throttle: 0.1
                  describeLag: 5s
                  indexLag: 2s
                  duplicates: 0.05
                  functions: [termination]
                  crash: 0.01
                  at:
                    - {function: termination, invocation: 2, call: 3, fault: crash}
                    - {function: provisioner, invocation: 1, call: 1, fault: error}
                """));
        FaultPlan f = s.faults().plan();
        assertThat(f.ec2().throttle()).isEqualTo(0.1);
        assertThat(f.ec2().describeLag()).isEqualTo(Duration.ofSeconds(5));
        assertThat(f.dynamo().indexLag()).isEqualTo(Duration.ofSeconds(2));
        assertThat(f.sqs().duplicates()).isEqualTo(0.05);
        assertThat(f.invocations().functions()).containsExactly("termination");
        assertThat(f.at()).containsExactly(new FaultPlan.Target("termination", 2, 3, "crash"),
                new FaultPlan.Target("provisioner", 1, 1, "error"));
        assertThat(s.faults().chaos()).isFalse();
        assertThat(s.effectiveFaults()).isEqualTo(f);
    }

    /**
     * Regression (#21): outages were placed from the default start (2025-06-01) rather than the scenario's, so in a run
     * that starts later most of them fell before it began and all came at once at its first instant.
     */
    @Test
    void apiOutagesFallBetweenATenthAndFourFifthsOfARunThatStartsOnAnotherDay() throws IOException {
        Scenario s = ScenarioReader.read(write("start: 2025-06-09T00:00:00Z\nfaults: {apiOutages: 4, apiOutageFor: 10s}\n"));
        Simulation sim = new Simulation(s, v -> { }, Progress.none()).run().simulation();
        var outages = sim.recorder.timeline().stream().filter(e -> e.kind().equals("fault")
                && e.text().startsWith("API server down")).map(Recorder.Entry::t).toList();
        assertThat(outages).hasSize(4).allSatisfy(t -> assertThat(t).isBetween(60L, 480L));
    }

    /** The timeline learns of failed launches from the provisioner's run outcomes, one line per claim with its code. */
    @Test
    void aLaunchThatFailsForGoodIsOnTheTimelineWithItsClaimAndCode() throws IOException {
        Path inflate = Path.of("../../samples/workloads/inflate.yaml").toAbsolutePath().normalize();
        Scenario s = ScenarioReader.read(write("region: ap-northeast-2\nzones: [ap-northeast-2a, ap-northeast-2b]\n"
                + "faults: {ice: 1}\nevents:\n  - {at: 0s, apply: " + inflate + "}\n"));
        Simulation sim = new Simulation(s, v -> { }, Progress.none()).run().simulation();
        var failed = sim.recorder.timeline().stream().filter(e -> e.kind().equals("launch-failed")).map(Recorder.Entry::text).toList();
        assertThat(failed).isNotEmpty().allSatisfy(t -> assertThat(t).matches("nodeclaim/[-a-z0-9]+: InsufficientInstanceCapacity"));
    }

    @Test
    void chaosAddsASeededMixThatDependsOnTheSeed() throws IOException {
        Scenario s = ScenarioReader.read(write("faults: {chaos: true}\n"));
        assertThat(s.effectiveFaults().invocations().crash()).isPositive();
        assertThat(s.effectiveFaults().kubeApi().outages()).isEqualTo(1);
        assertThat(s.withSeed(2).effectiveFaults()).isNotEqualTo(s.withSeed(3).effectiveFaults());
        assertThat(s.withSeed(2).effectiveFaults()).isEqualTo(s.withSeed(2).effectiveFaults());
    }

    @Test
    void aBadFaultIsReportedAtItsLine() throws IOException {
        assertThatThrownBy(() -> ScenarioReader.read(write("faults:\n  ec2Throttle: 1.5\n")))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.line()).isEqualTo(5))
                .hasMessageContaining("ec2Throttle must be a probability between 0 and 1");
        assertThatThrownBy(() -> ScenarioReader.read(write("faults:\n  at:\n    - {function: webhook, invocation: 1, call: 1}\n")))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.line()).isEqualTo(6))
                .hasMessageContaining("unknown function 'webhook'");
        assertThatThrownBy(() -> ScenarioReader.read(write("faults:\n  at:\n    - {function: sweep, invocation: 0, call: 1}\n")))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("counting from 1");
        assertThatThrownBy(() -> ScenarioReader.read(write("faults:\n  crsh: 0.1\n")))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.line()).isEqualTo(5))
                .hasMessageContaining("unknown field 'faults.crsh'");
    }

    @Test
    void theLatencySectionOverridesAKindAndScalesTheRest() throws IOException {
        Scenario s = ScenarioReader.read(write("latency: {scale: 0.5, createFleet: 2s..4s, kubeGet: 10ms}\n"));
        assertThat(s.latency().scale()).isEqualTo(0.5);
        assertThat(s.latency().overrides().get(CallKind.CREATE_FLEET).max()).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.latency().overrides().get(CallKind.KUBE_GET).min()).isEqualTo(Duration.ofMillis(10));
        var l = s.latency().build(1);
        assertThat(l.draw(CallKind.KUBE_GET, 0)).isEqualTo(Duration.ofMillis(5));
        assertThat(l.draw(CallKind.CREATE_FLEET, 0)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThatThrownBy(() -> ScenarioReader.read(write("latency: {createFleet: 2s..1s}\n")))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("below the lower bound");
        assertThat(ScenarioReader.read(write("latency: {scale: 0}\n")).latency().build(1).instant()).isTrue();
    }
}
