package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Issue #23: near a NodePool limit, pods that fit under it were refused for a provisioning round, because every claim of
 * the run was counted at the largest type it may launch. Measured on {@code limits/limits.yaml} (96-vCPU limit, ten
 * one-per-node replicas at once): 11 pods were refused for the limit and bound a round later (p99 time to schedule
 * 90 s); with the claims narrowed to their expected size before a pod is refused, none (35 s).
 */
class LimitAccountingTest {
    @Test
    void noPodWaitsARoundForALimitItFitsUnder() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("src/test/resources/limits/limits.yaml")), x -> { },
                Progress.none()).run();
        Set<String> refused = new TreeSet<>();
        r.simulation().cluster.events().stream().filter(e -> e.contains("FailedScheduling") && e.contains(" limit"))
                .forEach(e -> refused.add(e.substring("Pod/".length(), e.indexOf(' '))));
        Set<String> laterBound = new TreeSet<>(refused);
        laterBound.removeIf(k -> r.simulation().cluster.pod(k) == null || !r.simulation().cluster.pod(k).isBound());
        assertThat(laterBound).as("pods refused for the limit, then bound a round later").isEmpty();
        assertThat(r.simulation().pendingPods()).isZero();
        assertThat(r.summary().tree().get("pods").get("timeToScheduleSeconds").get("p99").asDouble()).isLessThan(40);
        assertThat(r.simulation().invariants.total()).isZero();
    }
}
