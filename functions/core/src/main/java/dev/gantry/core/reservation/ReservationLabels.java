package dev.gantry.core.reservation;

import java.util.Map;
import java.util.TreeMap;

/**
 * The labels a node launched into a capacity reservation carries, as Karpenter's (aws {@code pkg/apis/v1/labels.go};
 * docs {@code concepts/nodeclasses.md}), beside {@code karpenter.sh/capacity-type=reserved}. A node that leaves its
 * reservation loses all three and becomes {@code on-demand} (aws
 * {@code pkg/controllers/capacityreservation/capacitytype/controller.go}).
 */
public final class ReservationLabels {
    public static final String ID = "karpenter.k8s.aws/capacity-reservation-id";
    public static final String TYPE = "karpenter.k8s.aws/capacity-reservation-type";
    public static final String INTERRUPTIBLE = "karpenter.k8s.aws/capacity-reservation-interruptible";

    private ReservationLabels() {
    }

    /** The three labels of a node in {@code reservation}, sorted by key. */
    public static Map<String, String> of(CapacityReservation reservation) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(ID, reservation.id());
        labels.put(TYPE, reservation.reservationType());
        labels.put(INTERRUPTIBLE, Boolean.toString(reservation.interruptible()));
        return labels;
    }

    /** Whether {@code key} is one of the three (removed when an instance falls back to on-demand). */
    public static boolean isReservationLabel(String key) {
        return key.equals(ID) || key.equals(TYPE) || key.equals(INTERRUPTIBLE);
    }
}
