package dev.gantry.aws.ec2;

import dev.gantry.aws.ec2.AmiResolver.Ami;
import dev.gantry.aws.ec2.SubnetResolver.ZonalSubnet;
import dev.gantry.core.cloud.ImageKeys;
import dev.gantry.core.cloud.NodeRoles;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.status.NodeClassReadiness;
import dev.gantry.core.status.NodeClassStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The resolvers' answers as an EC2NodeClass status. Conditions are the status writer's, but for two: how the instance
 * profile was found when it is not the named role's ({@link NodeClassReadiness#howFound}), and a placement group the
 * class selects that EC2 does not list ({@link NodeClassReadiness#placementGroupNotFound}).
 */
final class NodeClassStatusOf {
    private NodeClassStatusOf() {
    }

    static NodeClassStatus of(NodeClass nodeClass, List<ZonalSubnet> subnets, List<SecurityGroupResolver.Group> groups,
                              Map<String, Ami> amis,
                              NodeRoles.InstanceProfile instanceProfile, List<CapacityReservation> reservations,
                              String missingPlacementGroup, Instant now) {
        List<dev.gantry.core.status.Condition> said = new ArrayList<>(NodeClassReadiness.howFound(instanceProfile));
        if (missingPlacementGroup != null) {
            said.add(NodeClassReadiness.placementGroupNotFound(missingPlacementGroup));
        }
        return new NodeClassStatus(
                subnets.stream().sorted(Comparator.comparing(ZonalSubnet::id))
                        .map(s -> new NodeClassStatus.Subnet(s.id(), s.zone(), s.zoneId())).toList(),
                groups.stream().sorted(Comparator.comparing(SecurityGroupResolver.Group::id))
                        .map(g -> new NodeClassStatus.SecurityGroup(g.id(), g.name())).toList(),
                amis.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> new NodeClassStatus.Ami(e.getValue().id(),
                        e.getValue().name(), requirements(e.getKey()), e.getValue().deprecated())).toList(),
                instanceProfile.name(), List.copyOf(said),
                reservations.stream().map(r -> NodeClassStatus.Reservation.of(r, now)).toList());
    }

    /**
     * The requirements an image key stands for, as Karpenter writes them in {@code status.amis} (its variants'
     * {@code Requirements()}): the architecture, and for an alias's variant whether the type has GPUs or accelerators.
     */
    static List<Requirement> requirements(String key) {
        List<Requirement> out = new ArrayList<>();
        out.add(Requirement.of(WellKnownLabels.ARCH, Operator.In, ImageKeys.arch(key)));
        String variant = ImageKeys.variant(key);
        if (ImageKeys.STANDARD.equals(variant)) {
            out.add(Requirement.of(WellKnownLabels.INSTANCE_ACCELERATOR_COUNT, Operator.DoesNotExist));
            out.add(Requirement.of(WellKnownLabels.INSTANCE_GPU_COUNT, Operator.DoesNotExist));
        } else if (ImageKeys.NVIDIA.equals(variant)) {
            out.add(Requirement.of(WellKnownLabels.INSTANCE_GPU_COUNT, Operator.Exists));
        } else if (ImageKeys.NEURON.equals(variant)) {
            out.add(Requirement.of(WellKnownLabels.INSTANCE_ACCELERATOR_COUNT, Operator.Exists));
        }
        return List.copyOf(out);
    }
}
