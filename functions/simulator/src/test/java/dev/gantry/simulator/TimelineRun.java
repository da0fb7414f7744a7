package dev.gantry.simulator;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;

/** Prints a scenario's timeline between two times (seconds), under a given seed: for finding what an invariant saw. */
public final class TimelineRun {
    private TimelineRun() {
    }

    public static void main(String[] args) {
        Scenario s = ScenarioReader.read(Path.of(args[0]));
        long seed = Long.parseLong(args[1]);
        Scenario x = s.withSeed(seed);
        Simulation.Result r = new Simulation(x, System.out::println, Progress.none()).run();
        long from = Long.parseLong(args[2]);
        long to = Long.parseLong(args[3]);
        String grep = args.length > 4 ? args[4] : "";
        r.simulation().recorder.timeline().stream().filter(e -> e.t() >= from && e.t() <= to && (e.kind() + " " + e.text()).contains(grep))
                .forEach(e -> System.out.println(VirtualClock.format(e.t()) + " " + e.kind() + " " + e.text()));
    }
}
