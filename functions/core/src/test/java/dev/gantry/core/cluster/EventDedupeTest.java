package dev.gantry.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Karpenter's event dedupe: core pkg/events/recorder.go (publishEvent, shouldCreateEvent; defaultDedupeTimeout). */
class EventDedupeTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theSameEventWithinTwoMinutesIsDroppedAndADifferentMessageIsNot() {
        EventDedupe d = new EventDedupe();
        assertThat(d.admit("Node", null, "n1", "DisruptionBlocked", "a", T0)).isTrue();
        assertThat(d.admit("Node", null, "n1", "DisruptionBlocked", "a", T0.plusSeconds(119))).isFalse();
        assertThat(d.admit("Node", null, "n1", "DisruptionBlocked", "b", T0.plusSeconds(119))).isTrue();
        assertThat(d.admit("Node", null, "n2", "DisruptionBlocked", "a", T0.plusSeconds(119))).as("another object").isTrue();
        assertThat(d.admit("Node", null, "n1", "DisruptionBlocked", "a", T0.plus(EventDedupe.DEFAULT))).isTrue();
    }

    /**
     * core pkg/controllers/node/health/events.go (NodeRepairBlocked: DedupeValues the object's UID, DedupeTimeout 15
     * min): one Event per object per 15 minutes, though the message's counts change while the repair waits.
     */
    @Test
    void nodeRepairBlockedIsOnePerObjectPerFifteenMinutesWhateverItsMessage() {
        EventDedupe d = new EventDedupe();
        assertThat(d.admit("Node", null, "n1", "NodeRepairBlocked", "3 of 10", T0)).isTrue();
        assertThat(d.admit("Node", null, "n1", "NodeRepairBlocked", "4 of 10", T0.plus(Duration.ofMinutes(14)))).isFalse();
        assertThat(d.admit("NodePool", null, "default", "NodeRepairBlocked", "4 of 10", T0.plusSeconds(60))).isTrue();
        assertThat(d.admit("Node", null, "n1", "NodeRepairBlocked", "4 of 10", T0.plus(Duration.ofMinutes(15)))).isTrue();
    }
}
