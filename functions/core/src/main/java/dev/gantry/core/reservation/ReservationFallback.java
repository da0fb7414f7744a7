package dev.gantry.core.reservation;

import dev.gantry.core.requirements.WellKnownLabels;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A node that left its capacity reservation (the reservation expired or was cancelled, and EC2 now bills the
 * instance on-demand): its labels become those of an on-demand node, as Karpenter's capacity type controller
 * rewrites them (aws {@code pkg/controllers/capacityreservation/capacitytype/controller.go}): capacity type
 * {@code on-demand}, the three reservation labels removed. Only reserved to on-demand; never the other way.
 */
public final class ReservationFallback {
    private ReservationFallback() {
    }

    /**
     * The labels to carry when EC2 reports the instance as {@code reportedCapacityType}: present only when the labels
     * say {@code reserved} and EC2 says {@code on-demand}.
     */
    public static Optional<Map<String, String>> labels(Map<String, String> labels, String reportedCapacityType) {
        if (!WellKnownLabels.CAPACITY_RESERVED.equals(labels.get(WellKnownLabels.CAPACITY_TYPE))
                || !WellKnownLabels.CAPACITY_ON_DEMAND.equals(reportedCapacityType)) {
            return Optional.empty();
        }
        Map<String, String> out = new TreeMap<>();
        labels.forEach((k, v) -> {
            if (!ReservationLabels.isReservationLabel(k)) {
                out.put(k, v);
            }
        });
        out.put(WellKnownLabels.CAPACITY_TYPE, WellKnownLabels.CAPACITY_ON_DEMAND);
        return Optional.of(out);
    }
}
