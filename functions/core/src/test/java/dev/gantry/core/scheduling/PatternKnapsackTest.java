package dev.gantry.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pricing step of the pattern packing: the depth-first search within a step budget, the exact filling by dynamic
 * programming ({@link GridKnapsack}) and the fractional bound that decides which types get the exact one.
 */
class PatternKnapsackTest {
    /**
     * Room for 10 units of cpu; a pod of 6 worth 6.1 and pods of 5 worth 5 each. The densest first (the search's first
     * dive) takes the 6 and has no room for a 5: 6.1. Two 5s are worth 10.
     */
    @Test
    void theExactFillingFindsThePatternTheFirstDiveMisses() {
        long[][] size = {{6, 6}, {5, 5}};
        double[] count = {4, 4};
        double[] dual = {6.1, 5};
        long[] room = {10, 10};
        assertThat(PatternKnapsack.value(dual, PatternKnapsack.best(size, count, dual, room, 1))).isCloseTo(6.1, within(1e-9));
        int[] exact = PatternKnapsack.exact(size, count, dual, room, 1 << 10);
        assertThat(exact).containsExactly(0, 2);
        assertThat(PatternKnapsack.bound(size, count, dual, room)).isGreaterThanOrEqualTo(10 - 1e-9);
    }

    /**
     * On random bags (cpu, memory, a resource no pod asks for and the node has none of, as ephemeral storage or an
     * extended resource often is, and pod slots): the bound is never below the best pattern found by brute force, and
     * the exact filling on a grid large enough is that pattern's worth and fits. A bound that stopped at the first
     * resource with no room left would miss the pods after the first that take none of it. The knapsack's LP is never
     * below it either (with shapes worth nothing and shapes that fit no room among them, whose empty columns once made
     * the LP's simplex return no bound at all), and the search started from the LP and pruned by its Lagrangian bound,
     * given steps enough, finds it (it would not if that bound cut off a better pattern).
     */
    @Test
    void theBoundIsNeverBelowTheBestPatternAndTheExactFillingIsIt() {
        Random random = new Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int m = 1 + random.nextInt(5);
            long[] room = {1000 + random.nextInt(3000), 1000 + random.nextInt(8000), 0, 4 + random.nextInt(20)};
            long[][] size = new long[m][];
            double[] count = new double[m];
            double[] dual = new double[m];
            for (int i = 0; i < m; i++) {
                size[i] = new long[]{250L * (1 + random.nextInt(8)), 256L * (1 + random.nextInt(16)), 0, 1};
                count[i] = 1 + random.nextInt(6);
                dual[i] = random.nextInt(4) == 0 ? 0 : random.nextDouble();
            }
            double best = bruteForce(size, count, dual, room, 0, new long[room.length]);
            assertThat(PatternKnapsack.bound(size, count, dual, room)).as("trial %d", trial).isGreaterThanOrEqualTo(best - 1e-9);
            PatternKnapsack.Relaxation lp = PatternKnapsack.relax(size, count, dual, room);
            assertThat(lp == null ? 0 : lp.value()).as("trial %d", trial).isGreaterThanOrEqualTo(best - 1e-9);
            assertThat(PatternKnapsack.value(dual, PatternKnapsack.best(size, count, dual, room, 1_000_000, lp))).as("trial %d", trial)
                    .isCloseTo(best, within(1e-9));
            int[] exact = PatternKnapsack.exact(size, count, dual, room, 1 << 20);
            if (best > 0) {
                assertThat(exact).as("trial %d", trial).isNotNull();
                assertThat(PatternKnapsack.value(dual, exact)).as("trial %d", trial).isCloseTo(best, within(1e-9));
                for (int d = 0; d < room.length; d++) {
                    long used = 0;
                    for (int i = 0; i < m; i++) {
                        used += exact[i] * size[i][d];
                    }
                    assertThat(used).as("trial %d resource %d", trial, d).isLessThanOrEqualTo(room[d]);
                }
            }
        }
    }

    /**
     * A node with room for many pods of 30 shapes (cpu from 100m to 1.5 vCPU, memory from 100Mi to 4Gi, as the
     * benchmark's generic pods): the search's own first dive, one shape's most copies at a time, fills the cpu with
     * memory left over, and 2,000 steps of depth-first search do not recover; started from the knapsack's LP rounded
     * down, it comes within 1% of the LP's bound, so the column generation's LP converges where the search alone stalls.
     */
    @Test
    void theSearchFromTheLpFillsALargeNodeNearItsBound() {
        long[] cpu = {100, 250, 500, 1000, 1500};
        long[] mem = {100, 256, 512, 1024, 2048, 4096};
        long[][] size = new long[30][];
        double[] count = new double[30];
        for (int i = 0; i < 30; i++) {
            size[i] = new long[]{cpu[i % 5], mem[i / 5] << 20};
            count[i] = 300;
        }
        long[] room = {15_890, 60_000L << 20};
        Random random = new Random(1);
        double[] dual = new double[30];
        for (int i = 0; i < 30; i++) {
            dual[i] = (size[i][0] / 1000.0 * 0.6 + size[i][1] / (double) (1L << 30) * 0.4) * (0.7 + 0.6 * random.nextDouble());
        }
        PatternKnapsack.Relaxation lp = PatternKnapsack.relax(size, count, dual, room);
        double guided = PatternKnapsack.value(dual, PatternKnapsack.best(size, count, dual, room, 2_000, lp));
        double alone = PatternKnapsack.value(dual, PatternKnapsack.best(size, count, dual, room, 2_000));
        assertThat(guided).isGreaterThan(0.99 * lp.value());
        assertThat(alone).isLessThan(0.95 * lp.value());
    }

    private static double bruteForce(long[][] size, double[] count, double[] dual, long[] room, int i, long[] used) {
        if (i == size.length) {
            return 0;
        }
        double best = 0;
        long[] u = used.clone();
        for (int n = 0; n <= count[i]; n++) {
            if (n > 0) {
                for (int d = 0; d < room.length; d++) {
                    u[d] += size[i][d];
                }
                boolean fits = true;
                for (int d = 0; d < room.length; d++) {
                    fits &= u[d] <= room[d];
                }
                if (!fits) {
                    break;
                }
            }
            best = Math.max(best, n * dual[i] + bruteForce(size, count, dual, room, i + 1, u));
        }
        return best;
    }
}
