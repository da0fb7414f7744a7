package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Runs scenarios and prints their summaries (the scale scenarios' figures) and the whole lists their sweeps read
 * ({@link dev.gantry.simulator.runtime.ReadTally}):
 * {@code java -cp ... dev.gantry.simulator.ScaleRun samples/scenarios/scale/burst.yaml ...}.
 */
public final class ScaleRun {
    private ScaleRun() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        for (String a : args) {
            Simulation.Result r = new Simulation(ScenarioReader.read(Path.of(a)), line -> out.println(line),
                    new Progress(out, false)).run();
            out.println(r.summary().table());
            var stats = r.simulation().runtime.stats().get("sweep");
            var reads = r.simulation().runtime.reads();
            out.printf("sweep whole lists in %d sweeps: pods %s, nodes %s, claims %s%n", stats == null ? 0 : stats.invocations,
                    reads.count("sweep", "pods"), reads.count("sweep", "nodes"), reads.count("sweep", "claims"));
            out.flush();
        }
    }
}
