package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CapacityReservationTest {
    private static final Instant END = Instant.parse("2026-01-01T12:00:00Z");

    private static CapacityReservation of(String type, Instant end) {
        return new CapacityReservation("cr-0123456789abcdef0", "p5.48xlarge", "us-east-1a", "123456789012", "targeted",
                type, false, end, 2);
    }

    /**
     * aws {@code pkg/apis/v1/ec2nodeclass_status.go} CapacityReservationFromEC2: a capacity block is expiring from 40
     * minutes before its end time; anything else, or a block without an end, stays active.
     */
    @Test
    void aCapacityBlockIsExpiringFromFortyMinutesBeforeItsEnd() {
        CapacityReservation block = of(CapacityReservation.TYPE_CAPACITY_BLOCK, END);

        assertThat(block.state(END.minus(Duration.ofMinutes(41)))).isEqualTo("active");
        assertThat(block.state(END.minus(Duration.ofMinutes(40)))).isEqualTo("expiring");
        assertThat(block.state(END)).isEqualTo("expiring");
        assertThat(of(CapacityReservation.TYPE_DEFAULT, END).state(END.minusSeconds(60))).isEqualTo("active");
        assertThat(of(CapacityReservation.TYPE_CAPACITY_BLOCK, null).state(END)).isEqualTo("active");
    }

    /** aws {@code pkg/providers/capacityreservation/provider.go} filterReservations: ended at or after its end time. */
    @Test
    void hasEndedOnceItsEndTimeIsReached() {
        assertThat(of("default", END).ended(END.minusMillis(1))).isFalse();
        assertThat(of("default", END).ended(END)).isTrue();
        assertThat(of("default", null).ended(END)).isFalse();
    }

    /** aws {@code pkg/apis/v1/labels.go}: the three reservation labels a reserved node carries. */
    @Test
    void labelsNameTheReservationItsTypeAndWhetherItIsInterruptible() {
        assertThat(ReservationLabels.of(of(CapacityReservation.TYPE_CAPACITY_BLOCK, END))).containsExactly(
                java.util.Map.entry("karpenter.k8s.aws/capacity-reservation-id", "cr-0123456789abcdef0"),
                java.util.Map.entry("karpenter.k8s.aws/capacity-reservation-interruptible", "false"),
                java.util.Map.entry("karpenter.k8s.aws/capacity-reservation-type", "capacity-block"));
    }
}
