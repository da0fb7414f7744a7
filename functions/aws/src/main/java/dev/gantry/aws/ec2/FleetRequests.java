package dev.gantry.aws.ec2;

import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateConfigRequest;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.FleetOnDemandAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.FleetReservationType;
import software.amazon.awssdk.services.ec2.model.FleetType;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SpotAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * Builds the CreateFleet request for recorded {@link LaunchParameters}, as Karpenter does
 * (pkg/providers/instance/types.go): type {@code instant}, the launch's count of units of the parameters' capacity
 * type, {@code price-capacity-optimized} for spot and {@code lowest-price} for on-demand, one launch template config per
 * template at {@code $Latest} with its (type, subnet, zone) overrides. No per-override Priority: it only matters to the
 * "prioritized" strategies Karpenter uses with node overlays, which Gantry lacks. Built from the recorded parameters
 * (and the reservation and {@code context} of the claim's class), so a replay of the token is the same request while
 * the class is unchanged.
 */
final class FleetRequests {
    /** EC2's longest ClientToken ("up to 64 ASCII characters"); claim names are kept to 63 (FreshClaimNames). */
    static final int MAX_CLIENT_TOKEN = 64;

    private FleetRequests() {}

    /**
     * @param clientToken the claim name (or a batch's launch token): EC2 returns the first fleet's answer to a repeat
     *                    with the same parameters, so a retry launches nothing
     * @param count       the total target capacity: how many instances (1 for one claim)
     */
    static CreateFleetRequest build(LaunchParameters parameters, String clientToken, int count) {
        return build(parameters, clientToken, count, null);
    }

    /**
     * {@link #build(LaunchParameters, String, int)} for a launch that may target a capacity reservation
     * ({@code reservation} non-null with capacity type {@code reserved}): the default target capacity type is the
     * reservation's ({@link ReservationTarget#fleetCapacityType}); an interruptible ODCR also asks for reserved
     * capacity of that kind, and a Capacity Block takes no on-demand options (aws {@code pkg/providers/instance/types.go}).
     */
    static CreateFleetRequest build(LaunchParameters parameters, String clientToken, int count, ReservationTarget reservation) {
        return build(parameters, clientToken, count, reservation, null);
    }

    /**
     * {@link #build(LaunchParameters, String, int, ReservationTarget)} with the NodeClass's {@code context}, EC2's
     * reserved CreateFleet {@code Context}, sent as Karpenter sends it (aws {@code pkg/providers/instance}); null:
     * none. A changed context under a token already used is EC2's IdempotentParameterMismatch, which finds the
     * token's instances by tag as any other mismatch does.
     */
    static CreateFleetRequest build(LaunchParameters parameters, String clientToken, int count, ReservationTarget reservation,
                                    String context) {
        if (clientToken.length() > MAX_CLIENT_TOKEN) {
            throw new CloudException("InvalidParameterValue", "CreateFleet: the ClientToken " + clientToken + " has "
                    + clientToken.length() + " characters, more than EC2's " + MAX_CLIENT_TOKEN, false);
        }
        List<FleetLaunchTemplateConfigRequest> configs = new ArrayList<>();
        for (LaunchParameters.Template t : parameters.templates()) {
            configs.add(FleetLaunchTemplateConfigRequest.builder()
                    .launchTemplateSpecification(s -> s.launchTemplateName(t.name()).version("$Latest"))
                    .overrides(t.overrides().stream()
                            .map(o -> FleetLaunchTemplateOverridesRequest.builder().instanceType(o.instanceType())
                                    .subnetId(o.subnetId()).availabilityZone(o.zone()).build())
                            .toList())
                    .build());
        }
        boolean spot = WellKnownLabels.CAPACITY_SPOT.equals(parameters.capacityType());
        ReservationTarget target = WellKnownLabels.CAPACITY_RESERVED.equals(parameters.capacityType()) ? reservation : null;
        DefaultTargetCapacityType capacityType = target != null ? target.fleetCapacityType()
                : spot ? DefaultTargetCapacityType.SPOT : DefaultTargetCapacityType.ON_DEMAND;
        Map<String, String> tags = parameters.sortedTags();
        CreateFleetRequest.Builder b = CreateFleetRequest.builder().type(FleetType.INSTANT).clientToken(clientToken)
                .targetCapacitySpecification(t -> t.totalTargetCapacity(count).defaultTargetCapacityType(capacityType))
                .launchTemplateConfigs(configs).context(context)
                .tagSpecifications(tagSpec(ResourceType.INSTANCE, tags), tagSpec(ResourceType.VOLUME, tags),
                        tagSpec(ResourceType.FLEET, tags));
        if (spot) {
            b.spotOptions(s -> s.allocationStrategy(SpotAllocationStrategy.PRICE_CAPACITY_OPTIMIZED));
        } else if (target != null && target.interruptible() && !target.capacityBlock()) {
            b.reservedCapacityOptions(r -> r.reservationTypes(FleetReservationType.INTERRUPTIBLE_CAPACITY_RESERVATION));
        } else if (target == null || !target.capacityBlock()) {
            b.onDemandOptions(o -> o.allocationStrategy(FleetOnDemandAllocationStrategy.LOWEST_PRICE));
        }
        return b.build();
    }

    private static TagSpecification tagSpec(ResourceType type, Map<String, String> tags) {
        return TagSpecification.builder().resourceType(type).tags(LaunchTemplates.tags(tags)).build();
    }
}
