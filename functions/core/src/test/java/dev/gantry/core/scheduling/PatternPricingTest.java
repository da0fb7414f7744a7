package dev.gantry.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The pattern packing's pricing by the knapsack LP: valid bounds on every type, and the LP it lets converge. */
class PatternPricingTest {
    /**
     * On random bags over several rooms, with only some types' LPs solved (the searched ones): every type's bound is at
     * least its best pattern, found by exhaustive search, so Farley's bound over them is a true bound; so is the bound of
     * a type whose LP's simplex stopped short of the optimum, its value too low. It fails if the Lagrangian bound left
     * out the room's own worth at the borrowed prices, or if a type's bound were its LP's reported value.
     */
    @Test
    void everyTypesBoundIsAtLeastItsBestPattern() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            int m = 1 + random.nextInt(5);
            List<long[]> rooms = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                rooms.add(new long[]{1000 + random.nextInt(6000), 1000 + random.nextInt(16_000), 4 + random.nextInt(20)});
            }
            long[][] size = new long[m][];
            double[] count = new double[m];
            for (int i = 0; i < m; i++) {
                size[i] = new long[]{250L * (1 + random.nextInt(8)), 256L * (1 + random.nextInt(16)), 1};
                count[i] = 1 + random.nextInt(8);
            }
            double[][] worth = new double[rooms.size()][m];
            for (int i = 0; i < m; i++) {
                double v = random.nextInt(5) == 0 ? 0 : random.nextDouble();
                for (double[] w : worth) {
                    w[i] = v;
                }
            }
            PatternKnapsack.Relaxation[] relaxed = new PatternKnapsack.Relaxation[rooms.size()];
            relaxed[0] = PatternKnapsack.relax(size, count, worth[0], rooms.get(0));
            relaxed[2] = PatternKnapsack.relax(size, count, worth[2], rooms.get(2));
            // What a simplex stopped short reports (LowerBound.Simplex: all amounts zero, a value below the optimum).
            relaxed[3] = new PatternKnapsack.Relaxation(1e-9, new double[3], new double[m]);
            double[] bound = PatternPricing.bounds(size, count, worth, rooms, relaxed);
            for (int t = 0; t < rooms.size(); t++) {
                double best = PatternKnapsack.value(worth[t], PatternKnapsack.best(size, count, worth[t], rooms.get(t), Integer.MAX_VALUE));
                assertThat(bound[t]).as("trial %d type %d", trial, t).isGreaterThanOrEqualTo(best - 1e-9);
            }
        }
    }

    /**
     * 6,000 pods of the benchmark's 30 generic shapes (cpu 100m to 1.5 vCPU, memory 100Mi to 4Gi) over 48 types (three
     * families, eight sizes, two architectures): the search alone stalls where the types its greedy dives rank first have
     * no pattern that pays, short of the LP's optimum; priced by the LP, the packing is cheaper on every seed.
     */
    @Test
    void theLpPricedPackingIsCheaperWhereTheSearchStalls() {
        List<Resources> rooms = new ArrayList<>();
        List<Double> prices = new ArrayList<>();
        int[] vcpus = {2, 4, 8, 16, 32, 48, 64, 96};
        int[] gibPerVcpu = {2, 4, 8};
        double[] perVcpu = {0.0425, 0.048, 0.063};
        for (int arch = 0; arch < 2; arch++) {
            for (int f = 0; f < 3; f++) {
                for (int v : vcpus) {
                    long cpu = v * 1000L - 70 - 10L * v;
                    long mem = (long) (v * gibPerVcpu[f] * 1024 * 0.92) - 255;
                    rooms.add(Resources.of(cpu, mem << 20).with(Resources.PODS, v <= 2 ? 29 : v <= 4 ? 58 : 234));
                    prices.add(v * perVcpu[f] * (arch == 0 ? 1 : 0.8) * (1 + 0.01 * ((v + f) % 3)));
                }
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int t = 0; t < rooms.size(); t++) {
            order.add(t);
        }
        order.sort((a, b) -> Double.compare(prices.get(a), prices.get(b)));
        List<Resources> types = order.stream().map(rooms::get).toList();
        double[] price = order.stream().mapToDouble(prices::get).toArray();
        long[] cpu = {100, 250, 500, 1000, 1500};
        long[] mem = {100, 256, 512, 1024, 2048, 4096};
        for (int seed = 1; seed <= 3; seed++) {
            Random r = new Random(seed);
            List<Resources> pods = new ArrayList<>();
            for (int n = 0; n < 6000; n++) {
                pods.add(Resources.of(cpu[r.nextInt(5)], mem[r.nextInt(6)] << 20).with(Resources.PODS, 1));
            }
            double wide = cost(PatternPacking.pack(pods, Function.identity(), p -> "", types, Function.identity(),
                    t -> price[types.indexOf(t)], (k, t) -> true, 1e9, PatternPacking.WIDE, List.of()), types, price);
            double lp = cost(PatternPacking.pack(pods, Function.identity(), p -> "", types, Function.identity(),
                    t -> price[types.indexOf(t)], (k, t) -> true, 1e9, PatternPacking.LP, List.of()), types, price);
            System.out.printf("seed %d wide %.4f lp %.4f%n", seed, wide, lp);
            assertThat(lp).as("seed %d", seed).isLessThan(wide);
        }
    }

    /** The LP effort's rounds stop once its master gained under 0.05% over the last five; not while it still gains. */
    @Test
    void theRoundsStopOnceTheMasterTailsOff() {
        List<Double> slow = new ArrayList<>();
        boolean stopped = false;
        for (int round = 0; round < 6; round++) {
            stopped = PatternPricing.tailedOff(slow, 100 - 0.001 * round);
        }
        assertThat(stopped).isTrue();
        List<Double> gaining = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            stopped = PatternPricing.tailedOff(gaining, 100 - 0.1 * round);
        }
        assertThat(stopped).isFalse();
        assertThat(PatternPricing.tailedOff(new ArrayList<>(), 100)).isFalse();
    }

    private static double cost(List<ShapePacking.Bin<Resources, Resources>> bins, List<Resources> types, double[] price) {
        assertThat(bins).isNotNull();
        return bins.stream().mapToDouble(b -> price[types.indexOf(b.type())]).sum();
    }
}
