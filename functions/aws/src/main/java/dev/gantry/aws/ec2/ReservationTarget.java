package dev.gantry.aws.ec2;

import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.ReservationLabels;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.ec2.model.CapacityReservationPreference;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.MarketType;
import software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData;

/**
 * The capacity reservation a reserved launch targets, as its claim pins it (the three {@link ReservationLabels} among
 * the launch's labels, so a replay of the claim names the same one), and what that changes in EC2's requests, as
 * Karpenter sends them:
 * <ul>
 *   <li>the launch template: {@code CapacityReservationSpecification} with preference
 *       {@code capacity-reservations-only} and the reservation as target, and {@code InstanceMarketOptions} of market
 *       type {@code capacity-block} for a Capacity Block or {@code interruptible-capacity-reservation} for an
 *       interruptible ODCR (aws {@code pkg/providers/launchtemplate/types.go});</li>
 *   <li>CreateFleet's default target capacity type: {@code capacity-block} for a block, {@code reserved-capacity}
 *       for an interruptible ODCR, {@code on-demand} otherwise (aws {@code pkg/providers/instance/types.go}
 *       defaultTargetCapacityType).</li>
 * </ul>
 * Launch templates of launches that target nothing are left as they were (Karpenter writes preference {@code none}
 * into them once a NodeClass selects reservations; Gantry does not, so no existing template is renamed: their names
 * hash their content).
 */
record ReservationTarget(String id, String type, boolean interruptible) {
    /** The target the launch's labels pin, if any. */
    static Optional<ReservationTarget> of(Map<String, String> labels) {
        String id = labels.get(ReservationLabels.ID);
        if (id == null) {
            return Optional.empty();
        }
        return Optional.of(new ReservationTarget(id, labels.getOrDefault(ReservationLabels.TYPE,
                CapacityReservation.TYPE_DEFAULT), Boolean.parseBoolean(labels.get(ReservationLabels.INTERRUPTIBLE))));
    }

    boolean capacityBlock() {
        return CapacityReservation.TYPE_CAPACITY_BLOCK.equals(type);
    }

    /** The text the launch template's name hashes (only for a template that targets a reservation). */
    String canonical() {
        return "reservation " + id + " " + type + " " + interruptible;
    }

    void writeInto(RequestLaunchTemplateData.Builder data) {
        data.capacityReservationSpecification(s -> s
                .capacityReservationPreference(CapacityReservationPreference.CAPACITY_RESERVATIONS_ONLY)
                .capacityReservationTarget(t -> t.capacityReservationId(id)));
        if (capacityBlock()) {
            data.instanceMarketOptions(m -> m.marketType(MarketType.CAPACITY_BLOCK));
        } else if (interruptible) {
            data.instanceMarketOptions(m -> m.marketType(MarketType.INTERRUPTIBLE_CAPACITY_RESERVATION));
        }
    }

    DefaultTargetCapacityType fleetCapacityType() {
        if (capacityBlock()) {
            return DefaultTargetCapacityType.CAPACITY_BLOCK;
        }
        return interruptible ? DefaultTargetCapacityType.RESERVED_CAPACITY : DefaultTargetCapacityType.ON_DEMAND;
    }
}
