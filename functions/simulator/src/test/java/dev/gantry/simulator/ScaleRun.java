package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Runs scenarios and prints their summaries (the scale scenarios' figures):
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
            out.flush();
        }
    }
}
