package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The LP lower bound: the cheapest fractional fleet covering cpu, memory and pod slots. */
class LowerBoundTest {
    static final InstanceType CPU_RICH = type("c.big", 8, 8, 0.8, "amd64", Map.of(), 110);
    static final InstanceType MEM_RICH = type("r.big", 2, 16, 0.8, "amd64", Map.of(), 110);
    static final InstanceType FEW_PODS = type("t.small", 4, 16, 0.2, "amd64", Map.of(), 4);

    static final Requirements ON_DEMAND = reqs(dev.gantry.core.requirements.WellKnownLabels.CAPACITY_TYPE,
            dev.gantry.core.requirements.Operator.In, "on-demand");

    static double bound(Resources demand, List<InstanceType> types) {
        return LowerBound.of(demand, types, ON_DEMAND, t -> Resources.ZERO);
    }

    @Test
    void mixesACpuRichAndAMemoryRichTypeWhenTheDemandNeedsBoth() {
        // 10 cpu and 24 GiB: x·(8, 8) + y·(2, 16) = (10, 24) gives x = 1, y = 1, so 1.6.
        assertThat(bound(new Resources(10_000, 24 * GI, 0, 0, Map.of()), List.of(CPU_RICH, MEM_RICH))).isCloseTo(1.6, within(1e-6));
    }

    @Test
    void usesTheSingleCheapestTypeWhenOneResourceBinds() {
        assertThat(bound(new Resources(16_000, 1 * GI, 0, 0, Map.of()), List.of(CPU_RICH, MEM_RICH))).isCloseTo(1.6, within(1e-6));
    }

    @Test
    void countsPodSlots() {
        // 400 tiny pods: cpu and memory fit a tenth of a t.small (0.02), but at 4 pods a node they need 100 (20.0);
        // the 110-pod types do it for 400/110 · 0.8 = 2.91, the cheapest mix.
        Resources demand = new Resources(400, 400 * MI, 0, 400, Map.of());
        double withPods = bound(demand, List.of(FEW_PODS, CPU_RICH));
        double old = LowerBound.cpuAndMemory(demand, List.of(FEW_PODS, CPU_RICH), ON_DEMAND, t -> Resources.ZERO);
        assertThat(old).isCloseTo(0.2 * 400 / 4000.0, within(1e-6)); // cpu binds: a tenth of a t.small
        assertThat(withPods).isCloseTo(400 / 110.0 * 0.8, within(1e-6));
    }

    @Test
    void countsDaemonSetPodsAgainstTheSlots() {
        // Two DaemonSet pods on every node leave 2 slots of a t.small's 4.
        Resources demand = new Resources(100, 100 * MI, 0, 10, Map.of());
        double b = LowerBound.of(demand, List.of(FEW_PODS), ON_DEMAND, t -> new Resources(0, 0, 0, 2, Map.of()));
        assertThat(b).isCloseTo(10 / 2.0 * 0.2, within(1e-6));
    }

    @Test
    void isZeroForNoDemandOrNoTypeThatCoversIt() {
        assertThat(bound(Resources.ZERO, List.of(CPU_RICH))).isZero();
        assertThat(bound(Resources.of(1000, GI), List.of())).isZero();
    }

    @Test
    void neverExceedsThePriceOfAnIntegerPacking() {
        var r = scenario().pods(pods("web", 40, 700, 1500, Map.of())).pool(pool("default")).solve();
        assertThat(r.lowerBoundPerHour()).isPositive().isLessThanOrEqualTo(r.totalPricePerHour() + 1e-9);
    }

    @Test
    void theFleetCoversGpusWithTheTypesThatHaveThem() {
        // 4 cpu, 8 GiB and 2 GPUs: counting cpu and memory only, two c.big-cheaper plain nodes looked enough and the
        // packing's fleet menu never offered a GPU type. Gantry's own rule.
        InstanceType gpu = type("g.big", 8, 32, 2.0, "amd64", Map.of(Resources.NVIDIA_GPU, 4L), 110);
        var fleet = LowerBound.fleet(new Resources(4_000, 8 * GI, 0, 0, Map.of(Resources.NVIDIA_GPU, 2L)), List.of(CPU_RICH, MEM_RICH, gpu),
                ON_DEMAND, InstanceType::allocatable);
        assertThat(fleet).containsKey(gpu);
        assertThat(fleet.get(gpu)).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void unitPricesAreTheBindingTypesPricePerUnit() {
        // Memory binds on r.big (16 GiB for 0.8): a byte costs 0.05 per GiB and cpu, not binding, costs nothing.
        double[] y = LowerBound.unitPrices(new Resources(1_000, 64 * GI, 0, 0, Map.of()), List.of(CPU_RICH, MEM_RICH), ON_DEMAND,
                InstanceType::allocatable);
        assertThat(y[0]).isCloseTo(0, within(1e-12));
        assertThat(y[1] * GI).isCloseTo(0.05, within(1e-9));
    }

    @Test
    void theOptimalFleetUsesTheTypesTheBoundPricesAt() {
        var fleet = LowerBound.fleet(new Resources(10_000, 24 * GI, 0, 0, Map.of()), List.of(CPU_RICH, MEM_RICH), ON_DEMAND, InstanceType::allocatable);
        assertThat(fleet).containsOnlyKeys(CPU_RICH, MEM_RICH);
        assertThat(fleet.get(CPU_RICH)).isCloseTo(1.0, within(1e-6));
        assertThat(fleet.get(MEM_RICH)).isCloseTo(1.0, within(1e-6));
    }
    @Test
    void knowsThatLargePodsCannotSitOnTinyNodes() {
        // Four 4 GiB pods: by totals sixteen 1 GiB nodes at 0.01 would do (0.16), but no such pod fits one; only the
        // 32 GiB type holds them, half of one: 0.5.
        var tiny = type("t.tiny", 2, 1, 0.01, "amd64", Map.of(), 110);
        var big = type("m.big", 8, 32, 1.0, "amd64", Map.of(), 110);
        Resources pod = new Resources(100, 4 * GI, 0, 1, Map.of());
        assertThat(LowerBound.of(pod.times(4), List.of(tiny, big), ON_DEMAND, t -> Resources.ZERO)).isCloseTo(0.16, within(1e-6));
        assertThat(LowerBound.ofPods(Map.of(pod, 4), List.of(tiny, big), ON_DEMAND, t -> Resources.ZERO)).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void sizeThresholdsDoNotChangeTheBoundWhenEveryPodFitsEveryType() {
        Map<Resources, Integer> shapes = Map.of(new Resources(500, GI / 2, 0, 1, Map.of()), 10, new Resources(250, GI / 4, 0, 1, Map.of()), 6);
        Resources total = new Resources(500 * 10 + 250 * 6, GI / 2 * 10 + GI / 4 * 6, 0, 16, Map.of());
        assertThat(LowerBound.ofPods(shapes, List.of(CPU_RICH, MEM_RICH), ON_DEMAND, t -> Resources.ZERO))
                .isCloseTo(bound(total, List.of(CPU_RICH, MEM_RICH)), within(1e-6));
    }

    /**
     * Gantry's own: GPU pods can only run on GPU types, so their GPUs, and their cpu and memory, are covered by GPU
     * types alone. Three 1-GPU pods of 1 cpu and 1 GiB: by cpu and memory a fraction of the plain type would do (0.075);
     * they need three GPUs, three 1-GPU nodes at 1.0 or one 4-GPU node at 3.2 for three quarters: 2.4.
     */
    @Test
    void gpuPodsAreCoveredByGpuTypesOnly() {
        var plain = type("m.big", 4, 16, 0.1, "amd64", Map.of(), 110);
        var oneGpu = type("g.one", 4, 16, 1.0, "amd64", Map.of(Resources.NVIDIA_GPU, 1L), 110);
        var fourGpu = type("g.four", 16, 64, 3.2, "amd64", Map.of(Resources.NVIDIA_GPU, 4L), 110);
        Resources gpuPod = new Resources(1000, GI, 0, 1, Map.of(Resources.NVIDIA_GPU, 1L));
        assertThat(LowerBound.ofPods(Map.of(gpuPod, 3), List.of(plain, oneGpu, fourGpu), ON_DEMAND, t -> Resources.ZERO))
                .isCloseTo(2.4, within(1e-6));
        // Beside 40 plain pods of 1 cpu: the GPU pods' cpu may not be counted on the plain type's; the plain pods' may
        // be on the GPU nodes' spare cpu (2.4 buys 12 cpu, 3 used): 40 - 9 = 31 cpu at 0.025 = 0.775 more.
        Resources plainPod = new Resources(1000, GI / 4, 0, 1, Map.of());
        assertThat(LowerBound.ofPods(Map.of(gpuPod, 3, plainPod, 40), List.of(plain, oneGpu, fourGpu), ON_DEMAND, t -> Resources.ZERO))
                .isCloseTo(2.4 + 31 * 0.025, within(1e-6));
    }

    /** Gantry's own: a pod asking for 2 GPUs only counts on types with at least 2 (the size thresholds, per extended resource). */
    @Test
    void aPodWantingTwoGpusCountsOnlyOnTypesWithTwo() {
        var oneGpu = type("g.one", 4, 16, 0.5, "amd64", Map.of(Resources.NVIDIA_GPU, 1L), 110);
        var twoGpu = type("g.two", 8, 32, 2.0, "amd64", Map.of(Resources.NVIDIA_GPU, 2L), 110);
        Resources pod = new Resources(1000, GI, 0, 1, Map.of(Resources.NVIDIA_GPU, 2L));
        // By totals two g.one (1.0) would cover 2 GPUs; the pod needs one g.two.
        assertThat(LowerBound.ofPods(Map.of(pod, 1), List.of(oneGpu, twoGpu), ON_DEMAND, t -> Resources.ZERO)).isCloseTo(2.0, within(1e-6));
    }
}
