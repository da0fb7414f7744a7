package dev.gantry.core.status;

import dev.gantry.core.requirements.Requirement;
import java.util.List;

/**
 * An EC2NodeClass's {@code status} as Gantry writes it: what its selector terms resolved to, and its conditions
 * ({@code SubnetsReady}, {@code SecurityGroupsReady}, {@code AMIsReady}, {@code InstanceProfileReady}, {@code Ready}).
 */
public record NodeClassStatus(List<Subnet> subnets, List<SecurityGroup> securityGroups, List<Ami> amis,
                              String instanceProfile, List<Condition> conditions) {
    public record Subnet(String id, String zone, String zoneId) {
    }

    /** @param name null when the resolver knows only the id */
    public record SecurityGroup(String id, String name) {
    }

    /** @param requirements the instances the image suits ({@code kubernetes.io/arch In [arm64]}) */
    public record Ami(String id, String name, List<Requirement> requirements) {
        public Ami {
            requirements = List.copyOf(requirements == null ? List.of() : requirements);
        }
    }

    public NodeClassStatus {
        subnets = List.copyOf(subnets == null ? List.of() : subnets);
        securityGroups = List.copyOf(securityGroups == null ? List.of() : securityGroups);
        amis = List.copyOf(amis == null ? List.of() : amis);
        conditions = List.copyOf(conditions == null ? List.of() : conditions);
    }

    /** What a NodeClass's selector terms resolved to: the status without its conditions. */
    public NodeClassStatus withConditions(List<Condition> c) {
        return new NodeClassStatus(subnets, securityGroups, amis, instanceProfile, c);
    }
}
