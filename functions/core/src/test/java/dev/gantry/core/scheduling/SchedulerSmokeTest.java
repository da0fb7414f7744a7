package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerSmokeTest {
    @Test
    void launchesCheapestTypeThatFitsOnePod() {
        var r = Scheduler.solve(input(List.of(pod("a", 1000, 1024).build()), pool("default").offer()));
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
        // spot c5.large at 30% of 0.085 is the cheapest offering with 2 cpu
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo("m6g.large");
    }

    @Test
    void packsManySmallPodsOntoFewNodes() {
        var r = Scheduler.solve(input(pods("web", 10, 500, 512, Map.of("app", "web")),
                pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand").offer()));
        assertAllScheduled(r);
        assertThat(r.placedCount()).isEqualTo(10);
        assertThat(r.totalPricePerHour()).isLessThanOrEqualTo(0.35);
    }

    @Test
    void reportsPodThatNoTypeCanHold() {
        var r = Scheduler.solve(input(List.of(pod("gpu").requests(Resources.of(1000, GI).with(Resources.NVIDIA_GPU, 8)).build()),
                pool("default").offer()));
        assertThat(reasonFor(r, "gpu")).isEqualTo("no instance type offers 8 nvidia.com/gpu");
    }

    @Test
    void reportsArchConflictWithThePool() {
        var r = Scheduler.solve(input(List.of(pod("arm").nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build()),
                pool("default").req(WellKnownLabels.ARCH, Operator.In, "amd64").offer()));
        assertThat(reasonFor(r, "arm")).isEqualTo("requires kubernetes.io/arch In [arm64]; NodePool default allows [amd64]");
    }

    @Test
    void spreadsAcrossZones() {
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        var pods = java.util.stream.IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512)
                .labels(Map.of("app", "web")).topologySpread(List.of(spread)).build()).toList();
        var r = Scheduler.solve(input(pods, pool("default").offer()));
        assertAllScheduled(r);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }
}
