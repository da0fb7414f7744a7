package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.input;
import static dev.gantry.core.scheduling.Fixtures.pods;
import static dev.gantry.core.scheduling.Fixtures.type;
import static dev.gantry.core.scheduling.TailRepairTest.n;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Shapes a tiny type holds whole, taken out of a packing of large nodes (Gantry's own rule): the "real generic" and
 * "real mixed" benchmarks' 1–1.5 vCPU pods, which filled 16-vCPU nodes at about 0.006 $/vCPU while a 2-vCPU burstable
 * type holds one of them for 0.0035 $ an hour.
 */
class ShapePeelTest {
    static final long GI = 1L << 30;
    static final Resources BIG = Resources.of(16_000, 32 * GI);
    static final Resources TINY = Resources.of(1_930, 1_359L << 20);
    static final Resources A = Resources.of(2_500, GI);          // too large for TINY
    static final Resources P = Resources.of(1_500, GI);          // one fits TINY
    static final Resources Q = Resources.of(250, 200L << 20);    // six fit TINY

    static double price(Resources type, double tiny) {
        return type.equals(BIG) ? 0.8 : tiny;
    }

    /** Four big bins of 4 × A and 4 × P each: full on cpu, P's share of a bin 0.075 an hour. */
    static List<ShapePacking.Bin<Resources, Resources>> plan(List<Resources> pods) {
        List<ShapePacking.Bin<Resources, Resources>> plan = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<Resources> in = new ArrayList<>(n(4, A));
            in.addAll(n(4, P));
            plan.add(new ShapePacking.Bin<>(BIG, in));
            pods.addAll(in);
        }
        return plan;
    }

    @Test
    void aShapeThatATinyTypeHoldsForLessThanItsShareGoesThereAndTheRestIsLeftToPack() {
        List<Resources> pods = new ArrayList<>();
        var plan = plan(pods);

        var peeled = ShapePeel.peel(pods, plan, Function.identity(), List.of(BIG, TINY), Function.identity(), t -> price(t, 0.04));

        assertThat(peeled).isNotNull();
        assertThat(peeled.rest()).hasSize(16).containsOnly(A);
        assertThat(peeled.bins()).hasSize(16).allSatisfy(b -> {
            assertThat(b.type()).isEqualTo(TINY);
            assertThat(b.pods()).containsExactly(P);
        });
    }

    @Test
    void aShapeNotCheaperAloneStaysInThePacking() {
        List<Resources> pods = new ArrayList<>();
        var plan = plan(pods);

        // 0.076 an hour alone against a share of 0.075: not cheaper, so nothing is taken out.
        assertThat(ShapePeel.peel(pods, plan, Function.identity(), List.of(BIG, TINY), Function.identity(), t -> price(t, 0.076))).isNull();
    }

    @Test
    void aShapeCheaperAloneByLittleIsStillTakenOut() {
        List<Resources> pods = new ArrayList<>();
        var plan = plan(pods);

        // 0.072 an hour alone against a share of 0.075: the caller keeps the peel only if the whole packing is cheaper,
        // so a margin here only hid peels that pay (real mixed: 111.95 $/h with a 5% margin, 109.99 without).
        var peeled = ShapePeel.peel(pods, plan, Function.identity(), List.of(BIG, TINY), Function.identity(), t -> price(t, 0.072));

        assertThat(peeled).isNotNull();
        assertThat(peeled.rest()).hasSize(16).containsOnly(A);
    }

    @Test
    void smallPeeledPodsRideInTheRoomTheLargerOnesLeave() {
        // One big bin of 2 × A, 6 × P and 6 × Q (15.5 vCPU).
        List<Resources> pods = new ArrayList<>(n(2, A));
        pods.addAll(n(6, P));
        pods.addAll(n(6, Q));
        var plan = List.of(new ShapePacking.Bin<>(BIG, new ArrayList<>(pods)));

        var peeled = ShapePeel.peel(pods, plan, Function.identity(), List.of(BIG, TINY), Function.identity(), t -> price(t, 0.04));

        // Alone: six TINY nodes for P and one for the six Q; together each P node takes a Q.
        assertThat(peeled).isNotNull();
        assertThat(peeled.bins()).hasSize(6).allSatisfy(b -> assertThat(b.pods()).containsExactlyInAnyOrder(P, Q));
    }

    @Test
    void podsLeftInThePackingRideInTheRoomThePeeledBinsLeave() {
        // One big bin of 4 × A, 2 × P, 14 × R and 2 × M: full on cpu, and M (100m, 8 GiB) a quarter of it on memory, so
        // the shares (each pod's largest share of the room) sum to 1.49. R (200m, 300 MiB) costs about 0.0067 an hour
        // there and 0.01 alone (four on TINY for 0.04, or 80 on BIG), so it is not peeled; but each P leaves 430m and
        // 335 MiB of its TINY node, room for one R.
        Resources r = Resources.of(200, 300L << 20);
        Resources m = Resources.of(100, 8 * GI);
        List<Resources> pods = new ArrayList<>(n(4, A));
        pods.addAll(n(2, P));
        pods.addAll(n(14, r));
        pods.addAll(n(2, m));
        var plan = List.of(new ShapePacking.Bin<>(BIG, new ArrayList<>(pods)));

        var peeled = ShapePeel.peel(pods, plan, Function.identity(), List.of(BIG, TINY), Function.identity(), t -> price(t, 0.04));

        assertThat(peeled).isNotNull();
        assertThat(peeled.bins()).hasSize(2).allSatisfy(b -> assertThat(b.pods()).containsExactlyInAnyOrder(P, r));
        assertThat(peeled.rest()).hasSize(18).containsOnly(A, r, m).filteredOn(x -> x.equals(r)).hasSize(12);
    }

    @Test
    void theSchedulerPutsPodsATinyTypeHoldsWholeOnIt() {
        // 12 × 2.5 vCPU and 12 × 1.5 vCPU: three big nodes hold them all exactly (0.72 an hour at spot), but two big
        // nodes for the large pods and twelve tiny ones for the others cost 0.624.
        List<InstanceType> types = List.of(type("c5.4xlarge", 16, 32, 0.8), type("t4g.small", 2, 2, 0.04));
        List<Pod> all = new ArrayList<>(pods("a", 12, 2_500, 1_024, Map.of("app", "a")));
        all.addAll(pods("p", 12, 1_500, 1_024, Map.of("app", "p")));

        SchedulingResult r = Scheduler.solve(input(all, Fixtures.pool("default").offer(types)));

        assertThat(r.unschedulable()).isEmpty();
        assertThat(r.totalPricePerHour()).isCloseTo(0.624, org.assertj.core.data.Offset.offset(1e-9));
    }
}
