package dev.gantry.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.eks.CfnAccessEntry;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Gives Gantry access to the cluster and applies its in-cluster objects.
 *
 * <p>Access entries: each controller role maps to the {@value ClusterManifests#CONTROLLER_GROUP} group, which only
 * the {@link ClusterManifests#clusterRole() ClusterRole} grants anything to. The attach role gets
 * AmazonEKSClusterAdminPolicy: creating a ClusterRole needs every permission it grants (RBAC escalation rules) and
 * webhook configurations are cluster-scoped, and no narrower EKS access policy covers both. That admin role is
 * assumed only by the attach function, which runs only during deploy and destroy.
 *
 * <p>The custom resource (type {@value #TYPE}) goes through the Provider framework, so a crashed or timed-out Java
 * handler fails the deployment promptly instead of leaving CloudFormation waiting an hour for a response.
 * Contract with {@code ClusterAttachHandler}, all properties strings (CloudFormation stringifies scalars):
 * {@code ClusterName}; {@code Manifests} (a JSON array, apply in order on Create/Update, delete in reverse on
 * Delete); {@code WebhookUrl} and {@code WebhookTokenSecretArn} (set each webhook's {@code clientConfig.url} to
 * the URL followed by the token); {@code FinalSweepFunctionArn} (on Delete, after removing the objects, invoke it
 * synchronously with {@code {"finalSweep":true}} so every instance Gantry launched is terminated).
 */
public final class ClusterAttach extends Construct {
    public static final String TYPE = "Custom::GantryClusterAttach";
    static final String CLUSTER_ADMIN_POLICY = "AmazonEKSClusterAdminPolicy";

    private final CustomResource resource;
    private final Provider provider;

    public ClusterAttach(Construct scope, String id, String clusterName, GantryFunction attach,
                         List<IRole> controllerRoles, String webhookUrl, String tokenSecretArn,
                         String finalSweepFunctionArn) {
        super(scope, id);
        List<CfnAccessEntry> entries = new ArrayList<>();
        for (int i = 0; i < controllerRoles.size(); i++) {
            entries.add(CfnAccessEntry.Builder.create(this, "ControllerAccess" + i)
                    .clusterName(clusterName)
                    .principalArn(controllerRoles.get(i).getRoleArn())
                    .type("STANDARD")
                    .kubernetesGroups(List.of(ClusterManifests.CONTROLLER_GROUP))
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
        provider = Provider.Builder.create(this, "Provider")
                .onEventHandler(attach.alias())
                .frameworkOnEventRole(frameworkRole)
                .logGroup(providerLogs)
                .build();
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("ClusterName", clusterName);
        props.put("Manifests", json(ClusterManifests.all()));
        props.put("WebhookUrl", webhookUrl);
        props.put("WebhookTokenSecretArn", tokenSecretArn);
        props.put("FinalSweepFunctionArn", finalSweepFunctionArn);
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

    private static String json(Object value) {
        try {
            // Sorted keys: the same manifests must give the same string, or every deploy would re-run the attach step.
            return new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("manifests are plain maps and always serialise", e);
        }
    }
}
