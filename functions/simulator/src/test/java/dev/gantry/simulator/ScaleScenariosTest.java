package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The scale scenarios under the deployed settings (issue #11 §7), each printing its summary. The two bursts (about
 * 10-20 s each) and the interruption storm (35-55 s) run in the default build; the expiry (80-150 s) needs
 * {@code -Dgantry.scale=true}. Besides the invariants, every function's longest invocation must end within 70% of its
 * timeout, and none may time out.
 * <p>
 * <b>Open finding, not a pass:</b> the expiry scenario fails podsNotPlacedInTime. It asks for 10,000 pods at once
 * (500 nodes), and one provisioner launches about 2.7 nodes a second (8 CreateFleet calls at a time, one instance each,
 * within 70% of its 60 s timeout): the last of them launch some 185 s in, past the 151 s a pod may wait. Its sweep also
 * used 72% of its timeout once, starting 500 expiry drains in one run. Batching identical launches into one CreateFleet
 * of many instances (as Karpenter does) is what would lift the launch rate; it is not done.
 */
class ScaleScenariosTest {
    private static Simulation.Result run(String name) {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/scale/" + name + ".yaml")),
                v -> { }, Progress.none()).run();
        System.out.println(r.summary().table());
        return r;
    }

    private static void invariantsHold(Simulation.Result r) {
        assertThat(r.simulation().invariants.kept()).isEmpty();
        assertThat(r.simulation().invariants.total()).isZero();
        // Every invocation ends with at least 30% of its timeout to spare (#11 §7).
        r.summary().tree().get("runtime").get("functions").properties().forEach(e -> {
            assertThat(e.getValue().get("longestShareOfTimeout").asDouble()).as(e.getKey()).isLessThanOrEqualTo(0.7);
            assertThat(e.getValue().get("timedOut").asInt()).as(e.getKey()).isZero();
        });
    }

    @Test
    void aFiveThousandPodBurstIsScheduledWithinOneBootAndOneBatch() {
        Simulation.Result r = run("burst");
        invariantsHold(r);
        JsonNode pods = r.summary().tree().get("pods");
        assertThat(pods.get("scheduled").asInt()).isEqualTo(5000);
        assertThat(pods.get("pendingAtEnd").asInt()).isZero();
        assertThat(pods.get("timeToScheduleSeconds").get("p99").asDouble()).isLessThan(Placement.allowed().toSeconds());
    }

    @Test
    void aThousandSpotNodesDrainAndReplaceAtLeast95PercentOfAHundredInterruptionsBeforeTheirDeadline() {
        Simulation.Result r = run("spot-interruptions");
        invariantsHold(r);
        JsonNode s = r.summary().tree();
        assertThat(s.get("nodes").get("peak").asInt()).isGreaterThanOrEqualTo(1000);
        assertThat(s.get("pods").get("created").asInt()).isGreaterThanOrEqualTo(20_000);
        JsonNode i = s.get("interruptions");
        assertThat(i.get("reclaimed").asInt()).isEqualTo(100);
        assertThat(i.get("drainedBeforeDeadline").asInt()).isGreaterThanOrEqualTo(95);
        assertThat(i.get("replacementReadyBeforeDeadline").asInt()).isGreaterThanOrEqualTo(95);
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
    }

    @Test
    void aBurstMixingRequiredPodAntiAffinityIntoTheBatchIsScheduledAsFast() {
        Simulation.Result r = run("burst-anti-affinity");
        invariantsHold(r);
        JsonNode pods = r.summary().tree().get("pods");
        assertThat(pods.get("scheduled").asInt()).isEqualTo(5300);
        assertThat(pods.get("timeToScheduleSeconds").get("p99").asDouble()).isLessThan(Placement.allowed().toSeconds());
        assertThat(r.summary().tree().get("nodes").get("peak").asInt()).isGreaterThanOrEqualTo(300); // one spread pod per node
    }

    @Test
    @EnabledIfSystemProperty(named = "gantry.scale", matches = "true")
    void fiveHundredNodesExpiringAtOnceAreAllReplacedWithinTheirGracePeriod() {
        Simulation.Result r = run("expiry");
        invariantsHold(r);
        JsonNode s = r.summary().tree();
        assertThat(s.get("nodes").get("terminatedByReason").get("expiry").asInt()).isGreaterThanOrEqualTo(500);
        assertThat(s.get("pods").get("pendingAtEnd").asInt()).isZero();
        assertThat(s.get("nodes").get("atEnd").asInt()).isEqualTo(500);
    }
}
