package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import dev.gantry.simulator.world.kube.WebhookEndpoint;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue #27 §3, the webhook under a burst: 20,000 pods created within one minute ({@code scale/webhook-burst.yaml}),
 * with the webhook's Function URL at its deployed reserved concurrency, cold starts and 429s ({@link WebhookEndpoint}).
 * No pod may be refused or held past the webhook's timeout, the provisioner runs a bounded number of times (its
 * reserved concurrency is 1 and the FIFO group serialises it), and every pod is scheduled within the time the scale
 * scenarios allow. What the API server does with a 429 or a timeout, given {@code failurePolicy: Ignore} and
 * {@code timeoutSeconds: 2}: it admits the pod (Kubernetes, "Dynamic Admission Control", failurePolicy and timeouts).
 * Gated (about 2 minutes at load 20): {@code -Dgantry.scale=true}. Figures in {@code samples/scenarios/scale/README.md}:
 * 1,135 of 41,205 requests answered, 40,070 throttled, 10 cold starts, none slowed, p99 25 ms, 13 provisioning runs,
 * time to schedule p99 92 s.
 */
@EnabledIfSystemProperty(named = "gantry.scale", matches = "true")
class WebhookBurstScenarioTest {
    @Test
    void twentyThousandPodsInAMinuteAreNeitherSlowedNorRefusedAndTheProvisionerRunsABoundedNumberOfTimes() {
        long t0 = System.nanoTime();
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/scale/webhook-burst.yaml")),
                v -> { }, Progress.none()).run();
        double wall = (System.nanoTime() - t0) / 1e9;
        System.out.println(r.summary().table());
        JsonNode s = r.summary().tree();
        WebhookEndpoint.Stats w = r.simulation().webhook.endpointStats();
        JsonNode pods = s.get("pods");
        JsonNode q = s.get("queues");
        System.out.printf(Locale.ROOT, "webhook burst: %d requests answered, %d throttled (429, admitted by the API server), %d cold"
                        + " starts, %d slowed past the 2 s timeout; latency the API server saw p50 %d ms, p99 %d ms, max %d ms;"
                        + " hints sent %d (%d deduplicated by the queue); provisioning runs %d (%d failed);"
                        + " pods created %d, scheduled %d, time to schedule p50 %.0f s, p99 %.0f s, max %.0f s;"
                        + " SQS requests %d; wall %.0f s, load average %.2f%n",
                w.answered(), w.throttled(), w.coldStarts(), w.slowed(), w.p50Millis(), w.p99Millis(), w.maxMillis(),
                q.get("hintsSent").asLong(), q.get("hintsDeduplicated").asLong(), q.get("provisioningRuns").asInt(),
                q.get("provisioningRunsFailed").asInt(), pods.get("created").asInt(), pods.get("scheduled").asInt(),
                pods.at("/timeToScheduleSeconds/p50").asDouble(), pods.at("/timeToScheduleSeconds/p99").asDouble(),
                pods.at("/timeToScheduleSeconds/max").asDouble(), s.at("/selfCost/sqs/requests").asLong(), wall,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        assertThat(r.simulation().invariants.kept()).isEmpty();
        assertThat(w.slowed()).as("requests the API server waited the whole timeout for").isZero();
        assertThat(w.throttled()).as("the burst does reach the reserved concurrency").isPositive();
        assertThat(pods.get("created").asInt()).as("no pod refused").isGreaterThanOrEqualTo(20_100);
        assertThat(pods.get("pendingAtEnd").asInt()).isZero();
        assertThat(pods.at("/timeToScheduleSeconds/p99").asDouble()).isLessThan(Simulation.PLACED_IN_TIME.total().toSeconds());
        // Bounded: at most one run per hint bucket (1 s) while pods arrive, not one per pod.
        assertThat(q.get("provisioningRuns").asInt()).isLessThan(200);
    }
}
