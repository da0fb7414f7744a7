package dev.gantry.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.GridKnapsack;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExactPlacementTest {
    private static final long GI = 1L << 30;

    /** 4 vCPU for $1.00, 2 vCPU for $0.60, and a 1 vCPU type cheapest per vCPU but too small for any pod. */
    private static final List<ExactPlacement.Column> COLUMNS = List.of(
            new ExactPlacement.Column("large", new Resources(4000, 4 * GI, 0, 10, java.util.Map.of()), 1.00),
            new ExactPlacement.Column("small", new Resources(2000, 2 * GI, 0, 10, java.util.Map.of()), 0.60),
            new ExactPlacement.Column("tiny", new Resources(1000, 8 * GI, 0, 10, java.util.Map.of()), 0.20));

    private static List<ExactPlacement.PodClass> pods(int n) {
        boolean[] all = new boolean[COLUMNS.size()];
        Arrays.fill(all, true);
        return List.of(new ExactPlacement.PodClass(Resources.of(1500, GI), n, all));
    }

    @Test
    void provesTheOptimumWhereTheConfigurationLpIsWhole() {
        // Two 1.5 vCPU pods per large node: $2.00 for four, and no placement is cheaper (the tiny type holds none).
        ExactPlacement.Result r = ExactPlacement.solve(pods(4), COLUMNS);

        assertThat(r.upper()).isCloseTo(2.00, within(1e-9));
        assertThat(r.lower()).isCloseTo(2.00, within(1e-6));
        assertThat(r.fleet()).containsExactly(java.util.Map.entry("large", 2));
    }

    @Test
    void bracketsTheOptimumOfAnOddCount() {
        // Three pods: a large node and a small one ($1.60) beat three small ones ($1.80) and two large ones ($2.00);
        // the configuration LP is $1.50 (one and a half large nodes).
        ExactPlacement.Result r = ExactPlacement.solve(pods(3), COLUMNS);

        assertThat(r.upper()).isCloseTo(1.60, within(1e-9));
        assertThat(r.lower()).isBetween(1.50 - 1e-6, 1.60);
    }

    @Test
    void keepsPodsOffTheColumnsTheyMayNotUse() {
        // The pod may only use the small type: three small nodes.
        ExactPlacement.Result r = ExactPlacement.solve(List.of(new ExactPlacement.PodClass(Resources.of(1500, GI), 3,
                new boolean[]{false, true, true})), COLUMNS);

        assertThat(r.upper()).isCloseTo(1.80, within(1e-9));
        assertThat(r.lower()).isCloseTo(1.80, within(1e-6));
    }

    /**
     * A zone row keeps a spread: one type, a pod a node, $1 in zone a and $2 in zone b. Four pods spread with maxSkew 1
     * over the two zones put at least two in each: $6, where without the rows all four go to zone a for $4.
     */
    @Test
    void aZoneRowKeepsTheSpreadsLeastCountInEachZone() {
        Resources room = new Resources(1000, GI, 0, 10, java.util.Map.of());
        List<ExactPlacement.Column> zoned = List.of(new ExactPlacement.Column("one@a", room, 1.00, "a"),
                new ExactPlacement.Column("one@b", room, 2.00, "b"));
        List<ExactPlacement.PodClass> spread = List.of(new ExactPlacement.PodClass(Resources.of(800, GI / 2), 4, new boolean[]{true, true}));

        ExactPlacement.Result free = ExactPlacement.solve(spread, zoned);
        ExactPlacement.Result kept = ExactPlacement.solve(spread, zoned, List.of(new ExactPlacement.ZoneRow(new int[]{0}, "a", 2),
                new ExactPlacement.ZoneRow(new int[]{0}, "b", 2)), null);

        assertThat(free.lower()).isCloseTo(4.00, within(1e-6));
        assertThat(kept.lower()).isCloseTo(6.00, within(1e-6));
        assertThat(kept.upper()).isCloseTo(6.00, within(1e-9));
        assertThat(kept.fleet()).containsEntry("one@a", 2).containsEntry("one@b", 2);
    }

    /** The brute-force optimum of max Σ value_c n_c, n_c ≤ max_c, Σ n_c size_cd ≤ room_d. */
    private static double bruteForce(long[] room, long[][] size, int[] max, double[] value, int c, long[] used) {
        if (c == value.length) {
            return 0;
        }
        double best = 0;
        for (int n = 0; n <= max[c]; n++) {
            boolean fits = true;
            for (int d = 0; d < room.length; d++) {
                fits &= used[d] + n * size[c][d] <= room[d];
            }
            if (!fits) {
                break;
            }
            for (int d = 0; d < room.length; d++) {
                used[d] += n * size[c][d];
            }
            best = Math.max(best, n * value[c] + bruteForce(room, size, max, value, c + 1, used));
            for (int d = 0; d < room.length; d++) {
                used[d] -= n * size[c][d];
            }
        }
        return best;
    }

    /**
     * On random small knapsacks (cpu, memory and pod slots, sizes on no common grid): the grid's dynamic programming
     * finds the brute-force optimum, coarsened it never falls below it (and equals it where it says it is exact), and
     * the branch and bound's proven bound is never below it nor its best filling above it.
     */
    @Test
    void knapsackBoundsHoldAgainstBruteForce() {
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int n = 2 + random.nextInt(4);
            boolean onGrid = trial % 2 == 0; // sizes on a grid of 50 millicores and 128 MB: the dynamic programming is exact
            long[] room = {1000 + random.nextInt(7000), (1 + random.nextInt(64)) * 100_000_000L + random.nextInt(1000), 0, 3 + random.nextInt(30)};
            long[][] size = new long[n][];
            int[] max = new int[n];
            int[] items = new int[n];
            double[] value = new double[n];
            boolean[] allowed = new boolean[n];
            int[] left = new int[n];
            for (int c = 0; c < n; c++) {
                size[c] = new long[]{50L * (1 + random.nextInt(40)) + (onGrid ? 0 : random.nextInt(3)),
                        (1 + random.nextInt(8)) * 128_000_000L + (onGrid ? 0 : random.nextInt(1 << 20)), 0, 1};
                left[c] = 1 + random.nextInt(12);
                long fit = left[c];
                for (int d = 0; d < room.length; d++) {
                    fit = size[c][d] > 0 ? Math.min(fit, room[d] / size[c][d]) : fit;
                }
                max[c] = (int) fit;
                items[c] = c;
                value[c] = 0.001 + random.nextDouble();
                allowed[c] = true;
            }
            double optimum = bruteForce(room, size, max, value, 0, new long[room.length]);

            GridKnapsack.Result fine = GridKnapsack.solve(room, size, items, max, value, 1L << 20, 1L << 24, true);
            if (onGrid) {
                assertThat(fine.exact()).as("trial %d", trial).isTrue();
            }
            assertThat(fine.optimum()).as("trial %d", trial).isGreaterThanOrEqualTo(optimum - 1e-9);
            if (fine.exact()) {
                assertThat(fine.optimum()).as("trial %d", trial).isCloseTo(optimum, within(1e-9));
            }
            GridKnapsack.Result coarse = GridKnapsack.solve(room, size, items, max, value, 40, 1L << 20, true);
            if (coarse != null) {
                assertThat(coarse.optimum()).as("trial %d", trial).isGreaterThanOrEqualTo(optimum - 1e-9);
                if (coarse.exact()) {
                    assertThat(coarse.optimum()).as("trial %d", trial).isCloseTo(optimum, within(1e-9));
                }
            }
            FillingKnapsack k = new FillingKnapsack(room, size, allowed, value, left);
            k.run(optimum * random.nextDouble() * 1.2);
            assertThat(k.proven()).as("trial %d", trial).isGreaterThanOrEqualTo(optimum - 1e-9);
            assertThat(k.best()).as("trial %d", trial).isLessThanOrEqualTo(optimum + 1e-9);
            k.settle();
            assertThat(k.proven()).as("trial %d", trial).isGreaterThanOrEqualTo(optimum - 1e-9);
        }
    }

    /**
     * The pricing knapsack of r6g.2xlarge (7.91 vCPU, 58.2 GiB and 58 pod slots free; $0.0814/h) in the 60th round of
     * the column generation on "real mixed" (10,000 pods): 52 classes of nearly the same worth per resource, so the
     * branch and bound stops, either at its node limit or a few nodes after a column it found. Its proven bound was then
     * the root's fractional bound, 0.0862 (5.8% above the price), and that went into Farley's bound (92.37 against a
     * configuration LP of 99.37); its column was worth 0.0814. The classes' sizes are multiples of 250 millicores and
     * 256 MiB, so the grid's dynamic programming is exact: the best column is worth 0.0853 and nothing more.
     */
    @Test
    void provesTheKnapsackWhereTheSearchStops() {
        double[][] classes = {
            {250, 10240, 0.009959153061275124},
            {250, 8192, 0.008255420844790041},
            {500, 8192, 0.009454650688150613},
            {500, 10240, 0.010938520638358075},
            {250, 6144, 0.006452861515699657},
            {750, 10240, 0.011895533844421158},
            {250, 4096, 0.004746037822851815},
            {750, 8192, 0.01002639434217649},
            {500, 6144, 0.007334001708985112},
            {750, 6144, 0.008534308925489405},
            {500, 4096, 0.00576123435508332},
            {750, 4096, 0.006601480758081801},
            {500, 3072, 0.0047541719444225685},
            {500, 2560, 0.004278521544072216},
            {1000, 3072, 0.006528793890403712},
            {500, 2048, 0.003808975196024246},
            {500, 2048, 0.00380897519599133},
            {750, 2560, 0.005138198938719368},
            {1000, 2560, 0.006087595641983604},
            {1500, 3072, 0.008348012023168651},
            {1000, 2048, 0.005598618302403168},
            {1000, 2048, 0.00559861830239963},
            {1250, 2560, 0.006851236705643553},
            {750, 2048, 0.004555865540132468},
            {500, 1536, 0.0032714591333444292},
            {1500, 2048, 0.007390865043432287},
            {2500, 1280, 0.010221050397891809},
            {2000, 1280, 0.00838026493434713},
            {750, 1536, 0.003960881017892226},
            {500, 1024, 0.002799309151219306},
            {500, 1024, 0.002785982212316082},
            {2000, 1024, 0.008176946157637628},
            {2500, 1024, 0.009856443293358332},
            {2000, 768, 0.007849022803657154},
            {2500, 768, 0.009601944714352825},
            {2000, 512, 0.007546074036289092},
            {2500, 512, 0.009212730070039924},
            {1250, 2048, 0.005625690848725818},
            {1000, 1536, 0.004464118982045238},
            {1250, 1536, 0.005153540866565583},
            {1000, 768, 0.003481999999973574},
            {750, 1024, 0.0028263816975046888},
            {1000, 1024, 0.0034819999999884514},
            {1000, 1024, 0.0034819999999819553},
            {1000, 1280, 0.0034819999999953807},
            {1250, 1024, 0.003481999999946832},
            {1500, 768, 0.003481999999993922},
            {1500, 1024, 0.0034820000000000003},
            {1500, 1024, 0.0034819999999799287},
            {1500, 1280, 0.003481999999986413},
            {1000, 512, 0.002307999999982282},
            {1500, 512, 0.002307999999962712},
        };
        long[] room = {7910, 62461575168L, 18253611008L, 58};
        long[][] size = new long[classes.length][];
        double[] value = new double[classes.length];
        boolean[] allowed = new boolean[classes.length];
        int[] left = new int[classes.length];
        for (int c = 0; c < classes.length; c++) {
            size[c] = new long[]{(long) classes[c][0], (long) classes[c][1] << 20, 0, 1};
            value[c] = classes[c][2];
            allowed[c] = true;
            left[c] = 10_000;
        }
        FillingKnapsack k = new FillingKnapsack(room, size, allowed, value, left);

        k.run(0.0814070091407);

        assertThat(k.best()).isGreaterThan(0.0853);
        assertThat(k.proven()).isGreaterThanOrEqualTo(k.best()).isLessThan(k.best() * (1 + 1e-9));
        long[] used = new long[room.length];
        double worth = 0;
        for (int c = 0; c < classes.length; c++) {
            worth += k.bestCounts()[c] * value[c];
            for (int d = 0; d < room.length; d++) {
                used[d] += k.bestCounts()[c] * size[c][d];
            }
        }
        assertThat(worth).isCloseTo(k.best(), within(1e-12));
        for (int d = 0; d < room.length; d++) {
            assertThat(used[d]).isLessThanOrEqualTo(room[d]);
        }
    }
}
