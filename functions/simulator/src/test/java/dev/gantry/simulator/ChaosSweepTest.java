package dev.gantry.simulator;

import dev.gantry.simulator.observe.Invariants;
import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.aws.SimulatedQueue;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runners that print figures rather than assert (a sweep takes minutes), off in the default build:
 * <ul>
 *   <li>{@code -Dgantry.chaos.seeds=50} runs the chaos mix over that many seeds of each scenario in
 *       {@code -Dgantry.chaos.scenarios} (default quickstart, spot-storm, diurnal, labelled-batch: the last a NodePool
 *       with a custom requirement label and a CapacityBuffer on it) and prints the violations per
 *       invariant, per scenario and in all, with the first violations and the seeds they came from
 *       ({@code -Dgantry.chaos.intensity=3} multiplies every rate; {@code -Dgantry.chaos.from=26} starts at that seed, so
 *       two JVMs can share a sweep);</li>
 *   <li>{@code -Dgantry.crashpoints=spot-storm} crashes (and, separately, hangs and freezes) each function's 2nd invocation at each
 *       of its first {@code -Dgantry.crashpoints.calls=25} port calls, one run each, and prints what broke;</li>
 *   <li>{@code -Dgantry.figures=quickstart,spot-storm,diurnal,zero-nodes} prints p99 time-to-schedule and the
 *       functions' longest invocations with instant invocations and with AWS-like latency.</li>
 * </ul>
 * {@code mvn -B -o verify -pl functions/simulator -am -Dsurefire.failIfNoSpecifiedTests=false -Dtest=ChaosSweepTest -Dgantry.chaos.seeds=50}
 */
class ChaosSweepTest {
    private static Scenario scenario(String name) {
        return ScenarioReader.read(Path.of("../../samples/scenarios/" + name + ".yaml"));
    }

    @Test
    @EnabledIfSystemProperty(named = "gantry.chaos.seeds", matches = "\\d+")
    void chaosSweepPrintsViolationsPerInvariant() {
        int seeds = Integer.parseInt(System.getProperty("gantry.chaos.seeds"));
        String[] names = System.getProperty("gantry.chaos.scenarios", "quickstart,spot-storm,diurnal,labelled-batch").split(",");
        Map<String, Long> total = new LinkedHashMap<>();
        List<String> firsts = new ArrayList<>();
        double intensity = Double.parseDouble(System.getProperty("gantry.chaos.intensity", "1"));
        long from = Long.parseLong(System.getProperty("gantry.chaos.from", "1"));
        for (String name : names) {
            Map<String, Long> counts = new LinkedHashMap<>();
            Map<String, Long> extra = new LinkedHashMap<>();
            long wall = System.nanoTime();
            for (long seed = from; seed < from + seeds; seed++) {
                Scenario seeded = scenario(name).withSeed(seed);
                Scenario s = seeded.withFaults(seeded.faults().withChaos(intensity));
                Simulation.Result r = new Simulation(s, v -> { }, Progress.none()).run();
                r.simulation().invariants.counts().forEach((k, v) -> counts.merge(k, (long) v, Long::sum));
                Map<String, Integer> found = new LinkedHashMap<>();
                r.simulation().invariants.counts().forEach((k, v) -> {
                    if (v > 0) {
                        found.put(k, v);
                    }
                });
                System.out.printf("chaos %s seed %d: %s%n", name, seed, found.isEmpty() ? "clean" : found);
                JsonNode q = r.summary().tree().get("queues");
                extra.merge("messagesLost", q.get("messagesLost").asLong(), Long::sum);
                extra.merge("deadLetters", q.get("deadLetters").asLong(), Long::sum);
                for (SimulatedQueue queue : List.of(r.simulation().provisioningQueue, r.simulation().interruptionQueue,
                        r.simulation().terminationQueue)) {
                    for (SimulatedQueue.DeadLetter d : queue.deadLetterTrace()) {
                        System.out.printf("dead letter %s seed %d %s message %d: %s%n", name, seed, queue.name(), d.id(), d.body());
                        d.receives().forEach(x -> System.out.println("    receive " + x));
                    }
                }
                extra.merge("pendingAtEnd", r.summary().tree().get("pods").get("pendingAtEnd").asLong(), Long::sum);
                extra.merge("wastedLaunches", r.summary().tree().get("nodes").get("wastedLaunches").asLong(), Long::sum);
                extra.merge("evictionsWaitedForCapacity", r.summary().tree().get("evictionsWaitedForCapacity").asLong(), Long::sum);
                r.summary().tree().get("runtime").get("functions").properties().forEach(e ->
                        extra.merge("over70%:" + e.getKey(), e.getValue().get("over70PercentOfTimeout").asLong(), Long::sum));
                Simulation sim = r.simulation();
                int pending = r.summary().tree().get("pods").get("pendingAtEnd").asInt();
                if (pending > 0 && firsts.size() < 40) {
                    firsts.add(name + " seed " + seed + ": " + pending + " pods pending at the end");
                }
                extra.merge("terminatedWithPods", sim.cloud.terminatedWithPods(), Long::sum);
                for (String x : sim.cloud.terminatedWithPodsExamples()) {
                    if (firsts.size() < 40) {
                        firsts.add(name + " seed " + seed + ": terminated with pods: " + x);
                    }
                }
                extra.merge("killedInvocations", sim.eventSources.killedInvocations(), Long::sum);
                for (Recorder.Entry e : sim.recorder.timeline()) {
                    if (e.kind().equals("deadline") && firsts.size() < 40) {
                        firsts.add(name + " seed " + seed + " t=" + e.t() + ": " + e.text());
                    }
                }
                extra.merge("spotReclaimedBeforeDrained", sim.recorder.timeline().stream().filter(e -> e.kind().equals("deadline")).count(),
                        Long::sum);
                java.time.Instant end = sim.clock.instant();
                for (dev.gantry.core.lifecycle.NodeClaim c : sim.store.list(end)) {
                    boolean stuckDeleting = c.state().isDeleting() && c.state() != dev.gantry.core.lifecycle.NodeClaimState.Terminated
                            && c.deletionRequestedAt() != null && c.deletionRequestedAt().plus(java.time.Duration.ofMinutes(20)).isBefore(end);
                    boolean stuckLaunching = c.state() == dev.gantry.core.lifecycle.NodeClaimState.Launching
                            && c.createdAt().plus(java.time.Duration.ofMinutes(15)).isBefore(end);
                    if (stuckDeleting || stuckLaunching) {
                        extra.merge("stuckClaimsAtEnd", 1L, Long::sum);
                        if (firsts.size() < 40) {
                            firsts.add(name + " seed " + seed + ": stuck claim " + c.name() + " " + c.state() + " since "
                                    + (stuckDeleting ? c.deletionRequestedAt() : c.createdAt()) + " reason " + c.deletionReason());
                        }
                    }
                }
                for (Invariants.Violation v : r.simulation().invariants.kept()) {
                    if (firsts.size() < 40) {
                        firsts.add(name + " seed " + seed + ": " + v);
                    }
                }
            }
            counts.forEach((k, v) -> total.merge(k, v, Long::sum));
            System.out.printf("chaos %-12s %d seeds in %.0f s: %s %s%n", name, seeds, (System.nanoTime() - wall) / 1e9, counts, extra);
        }
        System.out.println("chaos total: " + total);
        firsts.forEach(f -> System.out.println("  " + f));
    }

    @Test
    @EnabledIfSystemProperty(named = "gantry.figures", matches = ".+")
    void figuresWithAndWithoutLatency() {
        for (String name : System.getProperty("gantry.figures").split(",")) {
            for (Scenario.LatencySpec l : List.of(Scenario.LatencySpec.NONE, Scenario.LatencySpec.AWS)) {
                Simulation.Result r = new Simulation(scenario(name).withLatency(l), v -> { }, Progress.none()).run();
                JsonNode t = r.summary().tree();
                StringBuilder fn = new StringBuilder();
                t.get("runtime").get("functions").properties().forEach(e -> fn.append(' ').append(e.getKey()).append('=')
                        .append(e.getValue().get("longestSeconds")).append("s/")
                        .append(Math.round(e.getValue().get("longestShareOfTimeout").asDouble() * 100)).append('%'));
                System.out.printf("figures %-12s latency=%-5s p99 tts %6.1f s  p50 %5.1f s  invariants %d  pending %d  wall %.1f s %s%n",
                        name, l.scale() > 0, t.get("pods").get("timeToScheduleSeconds").get("p99").asDouble(),
                        t.get("pods").get("timeToScheduleSeconds").get("p50").asDouble(), r.simulation().invariants.total(),
                        t.get("pods").get("pendingAtEnd").asInt(), t.get("wallSeconds").asDouble(), fn);
            }
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "gantry.crashpoints", matches = ".+")
    void crashAtEveryCallOfEveryHandler() {
        int calls = Integer.parseInt(System.getProperty("gantry.crashpoints.calls", "25"));
        for (String name : System.getProperty("gantry.crashpoints").split(",")) {
            Scenario base = scenario(name);
            int runs = 0;
            List<String> broken = new ArrayList<>();
            for (String function : List.of("provisioner", "interruption", "termination", "sweep")) {
                for (String what : List.of("crash", "hang", "freeze")) {
                    for (int call = 1; call <= calls; call++) {
                        var plan = dev.gantry.simulator.faults.FaultPlan.NONE.withAt(
                                List.of(new dev.gantry.simulator.faults.FaultPlan.Target(function, 2, call, what)));
                        Scenario s = base.withFaults(Scenario.FaultSpec.of(plan));
                        Simulation sim = new Simulation(s, v -> { }, Progress.none()).run().simulation();
                        runs++;
                        if (!sim.faults.injected().containsKey(what)) {
                            break; // the invocation made fewer calls
                        }
                        List<String> why = new ArrayList<>();
                        sim.invariants.counts().forEach((k, v) -> {
                            if (v > 0) {
                                why.add(k + "=" + v);
                            }
                        });
                        if (sim.pendingPods() > 0) {
                            why.add("pendingAtEnd=" + sim.pendingPods());
                        }
                        if (sim.cloud.terminatedWithPods() > 0) {
                            why.add("terminatedWithPods=" + sim.cloud.terminatedWithPods());
                        }
                        long reclaimed = sim.recorder.timeline().stream().filter(e -> e.kind().equals("deadline")).count();
                        if (reclaimed > 0) {
                            why.add("spotReclaimedBeforeDrained=" + reclaimed);
                        }
                        if (sim.messagesLost() > 0) {
                            why.add("messagesLost=" + sim.messagesLost());
                        }
                        if (!why.isEmpty()) {
                            broken.add(function + " invocation 2 " + what + " at call " + call + ": " + why);
                        }
                    }
                }
            }
            System.out.println("crashpoints " + name + ": " + runs + " runs, " + broken.size() + " with findings");
            broken.forEach(b -> System.out.println("  " + b));
        }
    }
}
