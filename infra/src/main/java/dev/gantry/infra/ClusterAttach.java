package dev.gantry.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gantry.config.deployment.ClusterManifests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.eks.CfnAccessEntry;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Gives Gantry access to the cluster and applies its in-cluster objects.
 *
 * <p>Access entries: each controller role maps to its own group ({@link ClusterManifests#group}), which only its own
 * ClusterRole grants anything to. The attach role gets AmazonEKSClusterAdminPolicy: it creates ClusterRoles and
 * bindings (RBAC lets only a holder of every granted verb, or of {@code escalate}/{@code bind}, do that) and a
 * cluster-scoped webhook configuration, and no narrower EKS access policy covers those (AmazonEKSAdminPolicy and
 * the edit/view policies are namespaced-resource policies; EKS accepts no custom access policy). The residual risk
 * is documented in infra/README.md. What attach calls in the cluster, all covered by that policy: CRDs
 * ({@code apiextensions.k8s.io customresourcedefinitions} get, create, update; never delete), the bundle's objects
 * ({@code karpenter.sh nodepools}, {@code karpenter.k8s.aws ec2nodeclasses}, {@code autoscaling.x-k8s.io
 * capacitybuffers}, {@code podtemplates}: server-side apply, a patch; never delete), list on each CRD's resource
 * (is it served yet), {@code coordination.k8s.io leases} list (is Karpenter's leader alive), the ClusterRoles and
 * bindings, the ValidatingWebhookConfiguration, and on delete nodes list and patch (finalizers).
 *
 * <p>The custom resource (type {@value #TYPE}) goes through the Provider framework, so a crashed or timed-out Java
 * handler fails the deployment promptly instead of leaving CloudFormation waiting an hour for a response. Its
 * properties carry nothing the handler uses: what it applies ({@link ClusterManifests}) is compiled into its jar, and
 * the webhook URL, token secret and final-sweep function come from its environment. The properties only make
 * CloudFormation send an Update (so the handler re-applies) when the manifests ({@code ManifestsDigest}), the attach
 * function's version ({@code AttachVersion}) or the operator's {@code TokenRotation} context value changes.
 */
public final class ClusterAttach extends Construct {
    public static final String TYPE = "Custom::GantryClusterAttach";
    static final String CLUSTER_ADMIN_POLICY = "AmazonEKSClusterAdminPolicy";

    private final CustomResource resource;
    private final Provider provider;

    /** @param controllers the controller functions by name, each getting an access entry with its own group */
    public ClusterAttach(Construct scope, String id, String clusterName, GantryFunction attach,
                         Map<String, GantryFunction> controllers, String tokenRotation) {
        super(scope, id);
        List<CfnAccessEntry> entries = new ArrayList<>();
        int i = 0;
        for (var c : controllers.entrySet()) {
            entries.add(CfnAccessEntry.Builder.create(this, "ControllerAccess" + i++)
                    .clusterName(clusterName)
                    .principalArn(c.getValue().role().getRoleArn())
                    .type("STANDARD")
                    .kubernetesGroups(List.of(ClusterManifests.group(c.getKey())))
                    .build());
        }
        entries.add(CfnAccessEntry.Builder.create(this, "AttachAccess")
                .clusterName(clusterName)
                .principalArn(attach.role().getRoleArn())
                .type("STANDARD")
                .accessPolicies(List.of(CfnAccessEntry.AccessPolicyProperty.builder()
                        .policyArn("arn:" + Stack.of(this).getPartition()
                                + ":eks::aws:cluster-access-policy/" + CLUSTER_ADMIN_POLICY)
                        .accessScope(CfnAccessEntry.AccessScopeProperty.builder().type("cluster").build())
                        .build()))
                .build());
        // Our own role for the framework function, so it gets its log group and the invoke grant, instead of
        // the AWS-managed AWSLambdaBasicExecutionRole (logs:* on every log group).
        LogGroup providerLogs = LogGroup.Builder.create(this, "ProviderLogs").retention(RetentionDays.ONE_MONTH)
                .removalPolicy(RemovalPolicy.DESTROY).build();
        Role frameworkRole = Role.Builder.create(this, "ProviderRole")
                .description("Gantry attach: CDK custom resource framework")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com")).build();
        providerLogs.grantWrite(frameworkRole);
        // The framework role is the only principal granted lambda:InvokeFunction on the attach alias (Provider adds
        // that grant); no resource policy is added, so no other account or service can invoke it.
        provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(attach.alias())
                .frameworkOnEventRole(frameworkRole)
                .logGroup(providerLogs)
                .build();
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("ManifestsDigest", digest(ClusterManifests.all()));
        props.put("AttachVersion", attach.alias().getVersion().getVersion());
        props.put("TokenRotation", tokenRotation);
        resource = CustomResource.Builder.create(this, "Resource")
                .resourceType(TYPE)
                .serviceToken(provider.getServiceToken())
                .properties(props)
                .build();
        // Access must exist before the objects are applied, and outlive them on delete.
        entries.forEach(e -> resource.getNode().addDependency(e));
    }

    public CustomResource resource() {
        return resource;
    }

    public Provider provider() {
        return provider;
    }

    /** SHA-256 of the manifests' JSON with sorted keys: the same manifests always give the same digest. */
    static String digest(Object manifests) {
        try {
            byte[] json = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(manifests).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("manifests are plain maps and every JDK has SHA-256", e);
        }
    }
}
