package dev.gantry.aws.ec2;

import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateConfigRequest;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.FleetOnDemandAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.FleetType;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SpotAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * Builds the CreateFleet request for a {@link FleetPlan}, as Karpenter does (pkg/providers/instance/types.go):
 * type {@code instant}, the launch's count of units of the plan's capacity type, {@code price-capacity-optimized} for spot and
 * {@code lowest-price} for on-demand, one launch template config per plan group at {@code $Latest}. No per-override
 * Priority: it only matters to the "prioritized" strategies Karpenter uses with node overlays, which Gantry lacks.
 */
final class FleetRequests {
    private FleetRequests() {}

    /**
     * @param templateNames the launch template name of each plan group, in the same order
     * @param clientToken   the claim name (or a batch's launch token): EC2 returns the first fleet's answer to a repeat,
     *                      so a retry launches nothing
     * @param count         the total target capacity: how many instances (1 for one claim)
     */
    static CreateFleetRequest build(FleetPlan plan, List<String> templateNames, String clientToken, int count,
                                    Map<String, String> tags) {
        List<FleetLaunchTemplateConfigRequest> configs = new ArrayList<>();
        for (int i = 0; i < plan.groups().size(); i++) {
            String name = templateNames.get(i);
            configs.add(FleetLaunchTemplateConfigRequest.builder()
                    .launchTemplateSpecification(s -> s.launchTemplateName(name).version("$Latest"))
                    .overrides(plan.groups().get(i).overrides().stream()
                            .map(o -> FleetLaunchTemplateOverridesRequest.builder().instanceType(o.instanceType())
                                    .subnetId(o.subnetId()).availabilityZone(o.zone()).build())
                            .toList())
                    .build());
        }
        boolean spot = WellKnownLabels.CAPACITY_SPOT.equals(plan.capacityType());
        CreateFleetRequest.Builder b = CreateFleetRequest.builder().type(FleetType.INSTANT).clientToken(clientToken)
                .targetCapacitySpecification(t -> t.totalTargetCapacity(count).defaultTargetCapacityType(
                        spot ? DefaultTargetCapacityType.SPOT : DefaultTargetCapacityType.ON_DEMAND))
                .launchTemplateConfigs(configs)
                .tagSpecifications(tagSpec(ResourceType.INSTANCE, tags), tagSpec(ResourceType.VOLUME, tags),
                        tagSpec(ResourceType.FLEET, tags));
        if (spot) {
            b.spotOptions(s -> s.allocationStrategy(SpotAllocationStrategy.PRICE_CAPACITY_OPTIMIZED));
        } else {
            b.onDemandOptions(o -> o.allocationStrategy(FleetOnDemandAllocationStrategy.LOWEST_PRICE));
        }
        return b.build();
    }

    private static TagSpecification tagSpec(ResourceType type, Map<String, String> tags) {
        return TagSpecification.builder().resourceType(type).tags(LaunchTemplates.tags(tags)).build();
    }
}
