package dev.gantry.core.headroom;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingDemandTest {
    private static final long GI = 1L << 30;

    private static Pod pod(String name, long cpu, long mem) {
        return Pod.builder("web", name).requests(Resources.of(cpu, mem)).build();
    }

    @Test
    void countsRealPodsOnNewAndInFlightClaimsOfEachPoolButNotExistingNodesOrVirtualPods() {
        Pod chunk = pod("template", 2000, 8 * GI);
        CapacityBuffer buffer = new CapacityBuffer("web", "warm", new CapacityBuffer.PodTemplateRef("t"), 1, null, Map.of(),
                null, null, null);
        Pod virtual = BufferPods.expand(buffer, BufferTargets.of(List.of(new BufferTargets.Target("web", "PodTemplate", "t", chunk, 0))),
                Instant.EPOCH, Duration.ZERO).pods().getFirst();
        SchedulingInput input = new SchedulingInput(List.of(), List.of(), List.of(new SchedulingInput.InFlightClaim("old",
                "batch", Map.of(), List.of(), Resources.ZERO, List.of())), List.of(), List.of(), Map.of());
        SchedulingResult result = new SchedulingResult(
                Map.of("node-1", List.of(pod("placed", 9000, 9 * GI))),
                Map.of("old", List.of(pod("b", 1000, 1 * GI))),
                List.of(new SchedulingResult.NodeClaimPlan("new-1", "default", null, List.of(), null, null,
                                List.of(pod("a", 500, GI), pod("c", 1500, 3 * GI), virtual), Resources.ZERO),
                        new SchedulingResult.NodeClaimPlan("new-2", "batch", null, List.of(), null, null,
                                List.of(pod("d", 4000, 2 * GI)), Resources.ZERO)),
                List.of(new SchedulingResult.Unschedulable(pod("huge", 64000, 0), "too big")), 0, 0, "gantry");
        assertThat(PendingDemand.perPool(input, result)).containsExactly(
                Map.entry("batch", Resources.of(5000, 3 * GI)),
                Map.entry("default", Resources.of(2000, 4 * GI)));
    }

    @Test
    void aHeadroomPlanListsTheVirtualPodsOfActiveBuffersOnly() {
        Pod chunk = pod("template", 1000, GI);
        BufferTargets targets = BufferTargets.of(List.of(new BufferTargets.Target("web", "PodTemplate", "t", chunk, 0)));
        CapacityBuffer always = new CapacityBuffer("web", "always", new CapacityBuffer.PodTemplateRef("t"), 2, null, Map.of(),
                null, null, null);
        CapacityBuffer night = new CapacityBuffer("web", "night", new CapacityBuffer.PodTemplateRef("t"), 5, null, Map.of(),
                null, new CapacityBuffer.Schedule("0 22 * * *", Duration.ofHours(2)), null);
        HeadroomPlan plan = HeadroomPlan.of(List.of(always, night), targets, DemandHistory.EMPTY,
                Instant.parse("2026-12-01T10:00:00Z"), Duration.ofMinutes(5));
        assertThat(plan.virtualPods()).extracting(Pod::name).containsExactly("always-buffer-0", "always-buffer-1");
        assertThat(plan.buffers()).extracting(BufferExpansion::state)
                .containsExactly(BufferExpansion.State.ACTIVE, BufferExpansion.State.INACTIVE);
    }

    @Test
    void aWaveThatFoundSomeRoomIsMeasuredWholeThePodsBoundFromItCountingWithThoseThatWaited() {
        Instant t = Instant.parse("2026-12-01T12:30:00Z");
        java.util.function.BiFunction<String, Instant, Pod> created = (name, at) -> Pod.builder("web", name)
                .requests(Resources.of(500, GI)).nodeName("node-1").status(new Pod.Status("Running", false, at, null, null)).build();
        dev.gantry.core.model.Node node = new dev.gantry.core.model.Node("node-1", "aws:///a/i-1",
                Map.of("karpenter.sh/nodepool", "default"), Map.of(), List.of(), Resources.of(4000, 8 * GI), true, false, false, t);
        SchedulingInput input = new SchedulingInput(List.of(), List.of(new SchedulingInput.ExistingNode(node, List.of(
                created.apply("same-wave", t.minusSeconds(5)), created.apply("earlier", t.minusSeconds(3600))))),
                List.of(), List.of(), List.of(), Map.of());
        Pod waiting = Pod.builder("web", "waiting").requests(Resources.of(500, GI))
                .status(new Pod.Status("Pending", true, t, null, null)).build();
        SchedulingResult result = new SchedulingResult(Map.of(), Map.of(), List.of(new SchedulingResult.NodeClaimPlan("new-1",
                "default", null, List.of(), null, null, List.of(waiting), Resources.ZERO)), List.of(), 0, 0, "gantry");

        assertThat(PendingDemand.perPool(input, result)).containsExactly(Map.entry("default", Resources.of(500, GI)));
        assertThat(PendingDemand.waves(input, result)).containsExactly(Map.entry("default", Resources.of(1000, 2 * GI)));
    }
}
