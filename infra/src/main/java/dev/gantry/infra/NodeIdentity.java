package dev.gantry.infra;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.services.eks.CfnAccessEntry;
import software.amazon.awscdk.services.iam.IManagedPolicy;
import software.amazon.awscdk.services.iam.InstanceProfile;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * What a Gantry node runs as: the node role, its instance profile, and the EC2_LINUX access entry that lets
 * kubelets with that role join the cluster (EKS maps it to {@code system:nodes}).
 */
public final class NodeIdentity extends Construct {
    /** AWS-managed policies every EKS worker needs; AmazonEKS_CNI_Policy is optional (IRSA/Pod Identity). */
    static final List<String> WORKER_POLICIES = List.of("AmazonEKSWorkerNodePolicy",
            "AmazonEC2ContainerRegistryPullOnly", "AmazonSSMManagedInstanceCore");
    static final String CNI_POLICY = "AmazonEKS_CNI_Policy";

    private final Role role;
    private final InstanceProfile instanceProfile;
    private final List<String> managedPolicyNames;

    public NodeIdentity(Construct scope, String id, String clusterName, boolean cniPolicy) {
        super(scope, id);
        managedPolicyNames = new ArrayList<>(WORKER_POLICIES);
        if (cniPolicy) {
            managedPolicyNames.add(CNI_POLICY);
        }
        List<IManagedPolicy> policies = managedPolicyNames.stream()
                .map(ManagedPolicy::fromAwsManagedPolicyName).toList();
        role = Role.Builder.create(this, "Role")
                .description("Gantry nodes of EKS cluster " + clusterName)
                .assumedBy(new ServicePrincipal("ec2.amazonaws.com"))
                .managedPolicies(policies)
                .build();
        instanceProfile = InstanceProfile.Builder.create(this, "InstanceProfile").role(role).build();
        CfnAccessEntry.Builder.create(this, "AccessEntry")
                .clusterName(clusterName)
                .principalArn(role.getRoleArn())
                .type("EC2_LINUX")
                .build();
    }

    public Role role() {
        return role;
    }

    /** The AWS-managed policies attached to the role, by name. */
    public List<String> managedPolicyNames() {
        return List.copyOf(managedPolicyNames);
    }

    public InstanceProfile instanceProfile() {
        return instanceProfile;
    }
}
