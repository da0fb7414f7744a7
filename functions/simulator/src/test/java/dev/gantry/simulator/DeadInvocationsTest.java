package dev.gantry.simulator;

import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a dead invocation (timed out, crashed) costs, under the deployed settings. */
class DeadInvocationsTest {
    @TempDir
    Path dir;

    private Simulation.Result run(String faults) throws IOException {
        return run(faults, "");
    }

    private Simulation.Result run(String faults, String events) throws IOException {
        Path samples = Path.of("../../samples").toAbsolutePath().normalize();
        Path f = dir.resolve("dead.yaml");
        Files.writeString(f, """
                name: dead
                region: ap-northeast-2
                zones: [ap-northeast-2a, ap-northeast-2b]
                duration: 15m
                seed: 2
                config: [%s/nodepools/seed002-v1beta1.yaml]
                faults:
                %s
                events:
                  - {at: 0s, apply: %s/workloads/seed002-nginx.yaml}
                %s
                """.formatted(samples, faults, samples, events));
        return new Simulation(ScenarioReader.read(f), v -> { }, Progress.none()).run();
    }

    /**
     * Regression (#11 §3/§6.3): the first provisioner invocation freezes until its 60 s timeout. Its batch used to hold
     * the cluster's FIFO group for the queue's 6-minute visibility, so the first pod waited over 6 minutes; the handler
     * now holds the batch only for a short lease its heartbeat renews, which freezes with the process, and the retry
     * provisions as soon as the frozen invocation's concurrency slot is free, about 60 s in.
     */
    @Test
    void aProvisionerThatFreezesUntilItsTimeoutHoldsTheFifoGroupNoLongerThanItsLife() throws IOException {
        Simulation sim = run("  at: [{function: provisioner, invocation: 1, call: 4, fault: freeze}]").simulation();
        assertThat(sim.runtime.stats().get("provisioner").killedByTimeout).isEqualTo(1);
        long firstLaunch = sim.recorder.timeline().stream().filter(e -> e.kind().equals("launch")).mapToLong(Recorder.Entry::t)
                .min().orElseThrow();
        assertThat(firstLaunch).isBetween(60L, 75L);
        assertThat(sim.pendingPods()).isZero();
    }

    /**
     * Regression (chaos spot-storm seed 46, diurnal seed 15): the run's first call, the batch hold, hung. A hung call
     * held the invocation to its deadline (the clients had no attempt timeout: the URL-connection client waits 30 s
     * per attempt, three attempts), and the batch, not yet held, kept the queue's 6-minute visibility. The clients now
     * give up an attempt after CallTimeouts' figure (2 s for SQS) and retry, and the run goes on.
     */
    @Test
    void aProvisionerWhoseBatchHoldGetsNoAnswerRetriesItAndProvisionsInSeconds() throws IOException {
        Simulation sim = run("  at: [{function: provisioner, invocation: 1, call: 1, fault: hang}]").simulation();
        assertThat(sim.faults.injected()).containsEntry("hang", 1L);
        assertThat(sim.runtime.stats().get("provisioner").killedByTimeout).isZero();
        long firstLaunch = sim.recorder.timeline().stream().filter(e -> e.kind().equals("launch")).mapToLong(Recorder.Entry::t)
                .min().orElseThrow();
        assertThat(firstLaunch).isLessThan(15L);
        assertThat(sim.pendingPods()).isZero();
    }

    /**
     * Regression (chaos diurnal seed 7): two provisioner runs died in a row (a hang to the deadline, then a crash), and
     * each held the FIFO group for its remaining time plus 15 s: the pods waited past one boot plus one batch. The batch
     * is now held for a 30 s lease renewed while the run lives, so each dead run costs at most 30 s.
     */
    @Test
    void twoProvisionerRunsCrashingInARowCostAboutALeaseEach() throws IOException {
        Simulation sim = run("  at: [{function: provisioner, invocation: 1, call: 3, fault: crash}, "
                + "{function: provisioner, invocation: 2, call: 3, fault: crash}]").simulation();
        assertThat(sim.runtime.stats().get("provisioner").crashed).isEqualTo(2);
        long firstLaunch = sim.recorder.timeline().stream().filter(e -> e.kind().equals("launch")).mapToLong(Recorder.Entry::t)
                .min().orElseThrow();
        assertThat(firstLaunch).as("two leases, not two deadlines plus 15 s (150 s)").isLessThan(75L);
        assertThat(sim.pendingPods()).isZero();
    }

    /**
     * Regression (chaos spot-storm seed 28): the handler held its batch with one ChangeMessageVisibility per record, so a
     * provisioner that crashed after the first left the others at the queue's 6-minute visibility, and one of them held
     * the cluster's FIFO group that long. The batch is now held in one ChangeMessageVisibilityBatch request, its first
     * call; a crash at the second call comes back when that hold (a 30 s lease) runs out.
     */
    @Test
    void aProvisionerThatCrashesRightAfterHoldingItsBatchHoldsTheFifoGroupOnlyUntilShortlyAfterItsDeadline()
            throws IOException {
        // Pods keep arriving while the first run launches, so the second run receives several hints at once.
        Simulation sim = run("  at: [{function: provisioner, invocation: 2, call: 2, fault: crash}]", """
                  - {at: 2s, scale: {deployment: default/nginx, replicas: 6}}
                  - {at: 3s, scale: {deployment: default/nginx, replicas: 9}}
                  - {at: 4s, scale: {deployment: default/nginx, replicas: 12}}
                """).simulation();
        assertThat(sim.runtime.stats().get("provisioner").crashed).isEqualTo(1);
        assertThat(sim.recorder.timeline()).as("the crashed run had held a batch of several hints")
                .anyMatch(e -> e.kind().equals("error") && e.text().matches("provisioner invocation 2 crashed .* batch of [2-9].*"));
        long lastLaunch = sim.recorder.timeline().stream().filter(e -> e.kind().equals("launch")).mapToLong(Recorder.Entry::t)
                .max().orElseThrow();
        assertThat(lastLaunch).as("the crashed run's hints came back when its lease ran out, not after 6 minutes")
                .isLessThan(60L);
        assertThat(sim.pendingPods()).isZero();
    }

    /**
     * Regression (#11 §4, found by the chaos mix): one failed call in the interruption handler (here an API error on
     * its second port call) failed the spot warning's record, which came back after the queue's 3-minute visibility
     * timeout: past the warning's 2 minutes, so EC2 reclaimed the node with its pods on it. A failed record now comes
     * back after 10 s.
     */
    @Test
    void aSpotWarningWhoseHandlingFailedOnceIsRetriedInSecondsAndTheNodeDrainsBeforeTheReclaim() throws IOException {
        Simulation sim = run("  at: [{function: interruption, invocation: 1, call: 2, fault: error}]",
                "  - {at: 10m, interrupt: {capacityType: spot, count: 1}}").simulation();
        assertThat(sim.faults.injected()).containsEntry("targetedError", 1L);
        assertThat(sim.recorder.interruptionsReceived()).isEqualTo(1);
        assertThat(sim.recorder.timeline()).noneMatch(e -> e.kind().equals("deadline"));
        assertThat(sim.recorder.drainedBeforeDeadline()).isEqualTo(1);
    }
}
