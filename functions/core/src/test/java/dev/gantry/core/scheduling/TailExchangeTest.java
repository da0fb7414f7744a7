package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.TailRepairTest.n;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A packing's tail traded with its body (Gantry's own rule): memory-heavy, low-cpu pods left over at the end move into
 * the spare memory of cpu-bound body nodes, which send a cpu-heavy pod back, and the tail is packed again for its new
 * ratio. The shape of the generic on-demand benchmark's old tail: r-type nodes of 100m/4Gi pods beside c-type nodes
 * whose cpu was full and a fifteenth of whose memory idled.
 */
class TailExchangeTest {
    static final long GI = 1L << 30;
    static final Resources C = Resources.of(16_000, 32 * GI);   // cpu-rich, 1.0 an hour
    static final Resources R = Resources.of(4_000, 64 * GI);    // memory-rich, 0.8
    static final Resources S = Resources.of(4_000, 8 * GI);     // small, 0.2
    static final Map<Resources, Double> PRICE = Map.of(C, 1.0, R, 0.8, S, 0.2);
    static final Resources CPU_POD = Resources.of(1_000, 512L << 20);
    static final Resources MEM_POD = Resources.of(100, 4 * GI);

    /** Each bin at the cheapest room that holds it, as the packing right-sizes claims. */
    static double cost(List<ShapePacking.Bin<Resources, Resources>> plan) {
        return plan.stream().mapToDouble(b -> binPrice(b.pods().stream().reduce(Resources.ZERO, Resources::plus))).sum();
    }

    static double binPrice(Resources used) {
        return PRICE.entrySet().stream().filter(e -> used.fitsIn(e.getKey())).mapToDouble(Map.Entry::getValue).min().orElse(Double.MAX_VALUE);
    }

    /**
     * The LP's unit prices over C, R and S: a tail that is mostly memory is priced by R (0.8 for 64 GiB, cpu free); one
     * that is mostly cpu by C (1.0 for 16 cpu, memory free). Enough for the trade's direction.
     */
    static double[] unitPrices(Resources d) {
        double cpuNodes = d.cpuMillis() / 16_000.0;
        double memNodes = d.memoryBytes() / (64.0 * GI);
        return memNodes >= cpuNodes ? new double[]{0, 0.8 / (64.0 * GI), 0} : new double[]{1.0 / 16_000, 0, 0};
    }

    static List<ShapePacking.Bin<Resources, Resources>> repack(List<Resources> pods) {
        return ShapePacking.pack(pods, Function.identity(), anchor -> anchor.fitsIn(S) ? S : anchor.fitsIn(C) ? C : R, Function.identity());
    }

    @Test
    void memoryPodsMoveIntoTheBodysSpareMemoryAndTheTailShrinks() {
        // Two C nodes full of cpu (16 × 1 cpu, 8 GiB used of 32) and a tail R node of 8 × 100m/4Gi.
        var body1 = new ShapePacking.Bin<>(C, new ArrayList<>(n(16, CPU_POD)));
        var body2 = new ShapePacking.Bin<>(C, new ArrayList<>(n(16, CPU_POD)));
        var tail = new ShapePacking.Bin<>(R, new ArrayList<>(n(8, MEM_POD)));
        var plan = List.of(body1, body2, tail);
        assertThat(cost(plan)).isEqualTo(2.8);

        var out = TailExchange.exchange(plan, Function.identity(), Function.identity(), TailExchangeTest::unitPrices,
                TailExchangeTest::binPrice, TailExchangeTest::repack);

        assertThat(out).isNotNull();
        assertThat(out.stream().mapToInt(b -> b.pods().size()).sum()).isEqualTo(40);
        for (var b : out) {
            assertThat(b.pods().stream().reduce(Resources.ZERO, Resources::plus).fitsIn(b.type())).isTrue();
        }
        // The 8 memory pods now sit in the C nodes; the cpu pods they displaced fit one small node.
        assertThat(cost(out)).isEqualTo(2.2);
    }

    @Test
    void aBalancedPlanHasNoTail() {
        var a = new ShapePacking.Bin<>(C, new ArrayList<>(n(16, CPU_POD)));
        var b = new ShapePacking.Bin<>(C, new ArrayList<>(n(16, CPU_POD)));
        assertThat(TailExchange.exchange(List.of(a, b), Function.identity(), Function.identity(), TailExchangeTest::unitPrices,
                TailExchangeTest::binPrice, TailExchangeTest::repack)).isNull();
    }

    /**
     * The same through the scheduler, on c/m/r families priced per cpu as c6a.48xlarge, m5a and r5a on-demand are, and
     * 5,000 generic pods (cpu 100m to 1.5, memory 100Mi to 4Gi, uniformly): the plan stays within 1% of the LP bound
     * ($38.88 against $38.68). Without the trade it was $39.66, 2.5% above: a tail of memory-heavy pods on m and r
     * nodes beside c nodes with idle memory.
     */
    @Test
    void aGenericWorkloadOnCmrFamiliesEndsWithoutAnUnbalancedTail() {
        List<dev.gantry.core.catalog.InstanceType> types = new ArrayList<>();
        for (int cpu : new int[]{2, 4, 8, 16, 32, 48, 64, 96, 192}) {
            types.add(Fixtures.type("c." + cpu, cpu, 2 * cpu, (cpu == 192 ? 0.03825 : 0.0425) * cpu, "amd64", Map.of(), 737));
            types.add(Fixtures.type("m." + cpu, cpu, 4 * cpu, 0.043 * cpu, "amd64", Map.of(), 737));
            types.add(Fixtures.type("r." + cpu, cpu, 8 * cpu, 0.0565 * cpu, "amd64", Map.of(), 737));
        }
        java.util.Random random = new java.util.Random(42);
        long[] cpus = {100, 250, 500, 1000, 1500};
        long[] mems = {100, 256, 512, 1024, 2048, 4096};
        List<dev.gantry.core.model.Pod> pods = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            pods.add(Fixtures.pod("p-" + i, cpus[random.nextInt(cpus.length)], mems[random.nextInt(mems.length)]).build());
        }
        var r = Fixtures.scenario().pods(pods).pool(Fixtures.pool("default").offer(types)).solve(Scheduler.Strategy.GANTRY);
        assertThat(r.unschedulable()).isEmpty();
        assertThat(r.totalPricePerHour()).isLessThanOrEqualTo(1.01 * r.lowerBoundPerHour());
    }
}
