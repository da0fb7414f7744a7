package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The NodeClaim projection's and status steps' API calls in scenarios (the figures of the scale scenarios):
 * {@code java -cp ... dev.gantry.simulator.ClusterObjectsScaleRun samples/scenarios/scale/spot-interruptions.yaml}.
 */
public final class ClusterObjectsScaleRun {
    private ClusterObjectsScaleRun() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        for (String a : args) {
            Simulation s = new Simulation(ScenarioReader.read(Path.of(a)), line -> { }, new Progress(out, false)).run().simulation();
            long minutes = java.time.Duration.between(s.start, s.clock.instant()).toMinutes();
            out.printf("%s: %d Karpenter-object requests in %d min (%.1f a minute), at most %d in one minute; %d NodeClaim objects at the end%n",
                    a, s.karpenterObjects.requests(), minutes, s.karpenterObjects.requests() / (double) Math.max(1, minutes),
                    s.karpenterObjects.mostInAMinute(), s.karpenterObjects.nodeClaims());
        }
    }
}
