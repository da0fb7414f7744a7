package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** aws {@code pkg/controllers/capacityreservation/capacitytype/controller.go} syncCapacityType. */
class ReservationFallbackTest {
    private static final Map<String, String> RESERVED = Map.of("karpenter.sh/capacity-type", "reserved",
            "karpenter.k8s.aws/capacity-reservation-id", "cr-0000000000000000a",
            "karpenter.k8s.aws/capacity-reservation-type", "default",
            "karpenter.k8s.aws/capacity-reservation-interruptible", "false", "karpenter.sh/nodepool", "gpu");

    @Test
    void aReservedNodeEc2BillsOnDemandBecomesOnDemandWithoutReservationLabels() {
        assertThat(ReservationFallback.labels(RESERVED, "on-demand")).contains(Map.of(
                "karpenter.sh/capacity-type", "on-demand", "karpenter.sh/nodepool", "gpu"));
    }

    @Test
    void nothingChangesOtherwise_andNeverOnDemandToReserved() {
        assertThat(ReservationFallback.labels(RESERVED, "reserved")).isEmpty();
        assertThat(ReservationFallback.labels(Map.of("karpenter.sh/capacity-type", "on-demand"), "reserved")).isEmpty();
        assertThat(ReservationFallback.labels(Map.of("karpenter.sh/capacity-type", "spot"), "on-demand")).isEmpty();
    }
}
