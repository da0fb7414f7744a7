package dev.gantry.infra;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where the functions run when the cluster endpoint is private: an existing VPC and its private subnets. The subnets
 * need a route to the EKS endpoint and to the AWS APIs (NAT or VPC endpoints).
 */
public record FunctionNetwork(String vpcId, List<String> subnetIds) {
    private static final Pattern VPC = Pattern.compile("vpc-[0-9a-f]{8,17}");
    private static final Pattern SUBNET = Pattern.compile("subnet-[0-9a-f]{8,17}");

    public FunctionNetwork {
        subnetIds = List.copyOf(subnetIds);
        if (vpcId == null || !VPC.matcher(vpcId).matches()) {
            throw new SynthInputException("context vpcId: expected vpc-<hex>, got '" + vpcId + "'");
        }
        if (subnetIds.isEmpty()) {
            throw new SynthInputException("context functionSubnetIds: at least one subnet is needed with vpcId");
        }
        for (String s : subnetIds) {
            if (!SUBNET.matcher(s).matches()) {
                throw new SynthInputException("context functionSubnetIds: expected subnet-<hex>, got '" + s + "'");
            }
        }
    }
}
