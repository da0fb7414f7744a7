package dev.gantry.core.reservation;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An EC2 capacity reservation a NodeClass selects (an On-Demand Capacity Reservation or a Capacity Block), as
 * DescribeCapacityReservations reports it.
 *
 * @param reservationType        {@link #TYPE_DEFAULT} (an ODCR) or {@link #TYPE_CAPACITY_BLOCK}
 * @param instanceMatchCriteria  {@code open} or {@code targeted}
 * @param interruptible          an interruptible ODCR: its owner may reclaim the capacity with a 2-minute warning
 * @param endTime                when the reservation ends, or null for one without an end date
 * @param availableInstanceCount how many more instances it can take now
 */
public record CapacityReservation(String id, String instanceType, String availabilityZone, String ownerId,
                                  String instanceMatchCriteria, String reservationType, boolean interruptible,
                                  Instant endTime, int availableInstanceCount) {
    public static final String TYPE_DEFAULT = "default";
    public static final String TYPE_CAPACITY_BLOCK = "capacity-block";
    public static final String STATE_ACTIVE = "active";
    public static final String STATE_EXPIRING = "expiring";
    /**
     * How long before its end a Capacity Block counts as expiring: its nodes are drained then, 10 minutes before EC2
     * starts reclaiming the instances (aws {@code pkg/apis/v1/ec2nodeclass_status.go} CapacityReservationFromEC2,
     * {@code pkg/controllers/capacityreservation/expiration/controller.go}).
     */
    public static final Duration EXPIRY_WINDOW = Duration.ofMinutes(40);

    public CapacityReservation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(availabilityZone, "availabilityZone");
        reservationType = reservationType == null ? TYPE_DEFAULT : reservationType;
        if (availableInstanceCount < 0) {
            throw new IllegalArgumentException("available instance count must not be negative, got " + availableInstanceCount);
        }
    }

    /**
     * {@link #STATE_EXPIRING} for a Capacity Block within {@link #EXPIRY_WINDOW} of its end, else {@link #STATE_ACTIVE}
     * (an ODCR with an end date is never expiring: EC2 gives no reclaim window for it).
     */
    public String state(Instant now) {
        boolean expiring = TYPE_CAPACITY_BLOCK.equals(reservationType) && endTime != null
                && !now.isBefore(endTime.minus(EXPIRY_WINDOW));
        return expiring ? STATE_EXPIRING : STATE_ACTIVE;
    }

    /** Whether it has ended by {@code now} (Karpenter drops such reservations even if EC2 still lists them). */
    public boolean ended(Instant now) {
        return endTime != null && !endTime.isAfter(now);
    }

    /** The same reservation with another available count. */
    public CapacityReservation withAvailable(int count) {
        return new CapacityReservation(id, instanceType, availabilityZone, ownerId, instanceMatchCriteria, reservationType,
                interruptible, endTime, count);
    }
}
