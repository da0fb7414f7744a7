package dev.gantry.infra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * The EC2, IAM, EKS, SSM and Pricing statements the controller functions need, modelled on Karpenter's
 * {@code KarpenterControllerPolicy} and tighter where we can be: ARNs are pinned to this region and account, the
 * tag keys are Gantry's own ({@link GantryTags}), and instance profiles are created here rather than by the
 * controller, so it gets no {@code iam:*InstanceProfile} rights at all.
 *
 * <p>Rule of the statements: every EC2 write on a resource Gantry creates or changes (instance, fleet, volume,
 * network interface, launch template, spot request) is conditioned on {@code aws:RequestTag} (at create) or
 * {@code aws:ResourceTag} (after) for this cluster and a NodePool. The only unconditioned write grants name resources
 * a launch merely references (AMI, snapshot, subnet, security group), which EC2 authorises separately from the
 * instance. infra's {@code IamContractTest} evaluates every call the functions' tests make against these statements.
 */
public final class ControllerPolicy {
    /** Resource types a launch creates; each write on them needs the cluster tag. */
    static final List<String> CREATED_TYPES =
            List.of("fleet", "instance", "volume", "network-interface", "launch-template", "spot-instances-request");
    private static final List<String> LAUNCH = List.of("ec2:RunInstances", "ec2:CreateFleet");

    private final Stack stack;
    private final String clusterName;

    public ControllerPolicy(Construct scope, String clusterName) {
        this.stack = Stack.of(scope);
        this.clusterName = clusterName;
    }

    /**
     * Launching: create fleets, instances and launch templates, tagged for this cluster and a NodePool at creation.
     * EC2 authorizes a CreateFleet once per resource involved, as both ec2:CreateFleet and ec2:RunInstances: the
     * resources it creates (request tags), the launch template it launches from (its own tags), and the AMI,
     * snapshots, subnets, security groups and capacity reservation (a reserved launch's target, as in Karpenter's
     * controller policy) it references.
     */
    public List<PolicyStatement> launch() {
        return List.of(
                statement("AllowLaunchReferencedResources", LAUNCH,
                        List.of(ec2Arn("image", "", "*"), ec2Arn("snapshot", "", "*"),
                                ec2Arn("security-group", null, "*"), ec2Arn("subnet", null, "*"),
                                ec2Arn("capacity-reservation", null, "*")), null),
                statement("AllowLaunchFromOwnLaunchTemplates", LAUNCH, List.of(ec2Arn("launch-template", null, "*")),
                        resourceTagged()),
                statement("AllowCreateTaggedForCluster",
                        List.of("ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"), createdArns(),
                        requestTagged()),
                statement("AllowTaggingOnCreate", List.of("ec2:CreateTags"), createdArns(),
                        merge(requestTagged(), Map.of("StringEquals", Map.of("ec2:CreateAction",
                                List.of("RunInstances", "CreateFleet", "CreateLaunchTemplate"))))));
    }

    /** Terminating instances, only ones tagged for this cluster. */
    public PolicyStatement terminate() {
        return statement("AllowTerminateOwnInstances", List.of("ec2:TerminateInstances"),
                List.of(ec2Arn("instance", null, "*")), resourceTagged());
    }

    /**
     * Adoption, the migration from a running Karpenter (the sweep's adoption step): Gantry's own tags (and only those)
     * added to an instance this cluster's Karpenter launched, recognised as Karpenter's own policy scopes its writes:
     * {@code kubernetes.io/cluster/<cluster>=owned} and a {@code karpenter.sh/nodepool} tag. Once tagged, the instance
     * falls under {@link #terminate()} like Gantry's own; no grant terminates an instance only Karpenter's tags mark.
     */
    public PolicyStatement adopt() {
        return statement("AllowAdoptingKarpenterInstances", List.of("ec2:CreateTags"), List.of(ec2Arn("instance", null, "*")),
                Map.of("StringEquals", Map.of("aws:ResourceTag/kubernetes.io/cluster/" + clusterName, "owned",
                                "aws:RequestTag/" + GantryTags.CLUSTER, clusterName),
                        "StringLike", Map.of("aws:ResourceTag/karpenter.sh/nodepool", "*",
                                "aws:RequestTag/" + GantryTags.NODEPOOL, "*"),
                        "ForAllValues:StringEquals", Map.of("aws:TagKeys",
                                List.of(GantryTags.CLUSTER, GantryTags.NODEPOOL, GantryTags.NODECLAIM))));
    }

    /**
     * The sweep's launch template clean-up (aws module's LaunchTemplateCollector): list the templates (no
     * resource-level permissions, so pinned to this region) and delete those tagged for this cluster.
     */
    public List<PolicyStatement> collectLaunchTemplates() {
        return List.of(statement("AllowListingLaunchTemplates", List.of("ec2:DescribeLaunchTemplates"), List.of("*"),
                        Map.of("StringEquals", Map.of("aws:RequestedRegion", stack.getRegion()))),
                statement("AllowDeletingOwnLaunchTemplates", List.of("ec2:DeleteLaunchTemplate"),
                        List.of(ec2Arn("launch-template", null, "*")), resourceTagged()));
    }

    /**
     * EC2 reads: exactly the Describe calls the functions make (AMI, subnet, security-group, capacity reservation and
     * placement group resolution, instance listing, offerings and spot prices, preview instance types' shapes). Describe calls have no
     * resource-level permissions, so they are pinned to this region instead. Every function that prices instance types
     * (provisioner, sweep, termination, interruption) may describe a preview type a NodeOverlay names.
     */
    public PolicyStatement describe() {
        return statement("AllowRegionalReads", List.of("ec2:DescribeCapacityReservations", "ec2:DescribeImages",
                        "ec2:DescribeInstances", "ec2:DescribeInstanceTypeOfferings", "ec2:DescribeInstanceTypes",
                        "ec2:DescribePlacementGroups", "ec2:DescribeSecurityGroups", "ec2:DescribeSpotPriceHistory",
                        "ec2:DescribeSubnets"), List.of("*"),
                Map.of("StringEquals", Map.of("aws:RequestedRegion", stack.getRegion())));
    }

    /**
     * The sweep's status-check step (aws module's Ec2InstanceStatusChecks, Karpenter v1.12's DescribeInstanceStatus
     * polling): no resource-level permissions, so pinned to this region; the sweep's role only.
     */
    public PolicyStatement instanceStatus() {
        return statement("AllowInstanceStatusChecks", List.of("ec2:DescribeInstanceStatus"), List.of("*"),
                Map.of("StringEquals", Map.of("aws:RequestedRegion", stack.getRegion())));
    }

    /** Handing the node roles (the stack's, and those named with {@code -c nodeRoles=}) to EC2, and nothing else to anyone. */
    public PolicyStatement passNodeRoles(List<String> nodeRoleArns) {
        return statement("AllowPassingNodeRoleToEc2", List.of("iam:PassRole"), nodeRoleArns,
                Map.of("StringEquals", Map.of("iam:PassedToService", "ec2.amazonaws.com")));
    }

    /** The API server endpoint and CA of this cluster only (for the EKS token and the fabric8 client). */
    public PolicyStatement describeCluster() {
        return statement("AllowDescribeOwnCluster", List.of("eks:DescribeCluster"), List.of(clusterArn()), null);
    }

    /** AMI resolution from the public EKS and Bottlerocket parameters (Karpenter allows all of /aws/service/*). */
    public PolicyStatement amiParameters() {
        return statement("AllowPublicAmiParameters", List.of("ssm:GetParameter"),
                List.of(ssmArn("aws/service/eks/*"), ssmArn("aws/service/bottlerocket/*")), null);
    }

    /** On-demand prices. The Pricing API has no resource-level permissions. */
    public PolicyStatement pricing() {
        return statement("AllowPricing", List.of("pricing:GetProducts"), List.of("*"), null);
    }

    public String clusterArn() {
        return stack.formatArn(ArnComponents.builder().service("eks").resource("cluster")
                .resourceName(clusterName).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }

    private List<String> createdArns() {
        return CREATED_TYPES.stream().map(t -> ec2Arn(t, null, "*")).toList();
    }

    private Map<String, Object> requestTagged() {
        return Map.of("StringEquals", Map.of("aws:RequestTag/" + GantryTags.CLUSTER, clusterName),
                "StringLike", Map.of("aws:RequestTag/" + GantryTags.NODEPOOL, "*"));
    }

    private Map<String, Object> resourceTagged() {
        return Map.of("StringEquals", Map.of("aws:ResourceTag/" + GantryTags.CLUSTER, clusterName),
                "StringLike", Map.of("aws:ResourceTag/" + GantryTags.NODEPOOL, "*"));
    }

    /** Joins two condition blocks; operators that appear in both have their keys combined. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
        var out = new LinkedHashMap<String, Object>(a);
        b.forEach((op, keys) -> out.merge(op, keys, (x, y) -> {
            var m = new LinkedHashMap<>((Map<String, Object>) x);
            m.putAll((Map<String, Object>) y);
            return m;
        }));
        return out;
    }

    private String ec2Arn(String type, String account, String name) {
        return stack.formatArn(ArnComponents.builder().service("ec2").account(account).resource(type)
                .resourceName(name).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }

    private String ssmArn(String path) {
        return stack.formatArn(ArnComponents.builder().service("ssm").account("").resource("parameter")
                .resourceName(path).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }

    private static PolicyStatement statement(String sid, List<String> actions, List<String> resources,
                                             Map<String, Object> conditions) {
        PolicyStatement.Builder b = PolicyStatement.Builder.create().sid(sid).effect(Effect.ALLOW)
                .actions(actions).resources(resources);
        return conditions == null ? b.build() : b.conditions(conditions).build();
    }
}
