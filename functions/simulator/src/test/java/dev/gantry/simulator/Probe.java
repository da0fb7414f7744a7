package dev.gantry.simulator;

import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A debugging aid, off by default: {@code -Dprobe=NAME[:SEED[:CHAOS_INTENSITY]]} runs a sample scenario (or an absolute
 * path) and prints its summary and violations; {@code -Dprobe.grep=REGEX} also prints the matching timeline lines, and
 * {@code -Dprobe.out=FILE} writes the whole timeline to a file.
 */
class Probe {
    @Test
    @EnabledIfSystemProperty(named = "probe", matches = ".+")
    void probe() {
        String[] a = System.getProperty("probe").split(":");
        Scenario s = ScenarioReader.read(a[0].startsWith("/") ? Path.of(a[0]) : Path.of("../../samples/scenarios/" + a[0] + ".yaml"));
        if (a.length > 1) s = s.withSeed(Long.parseLong(a[1]));
        if (a.length > 2) s = s.withFaults(s.faults().withChaos(Double.parseDouble(a[2])));
        if ("none".equals(System.getProperty("probe.latency"))) s = s.withLatency(Scenario.LatencySpec.NONE);
        Simulation.Result r = new Simulation(s, System.out::println, Progress.none()).run();
        System.out.println(r.summary().table());
        String claims = System.getProperty("probe.claims", "");
        if (!claims.isEmpty()) {
            r.simulation().store.list(java.time.Instant.MIN).stream().filter(c -> c.name().matches(".*(" + claims + ").*"))
                    .forEach(c -> System.out.println("CLAIM " + c));
        }
        String out = System.getProperty("probe.out", "");
        if (!out.isEmpty()) {
            try (var w = java.nio.file.Files.newBufferedWriter(Path.of(out))) {
                for (Recorder.Entry e : r.simulation().recorder.timeline()) {
                    w.write(e.t() + " " + e.kind() + " " + e.text() + "\n");
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        String grep = System.getProperty("probe.grep", "");
        if (!grep.isEmpty()) {
            r.simulation().recorder.timeline().stream().filter(e -> (e.kind() + " " + e.text()).matches(".*(" + grep + ").*"))
                    .limit(Long.getLong("probe.limit", 300)).forEach(e -> System.out.println("TL " + e));
        }
    }
}
