package dev.gantry.core.headroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LiveHeadroomTest {
    private static final Instant MONDAY_0845 = Instant.parse("2026-11-30T08:45:00Z");
    private static final Pod CHUNK = Pod.builder("default", "warm-m").requests(Resources.of(2000, 8L << 30)).build();
    private static final BufferTargets TARGETS = BufferTargets.of(List.of(
            new BufferTargets.Target("default", "PodTemplate", "warm-m", CHUNK, 0)));
    private static final CapacityBuffer SCHEDULED = new CapacityBuffer("default", "weekday-morning",
            new CapacityBuffer.PodTemplateRef("warm-m"), null, null, Map.of("cpu", Quantity.parse("20")), null,
            new CapacityBuffer.Schedule("50 8 * * 1-5", Duration.ofHours(10)), null);

    private final AtomicInteger historyReads = new AtomicInteger();
    private final DemandHistoryStore history = new DemandHistoryStore() {
        @Override
        public void record(String nodePool, Instant at, Resources pending) {
        }

        @Override
        public DemandHistory read(Instant now) {
            historyReads.incrementAndGet();
            return DemandHistory.EMPTY;
        }
    };

    @Test
    void aScheduledBufferOpensTheBootLeadBeforeItsScheduleAndOnlyPredictedBuffersReadTheHistory() {
        LiveHeadroom early = new LiveHeadroom(() -> new LiveHeadroom.Buffers(List.of(SCHEDULED), TARGETS), history,
                now -> Duration.ofMinutes(6));
        LiveHeadroom late = new LiveHeadroom(() -> new LiveHeadroom.Buffers(List.of(SCHEDULED), TARGETS), history,
                now -> Duration.ofMinutes(4));

        assertThat(early.at(MONDAY_0845).virtualPods()).hasSize(10); // 20 cpu of 2-cpu chunks, 5 minutes before 08:50
        assertThat(late.at(MONDAY_0845).virtualPods()).isEmpty();
        assertThat(historyReads).hasValue(0);
    }

    @Test
    void noBuffersIsNoHeadroomWithoutReadingAnythingElse() {
        LiveHeadroom h = new LiveHeadroom(() -> LiveHeadroom.Buffers.NONE, history, now -> {
            throw new AssertionError("the boot lead is not needed");
        });
        assertThat(h.at(MONDAY_0845)).isEqualTo(HeadroomPlan.NONE);
        assertThat(historyReads).hasValue(0);
    }

    @Test
    void aFailingSourcePropagatesAsThePortAllows() {
        LiveHeadroom h = new LiveHeadroom(() -> {
            throw new IllegalStateException("list capacitybuffers failed (500)");
        }, history, now -> Duration.ZERO);
        assertThatThrownBy(() -> h.at(MONDAY_0845)).hasMessageContaining("(500)");
    }
}
