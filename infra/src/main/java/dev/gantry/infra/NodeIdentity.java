package dev.gantry.infra;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.services.eks.CfnAccessEntry;
import software.amazon.awscdk.services.iam.FromRoleArnOptions;
import software.amazon.awscdk.services.iam.IManagedPolicy;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.InstanceProfile;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * What a Gantry node runs as: the node role, its instance profile, and the EC2_LINUX access entry that lets
 * kubelets with that role join the cluster (EKS maps it to {@code system:nodes}); and, for each existing role named
 * with {@code -c nodeRoles=} (Karpenter's node role, say), an instance profile made for it, so that an EC2NodeClass's
 * {@code spec.role} naming it launches with it. Those roles are the user's: nothing here changes them or gives them
 * cluster access (they already join the cluster as Karpenter's nodes did, through their own access entry or
 * aws-auth mapping).
 */
public final class NodeIdentity extends Construct {
    /** AWS-managed policies every EKS worker needs; AmazonEKS_CNI_Policy is optional (IRSA/Pod Identity). */
    static final List<String> WORKER_POLICIES = List.of("AmazonEKSWorkerNodePolicy",
            "AmazonEC2ContainerRegistryPullOnly", "AmazonSSMManagedInstanceCore");
    static final String CNI_POLICY = "AmazonEKS_CNI_Policy";

    private final Role role;
    private final InstanceProfile instanceProfile;
    private final List<String> managedPolicyNames;
    private final List<IRole> extraRoles = new ArrayList<>();
    private final List<InstanceProfile> extraProfiles = new ArrayList<>();

    /** @param nodeRoles existing roles, by name or ARN, an EC2NodeClass may name besides this stack's own */
    public NodeIdentity(Construct scope, String id, String clusterName, boolean cniPolicy, List<String> nodeRoles) {
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
        for (String r : nodeRoles) {
            String name = GantryAutoscalerProps.roleName(r);
            // Imported immutable: CDK never attaches a policy to a role it does not own.
            IRole imported = r.startsWith("arn:")
                    ? Role.fromRoleArn(this, "Role-" + name, r, FromRoleArnOptions.builder().mutable(false).build())
                    : Role.fromRoleName(this, "Role-" + name, name);
            extraRoles.add(imported);
            extraProfiles.add(InstanceProfile.Builder.create(this, "InstanceProfile-" + name).role(imported).build());
        }
    }

    /** Every role the provisioner may pass to EC2: this stack's node role, then the named ones, as ARNs. */
    public List<String> passableRoleArns() {
        List<String> out = new ArrayList<>(List.of(role.getRoleArn()));
        extraRoles.forEach(r -> out.add(r.getRoleArn()));
        return out;
    }

    /**
     * {@code GANTRY_NODE_ROLE_PROFILES}: each named role with its instance profile, {@code role=profile} joined by
     * commas; empty without named roles. (This stack's own role and profile are {@code GANTRY_NODE_ROLE_NAME} and
     * {@code GANTRY_INSTANCE_PROFILE_NAME}.)
     */
    public String roleProfiles() {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < extraRoles.size(); i++) {
            pairs.add(extraRoles.get(i).getRoleName() + "=" + extraProfiles.get(i).getInstanceProfileName());
        }
        return String.join(",", pairs);
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
