package dev.gantry.cli;

import dev.gantry.simulator.Simulation;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioException;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gantry simulate}: runs a scenario (a cluster's life: workloads, interruptions, outages, faults) against
 * Gantry's real provisioning and lifecycle services on a simulated AWS and cluster with a virtual clock, then prints a
 * summary. Exit 0 when the scenario ran (even with pods still pending), 1 when an invariant was violated, 2 for a bad
 * scenario ({@code file:line: message}).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Simulate a cluster's life offline with Gantry's real decision code and print what happened.")
public final class SimulateCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SCENARIO", description = "Scenario YAML (see samples/scenarios/).")
    Path scenario;

    @Option(names = "--seed", description = "Override the scenario's seed.")
    Long seed;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Write the summary as JSON.")
    Path summaryJson;

    @Option(names = "--report", paramLabel = "FILE.html", description = "Write a self-contained HTML report.")
    Path report;

    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    @Option(names = "--without-buffers", description = "Ignore the scenario's CapacityBuffers (the baseline they are measured against).")
    boolean withoutBuffers;

    @Option(names = "--status-at", paramLabel = "DURATION",
            description = "Also print the `gantry status` view at this virtual time after the start (e.g. 12h).")
    String statusAt;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** A bad option value: one line, exit 2. */
    private static final class BadOption extends RuntimeException {
        BadOption(String message) {
            super(message);
        }
    }

    private java.time.Duration statusTime(Scenario s) {
        java.time.Duration at;
        try {
            at = dev.gantry.core.model.KubeDuration.parse(statusAt);
        } catch (IllegalArgumentException e) {
            throw new BadOption("--status-at: " + e.getMessage());
        }
        if (at.compareTo(s.run().duration()) > 0) {
            throw new BadOption("--status-at " + statusAt + " is after the scenario's end ("
                    + dev.gantry.core.model.KubeDuration.format(s.run().duration()) + ")");
        }
        return at;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Simulation.Result result;
        try {
            Scenario s = ScenarioReader.read(scenario);
            if (seed != null) {
                s = s.withSeed(seed);
            }
            if (withoutBuffers) {
                s = s.withoutBuffers();
            }
            java.time.Duration at = statusAt == null ? null : statusTime(s);
            Progress progress = quiet ? Progress.none() : new Progress(err, System.console() != null);
            Simulation sim = Simulation.learning(s, err::println, progress);
            if (at != null) {
                sim.statusAt(at);
            }
            result = sim.run();
        } catch (BadOption e) {
            err.println("gantry simulate: " + e.getMessage());
            err.flush();
            return 2;
        } catch (ScenarioException e) {
            err.println(e);
            err.flush();
            return 2;
        } catch (RuntimeException e) {
            // A bug in Gantry or the simulator: enough of the trace to report it, then exit 1 as for any internal error.
            err.println("gantry simulate: internal error: " + e);
            java.util.Arrays.stream(e.getStackTrace()).limit(12).forEach(f -> err.println("    at " + f));
            err.flush();
            return 1;
        }
        out.print(result.summary().table());
        if (result.simulation().status() != null) {
            out.println();
            out.print(dev.gantry.cli.status.StatusView.table(dev.gantry.cli.status.StatusReport.of(
                    SimulatedStatus.snapshot(result.simulation().status()))));
        }
        try {
            if (summaryJson != null) {
                Files.writeString(summaryJson, result.summary().json());
            }
            if (report != null) {
                Files.writeString(report, result.html());
                out.println("  report             " + report);
            }
        } catch (IOException e) {
            err.println("gantry simulate: cannot write: " + e.getMessage());
            err.flush();
            return 2;
        }
        out.flush();
        err.flush();
        return result.violated() ? 1 : 0;
    }
}
