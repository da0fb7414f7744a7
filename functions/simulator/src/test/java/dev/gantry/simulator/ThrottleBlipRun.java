package dev.gantry.simulator;

import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Measures the throttle-blip scenario: p99 time to schedule without an EC2 fault, with its noisy neighbour (the
 * scenario's fault: each API's token bucket drained, our calls served when they find a token), and with a total
 * outage of the same length, over five seeds each; prints the median and the spread (min-max) per variant.
 * {@code ThrottleBlipRun [scenario] [seeds] [neighbour demand...]}.
 */
public final class ThrottleBlipRun {
    private ThrottleBlipRun() {
    }

    private static boolean ec2Fault(Scenario.Event e) {
        return e.action() instanceof Scenario.Throttle || e.action() instanceof Scenario.NoisyNeighbour
                || e.action() instanceof Scenario.Ec2Outage;
    }

    private static Scenario withEvents(Scenario s, String name, long seed, List<Scenario.Event> events) {
        return new Scenario(s.file(), name, s.cluster(), s.run().withSeed(seed), s.gantry(), events, s.faults(), s.latency());
    }

    static Scenario withoutThrottle(Scenario s) {
        return withEvents(s, s.name() + " (no fault)", s.run().seed(), s.events().stream().filter(e -> !ec2Fault(e)).toList());
    }

    /** The scenario with each EC2 fault replaced by what {@code how} makes of its length. */
    static Scenario replacingFault(Scenario s, String name, UnaryOperator<Duration> keep, java.util.function.Function<Duration,
            Scenario.Action> how) {
        return withEvents(s, s.name() + " (" + name + ")", s.run().seed(), s.events().stream().map(e -> !ec2Fault(e) ? e
                : new Scenario.Event(e.at(), how.apply(keep.apply(lasting(e.action()))), e.line())).toList());
    }

    /** The same fault window as an outage: every EC2 call refused. */
    static Scenario asOutage(Scenario s) {
        return replacingFault(s, "outage", d -> d, Scenario.Ec2Outage::new);
    }

    static Scenario withNeighbour(Scenario s, double demand) {
        return replacingFault(s, "neighbour " + demand + "x", d -> d, d -> new Scenario.NoisyNeighbour(demand, d));
    }

    static Scenario withSeed(Scenario s, long seed) {
        return withEvents(s, s.name(), seed, s.events());
    }

    private static Duration lasting(Scenario.Action a) {
        return switch (a) {
            case Scenario.Throttle t -> t.lasting();
            case Scenario.NoisyNeighbour n -> n.lasting();
            case Scenario.Ec2Outage o -> o.lasting();
            default -> throw new IllegalArgumentException("not an EC2 fault: " + a);
        };
    }

    static double p99(Scenario s) {
        return new Simulation(s, v -> { }, Progress.none()).run().summary().tree().get("pods").get("timeToScheduleSeconds")
                .get("p99").asDouble();
    }

    public static void main(String[] args) {
        Scenario s = ScenarioReader.read(Path.of(args.length > 0 ? args[0] : "samples/scenarios/throttle-blip.yaml"));
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Scenario> variants = new ArrayList<>(List.of(s, asOutage(s)));
        for (int i = 2; i < args.length; i++) {
            variants.add(withNeighbour(s, Double.parseDouble(args[i])));
        }
        List<Double> without = new ArrayList<>();
        for (int k = 0; k < seeds; k++) {
            without.add(p99(withSeed(withoutThrottle(s), s.run().seed() + k)));
        }
        System.out.printf("%-36s %-22s %-22s %s%n", "scenario", "without (median, range)", "with (median, range)", "ratio");
        for (Scenario v : variants) {
            List<Double> with = new ArrayList<>();
            for (int k = 0; k < seeds; k++) {
                with.add(p99(withSeed(v, s.run().seed() + k)));
            }
            System.out.printf("%-36s %-22s %-22s %.2f%n", v.name(), figures(without), figures(with), median(with) / median(without));
        }
    }

    private static String figures(List<Double> xs) {
        return String.format("%.0f s (%.0f-%.0f)", median(xs), xs.stream().mapToDouble(d -> d).min().orElse(0),
                xs.stream().mapToDouble(d -> d).max().orElse(0));
    }

    static double median(List<Double> xs) {
        List<Double> sorted = xs.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
