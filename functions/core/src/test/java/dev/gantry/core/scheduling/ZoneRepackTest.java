package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Pods with a zonal spread are placed by Karpenter's loop, which grows one claim per zone until only a type with
 * enough pod slots holds it all. Gantry packs each zone's pods again by shape, into the cheap small types.
 */
class ZoneRepackTest {
    /** Small nodes take 8 pods each; only the huge type has the slots for a whole zone's pods, at a much higher $/vCPU. */
    private static final List<InstanceType> TYPES = List.of(
            type("c5.large", 2, 4, 0.05, "amd64", Map.of(), 8),
            type("c5.48xlarge", 192, 384, 12.0, "amd64", Map.of(), 737));

    private static List<Pod> spread(String key, int n) {
        TopologySpread s = TopologySpread.of(1, key, true, selector("app", "web"));
        return IntStream.range(0, n).mapToObj(i -> pod("web-" + i, 250, 256, Map.of("app", "web")).topologySpread(List.of(s)).build()).toList();
    }

    @Test
    void zonalSpreadPodsArePackedIntoCheapNodesWithinTheirZone() {
        var in = scenario().pods(spread(WellKnownLabels.ZONE, 60)).pool(pool("default").offer(TYPES)).input();
        SchedulingResult greedy = Scheduler.solve(in, Strategy.KARPENTER_GREEDY);
        SchedulingResult ours = Scheduler.solve(in, Strategy.GANTRY);
        assertAllScheduled(ours);
        assertThat(greedy.newClaims()).extracting(c -> c.instanceType().name()).containsOnly("c5.48xlarge");
        assertThat(podsPerZone(ours).values()).containsExactly(20L, 20L, 20L);
        assertThat(ours.newClaims()).allSatisfy(c -> {
            assertThat(c.instanceType().name()).isEqualTo("c5.large");
            assertThat(c.requirements().get(WellKnownLabels.ZONE).singleValue()).isNotNull();
        });
        assertThat(ours.newClaims()).hasSize(9); // 20 pods a zone, 8 a node
        assertThat(ours.totalPricePerHour()).isLessThan(greedy.totalPricePerHour() / 10);
    }

    @Test
    void hostnameSpreadPodsKeepOnePerNode() {
        var in = scenario().pods(spread(WellKnownLabels.HOSTNAME, 12)).pool(pool("default").offer(TYPES)).input();
        SchedulingResult ours = Scheduler.solve(in, Strategy.GANTRY);
        assertAllScheduled(ours);
        assertThat(ours.newClaims()).hasSize(12).allSatisfy(c -> assertThat(c.pods()).hasSize(1));
    }
}
