package dev.gantry.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.simulator.report.Progress;
import dev.gantry.simulator.scenario.ScenarioReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What Gantry itself costs to run, in the summary and the report (issue #27 §4). */
class SelfCostScenarioTest {
    @Test
    void anIdleClusterCostsCentsADayMostlyTheSweepAndTheEventSourcesLongPolls() {
        Simulation.Result r = new Simulation(ScenarioReader.read(Path.of("../../samples/scenarios/cost/idle.yaml")), v -> { },
                Progress.none()).run();
        JsonNode s = r.summary().tree().get("selfCost");
        assertThat(s.get("perDay").asDouble()).as("a quiet cluster costs cents a day").isBetween(0.01, 0.10);
        assertThat(s.at("/lambda/functions/sweep/invocations").asLong()).isEqualTo(1440);
        assertThat(s.at("/lambda/functions/sweep/memoryMb").asInt())
                .isEqualTo(DeploymentSettings.DEFAULT.function("sweep").memoryMb());
        assertThat(s.at("/sqs/idleLongPolls").asLong()).isEqualTo(3 * 5 * 86_400 / 20);
        assertThat(s.at("/eventbridge/awsServiceEventsByDetailType/Scheduled Event").asLong()).isEqualTo(1440);
        assertThat(s.at("/eventbridge/dollars").asDouble()).isZero();
        assertThat(s.at("/dynamodb/readUnits").asDouble()).isPositive();
        // Two m5.large on-demand replicas at the built-in catalogue's us-east-1 price, $0.096/h.
        assertThat(s.at("/karpenter/perDay").asDouble()).isEqualTo(4.608);
        assertThat(r.summary().table()).contains("Gantry's AWS bill");
        assertThat(r.html()).contains("What Gantry costs to run").contains("id=\"selfcost\"");
    }

    @Test
    void theDiurnalDayCostsLessThanKarpentersControllerAndCountsEveryFunction() {
        JsonNode s = SampleScenariosTest.run("diurnal").summary().tree().get("selfCost");
        assertThat(s.get("perDay").asDouble()).isPositive().isLessThan(s.at("/karpenter/perDay").asDouble());
        assertThat(s.at("/lambda/functions").properties()).extracting(e -> e.getKey())
                .contains("provisioner", "sweep", "termination", "webhook");
        assertThat(s.at("/sqs/queues/provisioning.fifo/byAction/SendMessage").asLong()).isPositive();
        assertThat(s.at("/dynamodb/writeUnits").asDouble()).isPositive();
    }

    @Test
    void theSummarySplitsCostByCapacityTypeAndThePartsAddUpToTheTotal() {
        JsonNode cost = SampleScenariosTest.run("spot-storm").summary().tree().get("cost");
        double parts = 0;
        for (var e : cost.get("byCapacityType").properties()) {
            parts += e.getValue().asDouble();
        }
        assertThat(cost.get("byCapacityType").has("spot")).isTrue();
        assertThat(parts).isCloseTo(cost.get("total").asDouble(), org.assertj.core.api.Assertions.within(0.001));
        assertThat(SampleScenariosTest.run("spot-storm").summary().table()).contains("cost by capacity");
    }
}
