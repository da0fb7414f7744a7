package dev.gantry.aws.ec2;

import dev.gantry.aws.ec2.AmiResolver.Ami;
import dev.gantry.aws.ec2.SubnetResolver.ZonalSubnet;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.core.reservation.CapacityReservation;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The resolvers' answers as an EC2NodeClass status (conditions left to the status writer). */
final class NodeClassStatusOf {
    private NodeClassStatusOf() {
    }

    static NodeClassStatus of(NodeClass nodeClass, List<ZonalSubnet> subnets, List<String> groupIds, Map<String, Ami> amis,
                              String instanceProfile, List<CapacityReservation> reservations, Instant now) {
        return new NodeClassStatus(
                subnets.stream().sorted(Comparator.comparing(ZonalSubnet::id))
                        .map(s -> new NodeClassStatus.Subnet(s.id(), s.zone(), s.zoneId())).toList(),
                groupIds.stream().sorted().map(id -> new NodeClassStatus.SecurityGroup(id, null)).toList(),
                amis.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> new NodeClassStatus.Ami(e.getValue().id(),
                        e.getValue().name(), List.of(Requirement.of("kubernetes.io/arch", Operator.In, e.getKey())))).toList(),
                instanceProfile, List.of(), reservations.stream().map(r -> NodeClassStatus.Reservation.of(r, now)).toList());
    }
}
