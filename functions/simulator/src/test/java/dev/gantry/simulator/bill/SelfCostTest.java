package dev.gantry.simulator.bill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.config.deployment.DeploymentSettings;
import dev.gantry.config.deployment.FunctionSettings;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.simulator.runtime.FunctionStats;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Gantry's own bill: the deployed memory, AWS's billing rules, and the dated price table (issue #27 §4). */
class SelfCostTest {
    private static final DeploymentSettings DEPLOYED = DeploymentSettings.DEFAULT;
    private static final SelfCost.Controller KARPENTER = new SelfCost.Controller(2, "m5.large", 0.096);
    private static final Duration DAY = Duration.ofDays(1);

    private static Map<String, FunctionStats> sweeps(long invocations, long millisEach) {
        FunctionStats s = new FunctionStats();
        s.invocations = invocations;
        s.billedMillis = invocations * millisEach;
        Map<String, FunctionStats> m = new LinkedHashMap<>();
        m.put("sweep", s);
        return m;
    }

    private static SelfUsage threeIdleQueues() {
        SelfUsage u = new SelfUsage();
        u.sqs("provisioning.fifo", true, "SendMessage", 0);
        u.sqs("interruption", false, "SendMessage", 0);
        u.sqs("termination", false, "SendMessage", 0);
        return u;
    }

    @Test
    void theUnitPriceTableNamesItsRegionDateAndTheDeployedArchitecture() {
        UnitPrices p = UnitPrices.builtIn();
        assertThat(p.region()).isEqualTo("us-east-1");
        assertThat(p.currency()).isEqualTo("USD");
        assertThat(p.asOf()).isAfter(LocalDate.of(2024, 11, 1)); // after DynamoDB's on-demand price cut
        assertThat(p.lambdaArchitecture()).isEqualTo("arm64");
        assertThat(p.lambdaGbSecond()).isEqualTo(0.0000133334);
        assertThat(p.sqsFifoRequest()).isGreaterThan(p.sqsStandardRequest());
        assertThat(p.sqsChunkBytes()).isEqualTo(65_536);
    }

    @Test
    void gbSecondsAreTheBilledDurationTimesTheDeployedMemoryNotACopyOfIt() {
        ObjectNode deployed = SelfCost.of(UnitPrices.builtIn(), DEPLOYED, sweeps(10, 1000), new SelfUsage(), DAY, KARPENTER).json();
        assertThat(deployed.at("/lambda/functions/sweep/memoryMb").asInt()).isEqualTo(DEPLOYED.function("sweep").memoryMb());
        assertThat(deployed.at("/lambda/gbSeconds").asDouble())
                .isEqualTo(10 * DEPLOYED.function("sweep").memoryMb() / 1024.0);
        FunctionSettings bigger = new FunctionSettings("sweep", 4096, Duration.ofSeconds(50), 1);
        ObjectNode resized = SelfCost.of(UnitPrices.builtIn(), DEPLOYED.with(bigger), sweeps(10, 1000), new SelfUsage(), DAY,
                KARPENTER).json();
        assertThat(resized.at("/lambda/gbSeconds").asDouble()).isEqualTo(40.0);
    }

    @Test
    void eachIdleEventSourceLongPollsItsQueueFiveTimesEveryTwentySecondsAndFifoCostsMore() {
        ObjectNode s = SelfCost.of(UnitPrices.builtIn(), DEPLOYED, Map.of(), threeIdleQueues(), DAY, KARPENTER).json();
        assertThat(s.at("/sqs/queues/termination/requests").asLong()).isEqualTo(5 * 86_400 / 20);
        assertThat(s.at("/sqs/idleLongPolls").asLong()).isEqualTo(3 * 21_600);
        assertThat(s.at("/sqs/dollars").asDouble()).isCloseTo(21_600 * 0.5e-6 + 2 * 21_600 * 0.4e-6, within(1e-6));
    }

    @Test
    void aQuietDayCostsCentsBesideKarpentersTwoReplicas() {
        // A sweep a minute for a day at 1.5 s each, the idle long polls, nothing else.
        SelfUsage u = threeIdleQueues();
        u.awsEvent("Scheduled Event");
        ObjectNode s = SelfCost.of(UnitPrices.builtIn(), DEPLOYED, sweeps(1440, 1500), u, DAY, KARPENTER).json();
        assertThat(s.get("perDay").asDouble()).isBetween(0.01, 0.10);
        assertThat(s.at("/eventbridge/dollars").asDouble()).as("AWS service events are free").isZero();
        assertThat(s.at("/karpenter/perDay").asDouble()).isCloseTo(4.608, within(1e-9));
    }

    @Test
    void perDayScalesARunToADayAtItsRate() {
        ObjectNode hour = SelfCost.of(UnitPrices.builtIn(), DEPLOYED, sweeps(60, 1000), new SelfUsage(), Duration.ofHours(1),
                KARPENTER).json();
        assertThat(hour.get("perDay").asDouble()).isCloseTo(hour.get("total").asDouble() * 24, within(1e-4));
    }

    @Test
    void dynamoBillsAWriteUnitPerStartedKilobyteAndAReadUnitPerStartedFourKilobytes() {
        NodeClaim small = claim(List.of());
        NodeClaim full = claim(IntStream.range(0, 100).mapToObj(i -> "default/web-7d4b9c8f6d-" + i).toList());
        assertThat(DynamoUnits.write(DynamoUnits.bytes(small))).isEqualTo(1);
        assertThat(DynamoUnits.bytes(full)).isGreaterThan(3_000);
        assertThat(DynamoUnits.write(DynamoUnits.bytes(full))).isEqualTo(Math.ceil(DynamoUnits.bytes(full) / 1024.0));
        assertThat(DynamoUnits.read(0)).as("a read that finds nothing").isEqualTo(1);
        assertThat(DynamoUnits.read(4097)).isEqualTo(2);
    }

    private static NodeClaim claim(List<String> pods) {
        return new NodeClaim("c-1", 1, "default", null, NodeClaimState.Launched, List.of(), List.of("m5.large"), pods,
                null, null, null, null, 0.096, null, null, null, null, null, null, null, null, null, 0, null, null, null,
                null, false, null, null, null, null);
    }
}
