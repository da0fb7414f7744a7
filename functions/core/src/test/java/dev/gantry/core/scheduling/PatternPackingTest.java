package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Packing by patterns (column generation) where bin-by-bin filling splits the pairs that fill a node: two pods of
 * 700m / 900Mi and three of 600m / 600Mi fill two 2-vCPU / 2 GiB nodes exactly (the two large together, the three small
 * together), but filling a node at a time puts a small pod beside each large one and needs a third node.
 */
class PatternPackingTest {
    private static final Resources ROOM = Resources.of(2000, 2000L << 20).with(Resources.PODS, 10);

    private static List<Resources> bag() {
        List<Resources> pods = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            pods.add(Resources.of(700, 900L << 20).with(Resources.PODS, 1));
        }
        for (int i = 0; i < 3; i++) {
            pods.add(Resources.of(600, 600L << 20).with(Resources.PODS, 1));
        }
        return pods;
    }

    @Test
    void patternsFillTheNodesThatBinByBinFillingSplits() {
        List<Resources> pods = bag();
        assertThat(ShapePacking.pack(pods, Function.identity(), anchor -> ROOM, Function.identity())).hasSize(3);
        var packed = PatternPacking.pack(pods, Function.identity(), List.of(ROOM), Function.identity(), t -> 1.0, 3.0);
        assertThat(packed).hasSize(2);
        assertThat(packed.stream().mapToInt(b -> b.pods().size()).sum()).isEqualTo(5);
        for (var b : packed) {
            assertThat(b.pods().stream().reduce(Resources.ZERO, Resources::plus).fitsIn(ROOM)).isTrue();
        }
    }

    /** A plan at the LP's optimum already (two nodes here) cannot be beaten: no rounds are spent on it. */
    @Test
    void noPackingIsSoughtWhenTheLpShowsThePlanToBeatCannotBeBeaten() {
        assertThat(PatternPacking.pack(bag(), Function.identity(), List.of(ROOM), Function.identity(), t -> 1.0, 2.0)).isNull();
    }

    /** One 2-vCPU / 2 GiB type (110 pod slots). */
    private static final List<InstanceType> TYPES = List.of(type("n1.large", 2, 2, 0.10));

    /**
     * Three pods of 900m / 500Mi and three of 200m / 1,100Mi fit three nodes, one of each a node. Both the packing by
     * shape (its repairs and exchanges included) and Karpenter's first fit put two cpu-heavy pods together, and then
     * the memory-heavy ones do not pair: four nodes.
     */
    private static List<Pod> pods(int large, int small, Map<String, String> labels, TopologySpread spread, String prefix) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < large + small; i++) { // the small ones first
            Pod.Builder b = i < small ? pod(prefix + i, 200, 1100, labels) : pod(prefix + i, 900, 500, labels);
            out.add((spread == null ? b : b.topologySpread(List.of(spread))).build());
        }
        return out;
    }

    @Test
    void theSchedulerPacksAGroupByPatternsOnceTheFreePodsArePlaced() {
        var in = scenario().pods(pods(3, 3, Map.of("app", "plain"), null, "p")).pool(pool("default").offer(TYPES)).input();
        SchedulingResult ours = Scheduler.solve(in);
        assertAllScheduled(ours);
        assertThat(ours.newClaims()).hasSize(3);
    }

    /** The repacking keeps each zone's pods in their zone, so the spread's counts (maxSkew 1) hold. */
    @Test
    void zonalSpreadPodsArePackedByPatternsWithinTheirZoneAndKeepTheSkew() {
        TopologySpread spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        // Placed round-robin over the three zones, the larger first: three of each shape in each.
        var in = scenario().pods(pods(9, 9, Map.of("app", "web"), spread, "web-")).pool(pool("default").offer(TYPES)).input();
        SchedulingResult ours = Scheduler.solve(in);
        assertAllScheduled(ours);
        assertThat(podsPerZone(ours).values()).containsExactly(6L, 6L, 6L);
        assertThat(ours.newClaims()).allSatisfy(c -> assertThat(c.requirements().get(WellKnownLabels.ZONE).singleValue()).isNotNull());
        assertThat(ours.newClaims()).hasSize(9);
    }

    /**
     * Bags of many shapes (40 of them, a few pods each) over types of 2 to 16 vCPU, the smallest cheapest per vCPU, with
     * the depth-first search of the pricing step held to 20 steps: it stalls before the LP's optimum, as 2,000 steps do
     * on the hundred classes of a pool's joint bag, and the exact pricing ({@link PatternPacking.Effort#gridTypes()})
     * goes on. Its plan is never dearer (the search's plan stays a candidate) and on some bags cheaper.
     */
    @Test
    void exactPricingNeverPacksDearerAndSometimesCheaper() {
        List<Resources> rooms = List.of(Resources.of(1930, 3300L << 20).with(Resources.PODS, 11),
                Resources.of(3920, 14_500L << 20).with(Resources.PODS, 17), Resources.of(7910, 29_000L << 20).with(Resources.PODS, 58),
                Resources.of(15_890, 58_000L << 20).with(Resources.PODS, 234));
        double[] price = {0.0168, 0.0437, 0.0874, 0.1748};
        PatternPacking.Effort searchOnly = new PatternPacking.Effort(60, 32, 20, 128, 0, 0, false);
        PatternPacking.Effort exact = new PatternPacking.Effort(60, 32, 20, 128, 8, 1 << 15, false);
        int cheaper = 0;
        for (int seed = 1; seed <= 12; seed++) {
            java.util.Random r = new java.util.Random(seed);
            List<Resources> pods = new ArrayList<>();
            for (int shape = 0; shape < 40; shape++) {
                Resources size = Resources.of(250L * (1 + r.nextInt(8)), 256L * (2 + r.nextInt(40)) << 20).with(Resources.PODS, 1);
                for (int n = 1 + r.nextInt(12); n > 0; n--) {
                    pods.add(size);
                }
            }
            double a = cost(PatternPacking.pack(pods, Function.identity(), p -> "", rooms, Function.identity(),
                    t -> price[rooms.indexOf(t)], (k, t) -> true, 1e9, searchOnly, List.of()), rooms, price);
            double b = cost(PatternPacking.pack(pods, Function.identity(), p -> "", rooms, Function.identity(),
                    t -> price[rooms.indexOf(t)], (k, t) -> true, 1e9, exact, List.of()), rooms, price);
            assertThat(b).as("seed %d", seed).isLessThanOrEqualTo(a + 1e-9);
            cheaper += b < a - 1e-9 ? 1 : 0;
        }
        assertThat(cheaper).isPositive();
    }

    private static double cost(List<ShapePacking.Bin<Resources, Resources>> bins, List<Resources> rooms, double[] price) {
        assertThat(bins).isNotNull();
        return bins.stream().mapToDouble(b -> price[rooms.indexOf(b.type())]).sum();
    }
}
