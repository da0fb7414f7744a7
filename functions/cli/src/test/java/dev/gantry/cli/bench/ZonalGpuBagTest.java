package dev.gantry.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GPU pods and plain pods spread over zones in one Deployment-like group, on the whole real catalogue: the zone claims'
 * pods are packed again as one bag (ZoneRepack, then CostAwarePacking.cheapestPlan). The bag's own menu prices only the
 * types that hold its GPU pods; a re-packed tail of plain pods came back on other types, and ShapePeel asked the menu
 * for their price: a NullPointerException, so the whole solve (and a provisioning run) failed. Found on a 407-pod
 * leftover of "real mixed" at 1,000 pods; these are its shapes and counts.
 */
class ZonalGpuBagTest {
    private static final long MI = 1L << 20;
    /** {milli-cpu, MiB, GPUs, count}. */
    private static final long[][] BAG = {
            {1000, 1280, 0, 9}, {1000, 1536, 0, 8}, {1000, 1024, 0, 16}, {1000, 2560, 0, 8}, {1000, 2048, 0, 11}, {1000, 512, 0, 10},
            {1000, 768, 0, 8}, {1250, 1536, 0, 3}, {1250, 1024, 0, 8}, {1250, 2560, 0, 9}, {1250, 2048, 0, 4}, {1500, 1280, 0, 10},
            {1500, 1024, 0, 13}, {1500, 512, 0, 12}, {1500, 768, 0, 4}, {2000, 1280, 0, 8}, {2000, 1024, 0, 10}, {2000, 512, 0, 10},
            {2000, 768, 0, 11}, {2500, 1280, 0, 9}, {2500, 1024, 0, 9}, {2500, 512, 0, 5}, {2500, 768, 0, 13}, {250, 10240, 0, 8},
            {250, 4096, 0, 10}, {250, 6144, 0, 11}, {250, 8192, 0, 12}, {4000, 16384, 1, 11}, {500, 10240, 0, 7}, {500, 1536, 0, 10},
            {500, 1024, 0, 6}, {500, 2560, 0, 5}, {500, 2048, 0, 8}, {500, 4096, 0, 7}, {500, 6144, 0, 15}, {500, 8192, 0, 7},
            {750, 10240, 0, 9}, {750, 1536, 0, 10}, {750, 1024, 0, 3}, {750, 2560, 0, 6}, {750, 2048, 0, 14}, {750, 4096, 0, 16},
            {750, 6144, 0, 14}, {750, 8192, 0, 10}};

    @Test
    void gpuAndPlainPodsSpreadOverZonesInOneGroupArePlaced() {
        Map<String, String> labels = Map.of("app", "zonal");
        List<Pod> pods = new ArrayList<>();
        for (long[] s : BAG) {
            for (int i = 0; i < s[3]; i++) {
                Resources r = Resources.of(s[0], s[1] * MI);
                pods.add(Pod.builder("default", "p-" + pods.size()).labels(labels).requests(s[2] > 0 ? r.with("nvidia.com/gpu", s[2]) : r)
                        .topologySpread(List.of(TopologySpread.of(1, WellKnownLabels.ZONE, true, LabelSelector.of(labels)))).build());
            }
        }
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get("real mixed");

        SchedulingResult r = Scheduler.solve(new SchedulingInput(pods, List.of(), List.of(), List.of(),
                List.of(new SchedulingInput.PoolOffer(c.pool(), c.types())), Map.of()));

        assertThat(r.unschedulable()).isEmpty();
        assertThat(r.newClaims().stream().mapToInt(p -> p.pods().size()).sum()).isEqualTo(407);
    }
}
