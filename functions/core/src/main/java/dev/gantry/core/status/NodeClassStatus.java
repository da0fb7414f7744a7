package dev.gantry.core.status;

import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.reservation.CapacityReservation;
import java.time.Instant;
import java.util.List;

/**
 * An EC2NodeClass's {@code status} as Gantry writes it: what its selector terms resolved to, and its conditions
 * ({@code SubnetsReady}, {@code SecurityGroupsReady}, {@code AMIsReady}, {@code InstanceProfileReady},
 * {@code PlacementGroupReady}, {@code Ready}),
 * and {@code capacityReservations}: the reservations its {@code capacityReservationSelectorTerms} select, ordered by id.
 */
public record NodeClassStatus(List<Subnet> subnets, List<SecurityGroup> securityGroups, List<Ami> amis,
                              String instanceProfile, List<Condition> conditions, List<Reservation> capacityReservations) {
    /** A status without capacity reservations. */
    public NodeClassStatus(List<Subnet> subnets, List<SecurityGroup> securityGroups, List<Ami> amis,
                           String instanceProfile, List<Condition> conditions) {
        this(subnets, securityGroups, amis, instanceProfile, conditions, List.of());
    }

    /**
     * One {@code status.capacityReservations} entry, Karpenter's shape (aws {@code pkg/apis/v1/ec2nodeclass_status.go}):
     * {@code state} is {@code active}, or {@code expiring} for a Capacity Block within 40 minutes of its end.
     *
     * @param endTime null for a reservation without an end date
     */
    public record Reservation(String id, String availabilityZone, String instanceType, String ownerID,
                              String instanceMatchCriteria, String reservationType, boolean interruptible,
                              Instant endTime, String state) {
        /** {@code r} as the status reports it at {@code now}. */
        public static Reservation of(CapacityReservation r, Instant now) {
            return new Reservation(r.id(), r.availabilityZone(), r.instanceType(), r.ownerId(), r.instanceMatchCriteria(),
                    r.reservationType(), r.interruptible(), r.endTime(), r.state(now));
        }
    }

    public record Subnet(String id, String zone, String zoneId) {
    }

    /** @param name null when the resolver knows only the id */
    public record SecurityGroup(String id, String name) {
    }

    /**
     * @param requirements the instances the image suits ({@code kubernetes.io/arch In [arm64]})
     * @param deprecated   its deprecation time has passed (written only when true, as Karpenter's {@code omitempty})
     */
    public record Ami(String id, String name, List<Requirement> requirements, boolean deprecated) {
        public Ami {
            requirements = List.copyOf(requirements == null ? List.of() : requirements);
        }

        /** An image that is not deprecated. */
        public Ami(String id, String name, List<Requirement> requirements) {
            this(id, name, requirements, false);
        }
    }

    public NodeClassStatus {
        subnets = List.copyOf(subnets == null ? List.of() : subnets);
        securityGroups = List.copyOf(securityGroups == null ? List.of() : securityGroups);
        amis = List.copyOf(amis == null ? List.of() : amis);
        conditions = List.copyOf(conditions == null ? List.of() : conditions);
        capacityReservations = List.copyOf(capacityReservations == null ? List.of() : capacityReservations);
    }

    /** What a NodeClass's selector terms resolved to: the status without its conditions. */
    public NodeClassStatus withConditions(List<Condition> c) {
        return new NodeClassStatus(subnets, securityGroups, amis, instanceProfile, c, capacityReservations);
    }
}
