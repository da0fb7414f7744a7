package dev.gantry.simulator;

import java.nio.file.Path;

/** Prints the throttle-blip scenario's summary with and without its fault. */
public final class ThrottleBlipRun {
    private ThrottleBlipRun() {
    }

    static Scenario withoutThrottle(Scenario s) {
        return new Scenario(s.file(), s.name() + " (no fault)", s.region(), s.zones(), s.duration(), s.seed(), s.config(),
                s.manifests(), s.webhook(), s.events().stream().filter(e -> !(e.action() instanceof Scenario.Throttle)).toList());
    }

    public static void main(String[] args) {
        Scenario s = ScenarioReader.read(Path.of(args.length > 0 ? args[0] : "samples/scenarios/throttle-blip.yaml"));
        for (Scenario x : java.util.List.of(withoutThrottle(s), s)) {
            Simulation.Result r = new Simulation(x, System.out::println, Progress.none()).run();
            System.out.println(r.summary().table());
            r.simulation().recorder.timeline.stream().filter(e -> e.t() >= 590 && e.t() < 1100)
                    .forEach(e -> System.out.println("    " + Progress.clock(e.t()) + " " + e.kind() + " " + e.text()));
        }
    }
}
