package dev.gantry.core.cloud;

import dev.gantry.core.model.NodeClass;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a NodeClass's selector terms select now (Karpenter's EC2NodeClass {@code status.amis}, {@code status.subnets}
 * and {@code status.securityGroups}): the input of dynamic drift. The adapter resolves through the same cached lookups
 * a launch uses (SSM for an alias such as {@code al2023@latest}, DescribeImages, DescribeSubnets,
 * DescribeSecurityGroups), so a new AMI release is seen here as soon as a launch would use it.
 *
 * <p>Errors: a lookup that fails throws {@link CloudException}; the caller decides no dynamic drift for that NodeClass
 * this time (never "everything drifted"). Empty when the provider resolves nothing (a double without images).
 */
@FunctionalInterface
public interface NodeClassResolution {
    /** Resolves nothing: no dynamic drift is decided. */
    NodeClassResolution NONE = nc -> Optional.empty();

    Optional<Selected> resolve(NodeClass nodeClass);

    /**
     * @param images         image key ({@link ImageKeys}: {@code amd64}, or an alias's {@code amd64/nvidia}…) to the
     *                       image a launch would use now
     * @param subnets        the subnet ids selected
     * @param securityGroups the security group ids selected
     * @param capacityReservations the ids of the capacity reservations its {@code capacityReservationSelectorTerms}
     *                       select now (empty: none), or null when not resolved
     * @param placementGroupId the id of the placement group its {@code placementGroupSelector} selects now (empty: none,
     *                       or none listed), or null when not resolved
     */
    record Selected(Map<String, String> images, Set<String> subnets, Set<String> securityGroups,
                    Set<String> capacityReservations, String placementGroupId) {
        public Selected {
            images = Map.copyOf(Objects.requireNonNull(images, "images"));
            subnets = Set.copyOf(Objects.requireNonNull(subnets, "subnets"));
            securityGroups = Set.copyOf(Objects.requireNonNull(securityGroups, "securityGroups"));
            capacityReservations = capacityReservations == null ? null : Set.copyOf(capacityReservations);
        }

        /** What a provider that does not resolve placement groups selects (no placement-group drift is decided). */
        public Selected(Map<String, String> images, Set<String> subnets, Set<String> securityGroups,
                        Set<String> capacityReservations) {
            this(images, subnets, securityGroups, capacityReservations, null);
        }

        /** What a provider that does not resolve capacity reservations selects (no reservation drift is decided). */
        public Selected(Map<String, String> images, Set<String> subnets, Set<String> securityGroups) {
            this(images, subnets, securityGroups, null);
        }
    }
}
