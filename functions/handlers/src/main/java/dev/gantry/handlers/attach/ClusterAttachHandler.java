package dev.gantry.handlers.attach;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.aws.eks.EksTokenProvider;
import dev.gantry.handlers.Environment;
import dev.gantry.kube.KubeClients;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The {@code Custom::GantryClusterAttach} resource's handler, behind the CDK Provider framework (which reports to
 * CloudFormation; this returns {@code PhysicalResourceId} or throws). Create and Update apply the {@code Manifests}
 * in order (create, or update when present), pointing the webhooks at {@code WebhookUrl} + {@code hook/<token>}.
 * Delete removes them in reverse order (absent is fine), then invokes {@code FinalSweepFunctionArn} synchronously
 * with {@code {"finalSweep":true}} so every instance Gantry launched is terminated; a failed sweep fails the delete,
 * because silently leaving instances running would cost the user money.
 */
public final class ClusterAttachHandler implements RequestHandler<Map<String, Object>, Map<String, Object>>, org.crac.Resource {
    private final Function<String, KubernetesClient> clients;
    private final Function<String, String> secrets;
    private final FinalSweep finalSweep;
    private final ObjectMapper json = new ObjectMapper();

    /** Invokes the sweep function and fails when it reports an error. */
    @FunctionalInterface
    public interface FinalSweep {
        void run(String functionArn);
    }

    public ClusterAttachHandler() {
        this(Region.of(Environment.system().require(Environment.REGION)));
        org.crac.Core.getGlobalContext().register(this);
    }

    private ClusterAttachHandler(Region region) {
        this(cluster -> {
            EksClusterInfo info = EksClusterInfo.describe(EksClusterInfo.client(region), cluster);
            return KubeClients.forEks(info.endpoint(), info.certificateAuthorityData(),
                    new EksTokenProvider(cluster, region, DefaultCredentialsProvider.builder().build(), Clock.systemUTC()));
        }, arn -> {
            try (SecretsManagerClient sm = SecretsManagerClient.builder().region(region).httpClient(UrlConnectionHttpClient.create()).build()) {
                return sm.getSecretValue(r -> r.secretId(arn)).secretString();
            }
        }, arn -> invoke(region, arn));
    }

    public ClusterAttachHandler(Function<String, KubernetesClient> clients, Function<String, String> secrets, FinalSweep finalSweep) {
        this.clients = clients;
        this.secrets = secrets;
        this.finalSweep = finalSweep;
    }

    /**
     * SnapStart: parse and unmarshal a sample manifest, so Jackson and fabric8's serialization are loaded and warm.
     * No client is built and nothing is sent (clients are made per invocation, with fresh credentials and token).
     */
    @Override
    public void beforeCheckpoint(org.crac.Context<? extends org.crac.Resource> context) {
        primeSerialization();
    }

    @Override
    public void afterRestore(org.crac.Context<? extends org.crac.Resource> context) {
        // Nothing is cached across invocations, so nothing must be refreshed.
    }

    /** The work {@link #beforeCheckpoint} does; returns how many manifests it parsed (for tests). */
    int primeSerialization() {
        String sample = "[{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"gantry-prime\"},\"rules\":[]}]";
        List<ObjectNode> manifests = AttachManifests.parse(json, sample, "https://example.invalid/", "token");
        manifests.forEach(this::resource);
        return manifests.size();
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        String type = String.valueOf(event.get("RequestType"));
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) Objects.requireNonNull(event.get("ResourceProperties"), "ResourceProperties");
        String cluster = property(props, "ClusterName");
        String physicalId = "gantry-attach-" + cluster;
        // Delete does not need the token, and the secret may already be gone; a placeholder URL is never applied.
        String token = type.equals("Delete") ? "unused" : secrets.apply(property(props, "WebhookTokenSecretArn"));
        List<ObjectNode> manifests = AttachManifests.parse(json, property(props, "Manifests"), property(props, "WebhookUrl"), token);
        try (KubernetesClient client = clients.apply(cluster)) {
            switch (type) {
                case "Create", "Update" -> manifests.forEach(m -> apply(client, m));
                case "Delete" -> {
                    List<ObjectNode> reversed = new ArrayList<>(manifests);
                    Collections.reverse(reversed);
                    reversed.forEach(m -> delete(client, m));
                    finalSweep.run(property(props, "FinalSweepFunctionArn"));
                }
                default -> throw new IllegalArgumentException("unknown RequestType " + type);
            }
        }
        return Map.of("PhysicalResourceId", physicalId, "Data", Map.of("Objects", manifests.size()));
    }

    private GenericKubernetesResource resource(ObjectNode manifest) {
        return Serialization.unmarshal(manifest.toString(), GenericKubernetesResource.class);
    }

    private void apply(KubernetesClient client, ObjectNode manifest) {
        client.resource(resource(manifest)).createOr(NonDeletingOperation::update);
    }

    private void delete(KubernetesClient client, ObjectNode manifest) {
        try {
            client.resource(resource(manifest)).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private static String property(Map<String, Object> props, String name) {
        Object v = props.get(name);
        if (v == null || v.toString().isBlank()) {
            throw new IllegalArgumentException("the custom resource needs the property " + name);
        }
        return v.toString();
    }

    private static void invoke(Region region, String functionArn) {
        try (LambdaClient lambda = LambdaClient.builder().region(region).httpClient(UrlConnectionHttpClient.create()).build()) {
            InvokeResponse r = lambda.invoke(b -> b.functionName(functionArn)
                    .payload(SdkBytes.fromString("{\"finalSweep\":true}", StandardCharsets.UTF_8)));
            if (r.functionError() != null) {
                throw new IllegalStateException("the final sweep failed (" + r.functionError() + "): "
                        + r.payload().asUtf8String());
            }
        }
    }
}
