package dev.gantry.core.headroom;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BufferPodsTest {
    private static final long GI = 1L << 30;
    private static final Instant TUESDAY_10 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration LEAD = Duration.ofMinutes(5);

    private static final Pod CHUNK = Pod.builder("web", "template").requests(Resources.of(2000, 4 * GI))
            .labels(Map.of("app", "warm")).nodeSelector(Map.of("karpenter.k8s.aws/instance-category", "m"))
            .owner("ReplicaSet", "api").priority(100).build();
    private static final BufferTargets TARGETS = BufferTargets.of(List.of(
            new BufferTargets.Target("web", "PodTemplate", "chunk", CHUNK, 0),
            new BufferTargets.Target("web", "Deployment", "api", CHUNK, 10)));

    private static CapacityBuffer buffer(CapacityBuffer.Target target, Integer replicas, Integer percentage,
                                         Map<String, Quantity> limits, CapacityBuffer.Schedule schedule,
                                         CapacityBuffer.Prediction prediction) {
        return new CapacityBuffer("web", "warm", target, replicas, percentage, limits, null, schedule, prediction);
    }

    @Test
    void replicasCopiesOfThePodTemplateAreVirtualPodsMarkedWithTheirBuffer() {
        BufferExpansion e = BufferPods.expand(buffer(new CapacityBuffer.PodTemplateRef("chunk"), 3, null, Map.of(), null, null),
                TARGETS, TUESDAY_10, LEAD);
        assertThat(e.state()).isEqualTo(BufferExpansion.State.ACTIVE);
        assertThat(e.pods()).hasSize(3).allSatisfy(p -> {
            assertThat(BufferPods.isVirtual(p)).isTrue();
            assertThat(p.annotations()).containsEntry("karpenter.sh/capacity-buffer-fake-pod", "true")
                    .containsEntry("karpenter.sh/capacity-buffer-name", "warm")
                    .containsEntry("karpenter.sh/capacity-buffer-namespace", "web");
            assertThat(p.ownerKind()).isEqualTo("CapacityBuffer");
            assertThat(p.isProvisionable()).isTrue();
            assertThat(p.requests()).isEqualTo(CHUNK.requests());
            assertThat(p.nodeSelector()).isEqualTo(CHUNK.nodeSelector());
            assertThat(p.labels()).isEqualTo(CHUNK.labels());
            assertThat(p.priority()).isEqualTo(Integer.MIN_VALUE); // below every real pod, as Karpenter stamps it
        });
        assertThat(e.pods()).extracting(Pod::name).containsExactly("warm-buffer-0", "warm-buffer-1", "warm-buffer-2");
        assertThat(e.pods()).extracting(Pod::uid).doesNotHaveDuplicates();
        assertThat(e.total()).isEqualTo(Resources.of(6000, 12 * GI).with(Resources.PODS, 3));
        assertThat(BufferPods.isVirtual(CHUNK)).isFalse();
    }

    @Test
    void percentageOfTheWorkloadsReplicasRoundsUpAndTheLargerOfItAndReplicasWins() {
        CapacityBuffer.ScalableRef api = new CapacityBuffer.ScalableRef("apps", "Deployment", "api");
        assertThat(BufferPods.expand(buffer(api, null, 25, Map.of(), null, null), TARGETS, TUESDAY_10, LEAD).chunks())
                .isEqualTo(3); // 25% of 10 = 2.5 -> 3
        assertThat(BufferPods.expand(buffer(api, 5, 25, Map.of(), null, null), TARGETS, TUESDAY_10, LEAD).chunks())
                .isEqualTo(5);
    }

    @Test
    void limitsCapTheCountAndSayWhy() {
        BufferExpansion e = BufferPods.expand(buffer(new CapacityBuffer.PodTemplateRef("chunk"), 20, null,
                Map.of("cpu", Quantity.parse("7")), null, null), TARGETS, TUESDAY_10, LEAD);
        assertThat(e.chunks()).isEqualTo(3); // 3 x 2 cpu within 7
        assertThat(e.wanted()).isEqualTo(20);
        assertThat(e.reason()).contains("capped by limits cpu=7");
    }

    @Test
    void aPodsLimitBoundsNothingBecauseAPodDoesNotRequestPods() {
        BufferExpansion e = BufferPods.expand(buffer(new CapacityBuffer.PodTemplateRef("chunk"), 6, null,
                Map.of("pods", Quantity.parse("2")), null, null), TARGETS, TUESDAY_10, LEAD);
        assertThat(e.chunks()).isEqualTo(6);
    }

    @Test
    void withoutReplicasOrPercentageAsManyChunksAsFitInTheLimits() {
        // Seed 000: 20 vCPU of warm capacity.
        BufferExpansion e = BufferPods.expand(buffer(new CapacityBuffer.PodTemplateRef("chunk"), null, null,
                Map.of("cpu", Quantity.parse("20"), "memory", Quantity.parse("100Gi")), null, null), TARGETS, TUESDAY_10, LEAD);
        assertThat(e.chunks()).isEqualTo(10);
        assertThat(e.total().cpuMillis()).isEqualTo(20000);
    }

    @Test
    void outsideItsScheduleABufferHasNoPodsAndSaysWhenItOpens() {
        CapacityBuffer.Schedule weekdays = new CapacityBuffer.Schedule("50 8 * * 1-5", Duration.ofHours(10));
        CapacityBuffer b = buffer(new CapacityBuffer.PodTemplateRef("chunk"), 3, null, Map.of(), weekdays, null);
        BufferExpansion evening = BufferPods.expand(b, TARGETS, Instant.parse("2026-12-01T20:00:00Z"), LEAD);
        assertThat(evening.state()).isEqualTo(BufferExpansion.State.INACTIVE);
        assertThat(evening.pods()).isEmpty();
        assertThat(evening.nextOpening()).isEqualTo(Instant.parse("2026-12-02T08:45:00Z"));
        assertThat(BufferPods.expand(b, TARGETS, Instant.parse("2026-12-02T08:46:00Z"), LEAD).chunks()).isEqualTo(3);
    }

    @Test
    void anUnknownTargetOrAnotherStrategyYieldsNothingWithTheReason() {
        BufferExpansion missing = BufferPods.expand(buffer(new CapacityBuffer.PodTemplateRef("nope"), 3, null, Map.of(), null, null),
                TARGETS, TUESDAY_10, LEAD);
        assertThat(missing.state()).isEqualTo(BufferExpansion.State.UNRESOLVED);
        assertThat(missing.reason()).isEqualTo("PodTemplate/nope not found in namespace web");
        CapacityBuffer other = new CapacityBuffer("web", "warm", new CapacityBuffer.PodTemplateRef("chunk"), 3, null,
                Map.of(), "example.com/standby", null, null);
        assertThat(BufferPods.expand(other, TARGETS, TUESDAY_10, LEAD).state()).isEqualTo(BufferExpansion.State.IGNORED);
    }

    @Test
    void predictedModeWarmsTheComingHoursExpectedDemandWithinTheLimits() {
        // Demand recorded at Tuesday 10:00-11:00 in the last 3 weeks: 5, 9 and 13 cpu.
        DemandHistory h = DemandHistory.EMPTY;
        int[] cpus = {5000, 9000, 13000};
        for (int w = 1; w <= 3; w++) {
            h = h.record("default", TUESDAY_10.plus(Duration.ofMinutes(30)).minus(Duration.ofDays(7L * w)),
                    Resources.of(cpus[w - 1], 0));
        }
        CapacityBuffer.Prediction p90 = new CapacityBuffer.Prediction("default", 0.9);
        CapacityBuffer b = buffer(new CapacityBuffer.PodTemplateRef("chunk"), null, null, Map.of(), null, p90);
        // At 09:57 with a 5-minute lead the capacity is for the 10:00 hour: p90 of {5, 9, 13} is 13 cpu = 7 chunks.
        BufferExpansion e = BufferPods.expand(b, TARGETS, h, Instant.parse("2026-12-01T09:57:00Z"), LEAD);
        assertThat(e.chunks()).isEqualTo(7);
        assertThat(e.reason()).contains("predicted cpu=13", "p90 of 3 weeks");
        // At 09:50 the lead does not reach 10:00: the 09:00 hour has no demand.
        assertThat(BufferPods.expand(b, TARGETS, h, Instant.parse("2026-12-01T09:50:00Z"), LEAD).chunks()).isZero();
        CapacityBuffer capped = buffer(new CapacityBuffer.PodTemplateRef("chunk"), 1, null,
                Map.of("cpu", Quantity.parse("8")), null, p90);
        assertThat(BufferPods.expand(capped, TARGETS, h, Instant.parse("2026-12-01T09:57:00Z"), LEAD).chunks()).isEqualTo(4);
    }
}
