package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.GI;
import static dev.gantry.core.scheduling.Fixtures.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The packing bound is a bound (never above the cheapest real packing, found exhaustively on small inputs) and at
 * least the fractional bound over totals that ignores DaemonSets and whole pods.
 */
class PackingBoundTest {
    private static final long MI = 1L << 20;

    private static Resources pod(long cpu, long mem) {
        return new Resources(cpu, mem, 0, 1, Map.of());
    }

    @Test
    void podsOfOneShapeCostExactlyTheCheapestWholeFleet() {
        // 2-cpu nodes with 125m of DaemonSets hold three 500m pods, not 3.75; 4-cpu ones hold seven, not 8.
        List<PackingBound.Column> cols = List.of(new PackingBound.Column(new Resources(1875, 8 * GI, 0, 27, Map.of()), 0.10),
                new PackingBound.Column(new Resources(3875, 16 * GI, 0, 56, Map.of()), 0.27));
        double b = PackingBound.of(Map.of(pod(500, GI), 7), cols);
        // Whole nodes: three small (0.30) or one big (0.27). Fractionally, 7/3 small would do for 0.233.
        assertThat(b).isCloseTo(0.27, within(1e-9));
        // The fractional bound over totals, without DaemonSets: 3.5 cpu at 0.05 a core = 0.175.
        assertThat(b).isGreaterThan(0.175);
    }

    /**
     * Gantry's own: GPUs count. Five 1-GPU pods on 4-GPU nodes at 2.0 and plain nodes at 0.1: by cpu, memory and slots one
     * plain node held them all (0.1); whole, they need two 4-GPU nodes (4.0).
     */
    @Test
    void gpuPodsNeedWholeGpuNodes() {
        List<PackingBound.Column> cols = List.of(new PackingBound.Column(new Resources(16_000, 64 * GI, 0, 110, Map.of()), 0.1),
                new PackingBound.Column(new Resources(16_000, 64 * GI, 0, 110, Map.of(Resources.NVIDIA_GPU, 4L)), 2.0));
        Resources gpuPod = new Resources(1000, GI, 0, 1, Map.of(Resources.NVIDIA_GPU, 1L));
        assertThat(PackingBound.of(Map.of(gpuPod, 5), cols)).isCloseTo(4.0, within(1e-9));
        // Plain pods beside them may use the GPU nodes' spare room: 20 more 1-cpu pods fit the two nodes' 27 spare cpu.
        assertThat(PackingBound.of(Map.of(gpuPod, 5, pod(1000, GI), 20), cols)).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void podsTooLargeForEveryTypeAreLeftOut() {
        List<PackingBound.Column> cols = List.of(new PackingBound.Column(new Resources(2000, 4 * GI, 0, 10, Map.of()), 0.1));
        assertThat(PackingBound.of(Map.of(pod(4000, GI), 3, pod(500, GI), 1), cols)).isCloseTo(0.1, within(1e-9));
        assertThat(PackingBound.of(Map.of(pod(4000, GI), 3), cols)).isZero();
        // A GPU pod on a catalogue without GPUs is never placed, so it adds nothing.
        assertThat(PackingBound.of(Map.of(pod(100, GI).with("nvidia.com/gpu", 1), 5), cols)).isZero();
    }

    @Test
    void theMostPodsARoomHoldsIsTheSmallestFirstInEachResource() {
        List<Map.Entry<Resources, Integer>> pods = List.of(Map.entry(pod(1000, GI), 5), Map.entry(pod(300, 4 * GI), 2));
        // cpu: two 300m then two 1000m in 2600m = 4; memory: 8 GiB holds five 1 GiB (5), or 4+... smallest first = 5.
        assertThat(PackingBound.most(pods, new Resources(2600, 8 * GI, 0, 110, Map.of()))).isEqualTo(4);
        assertThat(PackingBound.most(pods, new Resources(9000, 8 * GI, 0, 3, Map.of()))).isEqualTo(3);
    }

    /** Random small clusters: the bound never exceeds the exhaustive optimum, and never falls below the old bound. */
    @Test
    void neverExceedsTheCheapestPackingAndNeverFallsBelowTheFractionalBound() {
        Random rnd = new Random(14);
        int tight = 0;
        for (int trial = 0; trial < 400; trial++) {
            List<InstanceType> types = new ArrayList<>();
            int nTypes = 1 + rnd.nextInt(3);
            for (int i = 0; i < nTypes; i++) {
                int cpu = 1 + rnd.nextInt(4);
                int mem = 1 + rnd.nextInt(8);
                double price = Math.round((0.02 + rnd.nextDouble() * 0.2) * 1000) / 1000.0;
                types.add(type("t" + i + ".x", cpu, mem, price, "amd64", Map.of(), 2 + rnd.nextInt(6)));
            }
            Resources overhead = new Resources(rnd.nextInt(3) * 100L, rnd.nextInt(3) * 128 * MI, 0, rnd.nextInt(2), Map.of());
            Map<Resources, Integer> shapes = new LinkedHashMap<>();
            int nPods = 1 + rnd.nextInt(6);
            for (int i = 0; i < nPods; i++) {
                shapes.merge(pod(250L * (1 + rnd.nextInt(8)), 256 * MI * (1 + rnd.nextInt(12))), 1, Integer::sum);
            }
            List<PackingBound.Column> cols = types.stream()
                    .map(t -> new PackingBound.Column(t.allocatable().minus(overhead), t.cheapestOffering(LowerBoundTest.ON_DEMAND).pricePerHour()))
                    .toList();
            double bound = PackingBound.of(shapes, cols);
            double best = Exhaustive.cheapest(shapes, cols);
            assertThat(bound).as("trial %d: %s on %s", trial, shapes, cols).isLessThanOrEqualTo(best + 1e-9);
            // The old bound, over totals of every pod and allocatable without DaemonSets, when every pod fits somewhere.
            boolean allFit = shapes.keySet().stream().allMatch(s -> cols.stream().anyMatch(c -> s.fitsIn(c.room())));
            if (allFit) {
                Resources total = Resources.ZERO;
                for (var e : shapes.entrySet()) {
                    total = total.plus(e.getKey().times(e.getValue()));
                }
                double old = LowerBound.of(total, types, LowerBoundTest.ON_DEMAND, t -> Resources.ZERO);
                assertThat(bound).as("trial %d", trial).isGreaterThanOrEqualTo(old - 1e-9);
                if (Math.abs(bound - best) < 1e-9) {
                    tight++;
                }
            }
        }
        System.out.println("packing bound equals the optimum in " + tight + " of 400 trials");
        assertThat(tight).as("the bound is exact for most tiny clusters").isGreaterThan(100);
    }

    /** The cheapest placement of every pod that fits somewhere, by branch and bound over opening nodes. */
    static final class Exhaustive {
        private final List<Resources> pods = new ArrayList<>();
        private final List<PackingBound.Column> cols;
        private double best = Double.POSITIVE_INFINITY;

        private Exhaustive(Map<Resources, Integer> shapes, List<PackingBound.Column> cols) {
            this.cols = cols;
            shapes.forEach((s, n) -> {
                if (cols.stream().anyMatch(c -> s.fitsIn(c.room()))) {
                    for (int i = 0; i < n; i++) {
                        pods.add(s);
                    }
                }
            });
        }

        static double cheapest(Map<Resources, Integer> shapes, List<PackingBound.Column> cols) {
            Exhaustive e = new Exhaustive(shapes, cols);
            if (e.pods.isEmpty()) {
                return 0;
            }
            e.place(0, new ArrayList<>(), new ArrayList<>(), 0);
            return e.best;
        }

        private void place(int i, List<Resources> free, List<Integer> opened, double cost) {
            if (cost >= best) {
                return;
            }
            if (i == pods.size()) {
                best = cost;
                return;
            }
            Resources p = pods.get(i);
            for (int n = 0; n < free.size(); n++) {
                if (p.fitsIn(free.get(n))) {
                    Resources was = free.get(n);
                    free.set(n, was.minus(p));
                    place(i + 1, free, opened, cost);
                    free.set(n, was);
                }
            }
            for (int c = 0; c < cols.size(); c++) {
                if (p.fitsIn(cols.get(c).room())) {
                    free.add(cols.get(c).room().minus(p));
                    opened.add(c);
                    place(i + 1, free, opened, cost + cols.get(c).price());
                    free.removeLast();
                    opened.removeLast();
                }
            }
        }
    }
}
