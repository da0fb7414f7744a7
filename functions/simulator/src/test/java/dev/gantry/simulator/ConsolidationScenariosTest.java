package dev.gantry.simulator;

import dev.gantry.simulator.observe.Recorder;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.Scenario;
import dev.gantry.simulator.scenario.ScenarioReader;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The consolidation scenarios: each saves what it should, within its churn, with every invariant held. */
class ConsolidationScenariosTest {
    // Each run's HTML report goes to the build directory (the pom passes gantry.reports.dir; "target" from an IDE).

    private static JsonNode summary(String name) {
        Simulation.Result r = SampleScenariosTest.run(name);
        System.out.println(name + "\n" + r.summary().table());
        r.simulation().invariants.kept().forEach(v -> System.out.println("  violation: " + v));
        try {
            java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("gantry.reports.dir", "target"));
            java.nio.file.Files.createDirectories(dir);
            java.nio.file.Files.writeString(dir.resolve("consolidation-" + name.replace('/', '-') + ".html"), r.html());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return r.summary().tree();
    }

    /**
     * Wasted launches a consolidation scenario may have (nodes that never ran a pod), none unless named, and none is
     * named now: diurnal-balanced had up to 8 (launches that left room for consolidatable nodes' pods, 7 when this was
     * written), as diurnal had ({@link SampleScenariosTest#WASTED_CEILING}), and has had none since ff9875cb.
     */
    private static final java.util.Map<String, Integer> WASTED_CEILING = java.util.Map.of();

    private static JsonNode consolidation(String name) {
        JsonNode s = summary("consolidation/" + name);
        assertThat(s.get("nodes").get("wastedLaunches").asInt()).as(name).isLessThanOrEqualTo(WASTED_CEILING.getOrDefault(name, 0));
        // Replaced before eviction (issue #21): a consolidated node's pods have room before they are evicted.
        assertThat(s.get("evictionsWaitedForCapacity").asInt()).as(name).isZero();
        return s;
    }

    @Test
    void theDiurnalDayConsolidatesWithEveryPodPlacedAndNoPdbViolated() {
        JsonNode s = summary("diurnal");
        System.out.println("diurnal over bound: " + s.get("cost").get("overLowerBound"));
        assertThat(s.get("consolidation").get("handed").asInt()).isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("cost").get("overLowerBound").asDouble()).as("1.63 before consolidation").isLessThan(1.55);
        // The packing bound (whole pods, DaemonSets on every node) is a bound: above the fractional one, below the day.
        double packing = s.get("cost").get("packingBoundTotal").asDouble();
        assertThat(packing).isGreaterThan(s.get("cost").get("lowerBoundTotal").asDouble()).isLessThan(s.get("cost").get("total").asDouble());
        assertThat(s.get("cost").get("overPackingBound").asDouble())
                .as("1.18 before launches left room for small consolidatable nodes' pods (issue #14's 1.15)").isLessThanOrEqualTo(1.15);
        // Churn on this one seed moves with any change of trajectory: 6.83 restarts/h, then 7.21; #21's execution fixes
        // alone 9.25 (over seeds 1-6 a mean of 6.99, 4.33-8.46, where 6.87 before), its launch-before-eviction alone 8.08
        // (43 commands executed where 38, the day $0.16 cheaper).
        assertThat(s.get("consolidation").get("podRestartsPerHour").asDouble()).as("churn").isLessThan(10);
    }

    @Test
    void aScaleDownAfterABurstGivesBackTheNodes() {
        JsonNode s = consolidation("scale-down-after-burst");
        assertThat(s.get("consolidation").get("nodesRemoved").asInt()).isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("invariants").properties()).allSatisfy(e -> assertThat(e.getValue().asInt()).as(e.getKey()).isZero());
    }

    @Test
    void aScheduledBudgetHoldsUnderutilizedDisruptionUntilItsWindowCloses() {
        Simulation sim = SampleScenariosTest.run("consolidation/scheduled-budget").simulation();
        consolidation("scheduled-budget");
        var underutilized = sim.recorder.timeline().stream().filter(e -> e.kind().equals("terminate") && e.text().contains("underutilized"))
                .map(Recorder.Entry::t).toList();
        assertThat(underutilized).isNotEmpty().allSatisfy(t -> assertThat(t % 3600).as("seconds past the hour").isGreaterThanOrEqualTo(40 * 60));
    }

    @Test
    void nodesHoldingDoNotDisruptPodsStay() {
        Simulation sim = SampleScenariosTest.run("consolidation/do-not-disrupt").simulation();
        JsonNode s = consolidation("do-not-disrupt");
        assertThat(s.get("invariants").get("doNotDisruptEvicted").asInt()).isZero();
        assertThat(sim.recorder.timeline()).anySatisfy(e -> assertThat(e.text()).contains("karpenter.sh/do-not-disrupt"));
    }

    @Test
    void aPdbThatAllowsNoEvictionBlocksItsNodes() {
        Simulation sim = SampleScenariosTest.run("consolidation/pdb-blocks").simulation();
        JsonNode s = consolidation("pdb-blocks");
        assertThat(s.get("invariants").get("pdbViolations").asInt()).isZero();
        assertThat(sim.recorder.timeline()).anySatisfy(e -> {
            assertThat(e.kind()).isEqualTo("kept");
            assertThat(e.text()).contains("DisruptionBlocked").contains("prevents pod evictions");
        });
    }

    @Test
    void spotToSpotReplacesSpotNodesWithCheaperSpotNodes() {
        JsonNode s = consolidation("spot-to-spot");
        assertThat(s.get("consolidation").get("handed").asInt()).isPositive();
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    @Test
    void balancedDisruptsNoMoreThanWhenEmptyOrUnderutilizedOnTheSameDay() {
        JsonNode balanced = consolidation("diurnal-balanced");
        JsonNode full = summary("diurnal");
        assertThat(balanced.get("consolidation").get("disruptionsPerHour").asDouble())
                .isLessThanOrEqualTo(full.get("consolidation").get("disruptionsPerHour").asDouble());
        assertThat(balanced.get("cost").get("total").asDouble()).isGreaterThanOrEqualTo(full.get("cost").get("total").asDouble() * 0.9);
    }

    @Test
    void eachCommandIsExecutedOnceWhenTheTerminationQueueDeliversItsMessagesTwice() {
        // Regression (#21): "executed" counted each delivery that handed the command over. Half the receives hand a
        // message to a second consumer as well, so steps of one command overlap; seed 7's one command was counted 3 times
        // (seed 6's twice).
        Scenario s = ScenarioReader.read(java.nio.file.Path.of("../../samples/scenarios/consolidation/scale-down-after-burst.yaml"))
                .withSeed(7);
        var plan = dev.gantry.simulator.faults.FaultPlan.NONE.withSqs(new dev.gantry.simulator.faults.FaultPlan.Sqs(0.5));
        Simulation sim = new Simulation(s.withFaults(Scenario.FaultSpec.of(plan)), v -> { }, Progress.none());
        sim.run();
        List<String> handed = sim.recorder.timeline().stream().filter(e -> e.kind().equals("consolidation")
                && e.text().startsWith("handed: command ")).map(e -> e.text().split(" ")[2].replace(":", "")).toList();
        System.out.println("duplicate deliveries " + sim.terminationQueue.duplicateDeliveries() + ", handed " + handed);

        assertThat(sim.terminationQueue.duplicateDeliveries()).isPositive();
        assertThat(handed).isNotEmpty();
        assertThat(sim.recorder.consolidation().get("handed")).isEqualTo(new java.util.HashSet<>(handed).size());
        assertThat(sim.invariants.counts().get("staleDisruptedTaints")).isZero();
    }
}
