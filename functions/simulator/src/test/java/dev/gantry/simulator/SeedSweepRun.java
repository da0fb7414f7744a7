package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;

/** Runs scenarios under several seeds and prints the invariant counts that are not zero (a quick hunt for defects). */
public final class SeedSweepRun {
    private SeedSweepRun() {
    }

    public static void main(String[] args) {
        int seeds = Integer.parseInt(args[0]);
        for (int a = 1; a < args.length; a++) {
            Scenario s = ScenarioReader.read(Path.of(args[a]));
            for (long seed = 1; seed <= seeds; seed++) {
                Scenario x = s.withSeed(seed * 7919);
                Simulation.Result r = new Simulation(x, v -> { }, Progress.none()).run();
                StringBuilder b = new StringBuilder();
                r.simulation().invariants.counts().forEach((k, v) -> { if (v > 0) b.append(' ').append(k).append('=').append(v); });
                System.out.println(s.name() + " seed " + x.run().seed() + ":" + (b.isEmpty() ? " ok" : b));
                r.simulation().invariants.kept().stream().limit(3).forEach(v -> System.out.println("    " + v));
            }
        }
    }
}
