package dev.gantry.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import io.github.cdklabs.cdknag.RegexAppliesTo;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.services.iam.IRole;
import software.constructs.IConstruct;

/**
 * Every cdk-nag (AwsSolutions) finding Gantry accepts, each scoped with {@code appliesTo} to the exact wildcard or
 * managed policy it is about, and each with the reason it is safe. Anything not listed here fails the nag test.
 */
final class GantrySuppressions {
    // Region and account appear as <AWS::Region>/<AWS::AccountId> in an environment-agnostic stack and as
    // literals in one with an env, so the wildcard ARNs are matched with a regex that accepts both.
    private static final String REGION = "(<AWS::Region>|[a-z0-9-]+)";
    private static final String EC2 = "^Resource::arn:<AWS::Partition>:ec2:" + REGION + ":";
    private static final String ACCOUNT = "(<AWS::AccountId>|[0-9]{12}):";
    private static final String SSM = "^Resource::arn:<AWS::Partition>:ssm:" + REGION + "::parameter\\/aws\\/service\\/";
    private static final String MANAGED = "Policy::arn:<AWS::Partition>:iam::aws:policy/";

    private GantrySuppressions() {
    }

    /**
     * Suppressions on one controller role's wildcard ARNs, for exactly the {@link ControllerPolicy} grants it holds.
     *
     * @param created the resource types it may create or terminate (tag-conditioned grants), empty for none
     */
    static void controllerRole(IRole role, List<String> created, boolean launches, boolean readsAmis) {
        List<NagPackSuppression> s = new ArrayList<>();
        s.add(iam5("ec2:Describe* and pricing:GetProducts support no resource-level permissions; Describe* is "
                + "pinned to this region with aws:RequestedRegion.", List.of("^Resource::\\*$")));
        if (!created.isEmpty()) {
            s.add(iam5("IDs of the instances, fleets, volumes, ENIs, launch templates and spot requests Gantry "
                    + "creates are unknown until EC2 creates them; every grant on these ARNs is conditioned on "
                    + "aws:RequestTag or aws:ResourceTag " + GantryTags.CLUSTER + "=<cluster> and a "
                    + GantryTags.NODEPOOL + " tag, as in Karpenter's policy.",
                    created.stream().map(t -> EC2 + ACCOUNT + t + "\\/\\*$").toList()));
        }
        if (launches) {
            s.add(iam5("AMIs, snapshots, subnets, security groups and capacity reservations are chosen at run time "
                    + "by the user's EC2NodeClass selectors. The grant only lets a launch reference them; the instance "
                    + "itself still needs the tag-conditioned grant.",
                    List.of(EC2 + ":image\\/\\*$", EC2 + ":snapshot\\/\\*$", EC2 + ACCOUNT + "subnet\\/\\*$",
                            EC2 + ACCOUNT + "security-group\\/\\*$", EC2 + ACCOUNT + "capacity-reservation\\/\\*$")));
        }
        if (readsAmis) {
            s.add(iam5("Public, AWS-owned AMI parameters; the path depends on the Kubernetes version and "
                    + "architecture resolved at run time (read-only, narrower than Karpenter's /aws/service/*).",
                    List.of(SSM + "eks\\/\\*$", SSM + "bottlerocket\\/\\*$")));
        }
        NagSuppressions.addResourceSuppressions(role.getNode().findChild("DefaultPolicy"), s, true);
    }

    /** The node role's AWS-managed policies. */
    static void nodeRole(IRole role, List<String> managedPolicies) {
        NagSuppressions.addResourceSuppressions(role, List.of(NagPackSuppression.builder()
                .id("AwsSolutions-IAM4")
                .reason("Amazon EKS requires these AWS-managed policies on worker nodes (EKS node IAM role docs); "
                        + "AWS keeps them in step with what kubelet, the VPC CNI and ECR pulls need.")
                .appliesTo(managedPolicies.stream().map(p -> (Object) (MANAGED + p)).toList())
                .build()), true);
    }

    /** The webhook path token. */
    static void webhookToken(IConstruct secret) {
        NagSuppressions.addResourceSuppressions(secret, List.of(NagPackSuppression.builder()
                .id("AwsSolutions-SMG4")
                .reason("The token is part of the webhook URL written into the cluster by the attach step, so a "
                        + "rotation must re-run that step (a redeploy does). It only guards an endpoint that "
                        + "accepts scheduling hints, each re-checked against the cluster.")
                .build()), true);
    }

    /** Optional VPC placement adds the AWS-managed ENI policy to every function role. */
    static void vpcAccess(IRole role) {
        NagSuppressions.addResourceSuppressions(role, List.of(NagPackSuppression.builder()
                .id("AwsSolutions-IAM4")
                .reason("Lambda needs ENI create/delete rights to place a function in a VPC, and documents "
                        + "AWSLambdaVPCAccessExecutionRole as the policy for it.")
                .appliesTo(List.of(MANAGED + "service-role/AWSLambdaVPCAccessExecutionRole"))
                .build()), true);
    }

    /** An IAM5 suppression for the findings matching these anchored regexes. */
    private static NagPackSuppression iam5(String reason, List<String> patterns) {
        return NagPackSuppression.builder().id("AwsSolutions-IAM5").reason(reason)
                .appliesTo(patterns.stream().map(p -> (Object) RegexAppliesTo.builder().regex("/" + p + "/").build())
                        .toList())
                .build();
    }
}
