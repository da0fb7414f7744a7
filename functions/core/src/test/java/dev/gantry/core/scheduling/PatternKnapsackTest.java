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
     * resource with no room left would miss the pods after the first that take none of it.
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
