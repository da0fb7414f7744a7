package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GPU pods on a type that costs a few percent more but leaves far more room for the plain pods of their group (Gantry's
 * own rule): the "real mixed" benchmark's 4-vCPU, 16-GiB GPU pods went to g4dn.2xlarge (0.1822 $/h, 3.9 vCPU to spare)
 * where g5g.4xlarge (0.1877, 11.9 vCPU to spare) carries three more 2.5-vCPU pods.
 */
class RoomierHostsTest {
    private static final Map<String, Long> GPU = Map.of(Resources.NVIDIA_GPU, 1L);
    private static final List<InstanceType> TYPES = List.of(type("g.small", 8, 32, 1.00, "amd64", GPU),
            type("g.roomy", 16, 32, 1.03, "amd64", GPU), type("c.2xlarge", 8, 16, 0.40), type("r.large", 2, 16, 0.14));

    private static List<Pod> workload() {
        List<Pod> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(pod("gpu-" + i).requests(Resources.of(4000, 16 * GI).with(Resources.NVIDIA_GPU, 1)).build());
        }
        all.addAll(pods("cpu", 16, 3000, 1024, Map.of()));
        all.addAll(pods("mem", 40, 500, 8192, Map.of()));
        return all;
    }

    @Test
    void gpuPodsTakeTheRoomierGpuTypeWhenItsRoomCarriesThePlainPodsForLess() {
        PoolContext pool = new PoolContext(Fixtures.pool("default").offer(TYPES), List.of());

        var plan = CostAwarePacking.cheapestPlan(pool, TYPES, Requirements.NONE, workload().stream().map(PodConstraints::strict).toList());

        // On g.small each GPU node had room for one 3-vCPU pod: 2.55 an hour at spot; on g.roomy, 2.19.
        assertThat(plan.stream().filter(b -> b.type().name().startsWith("g.")))
                .hasSize(4).allSatisfy(b -> assertThat(b.type().name()).isEqualTo("g.roomy"));
        assertThat(ExtendedSplit.price(plan, TYPES, Requirements.NONE, pool::room)).isCloseTo(2.19, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theWholeSolveKeepsThemThereAndPacksTheRestByPatterns() {
        var r = scenario().pods(workload()).pool(pool("default").offer(TYPES)).solve(Strategy.GANTRY);

        // 2.076 once the group is packed again by patterns after the free pods (ZoneRepack.repackFilled).
        assertAllScheduled(r);
        assertThat(r.newClaims().stream().filter(c -> c.instanceType().name().startsWith("g.")))
                .hasSize(4).allSatisfy(c -> assertThat(c.instanceType().name()).isEqualTo("g.roomy"));
        assertThat(r.totalPricePerHour()).isCloseTo(2.076, org.assertj.core.data.Offset.offset(1e-9));
    }
}
