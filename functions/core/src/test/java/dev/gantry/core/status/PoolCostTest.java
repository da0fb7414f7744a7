package dev.gantry.core.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each pool's $/h, recomputed from its claims: split by capacity type and never negative (karpenter#2938). */
class PoolCostTest {
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private static NodeClaim claim(String name, String pool, String capacityType, double price) {
        return NodeClaim.launching(name, pool, null, List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                capacityType, price, NOW.minusSeconds(600)).launched("i-" + name, "m5.large", "us-east-1a", capacityType, price,
                NOW.minusSeconds(590));
    }

    @Test
    void aPoolsCostIsItsLiveClaimsPricesSplitByTheCapacityTypeValueTheyCarry() {
        Map<String, PoolCost> costs = PoolCost.of(List.of(claim("a", "web", "on-demand", 0.096), claim("b", "web", "spot", 0.03),
                claim("c", "web", "reserved", 0.0), claim("d", "batch", "spot", 0.05),
                claim("e", "web", "spot", 0.03).terminated(NOW, Duration.ofHours(1))));
        assertThat(costs.get("web").byCapacityType()).containsExactly(Map.entry("on-demand", 0.096), Map.entry("reserved", 0.0),
                Map.entry("spot", 0.03));
        assertThat(costs.get("web").perHour()).isCloseTo(0.126, within(1e-12));
        assertThat(costs.get("batch").perHour()).isEqualTo(0.05);
        assertThat(PoolCost.of("gone", List.of()).perHour()).isZero();
        assertThat(PoolCost.format(0.126)).isEqualTo("0.1260");
    }

    @Test
    void aPoolThatFillsAndEmptiesOverAndOverNeverGoesNegativeAndReadsZeroWhenEmpty() {
        // karpenter#2938: a running total (added at launch, subtracted at deletion) went negative on a pool that scaled up
        // and consolidated to empty again and again; a deletion seen twice, or priced differently than its launch, is
        // enough. Here a claim listed twice, a price that changed between launch and end, and claims that ended are all
        // in the input, and the cost is recomputed from it each time.
        SplittableRandom random = new SplittableRandom(2938);
        List<NodeClaim> live = new ArrayList<>();
        int n = 0;
        for (int cycle = 0; cycle < 200; cycle++) {
            int up = 1 + random.nextInt(8);
            for (int i = 0; i < up; i++) {
                live.add(claim("runner-" + n++, "gitlab-runners", random.nextBoolean() ? "spot" : "on-demand",
                        0.01 + random.nextDouble()));
            }
            List<NodeClaim> listed = new ArrayList<>(live);
            listed.add(live.getFirst()); // the same claim listed twice
            listed.add(claim("odd", "gitlab-runners", "spot", Double.NaN));
            listed.add(claim("refund", "gitlab-runners", "spot", -5));
            PoolCost cost = PoolCost.of("gitlab-runners", listed);
            assertThat(cost.perHour()).isCloseTo(live.stream().mapToDouble(NodeClaim::pricePerHour).sum(), within(1e-9));
            assertThat(cost.byCapacityType().values()).allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(0));
            List<NodeClaim> ended = live.stream().map(c -> c.terminated(NOW, Duration.ofHours(1))).toList();
            live.clear();
            assertThat(PoolCost.of("gitlab-runners", ended).perHour()).as("cycle %d, emptied", cycle).isZero();
        }
    }
}
