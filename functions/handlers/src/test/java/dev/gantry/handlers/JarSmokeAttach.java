package dev.gantry.handlers;

import dev.gantry.handlers.attach.ClusterAttachHandler;
import dev.gantry.kube.KubeClients;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * Runs from the attach function's jar (plus this class): the handler's SnapStart priming, then a Create and a Delete
 * of the custom resource against the parent's API server, with the webhook token read through a real Secrets Manager
 * client and the final sweep invoked through a real Lambda client (both at the parent's AWS stub). Prints
 * {@code attach jar smoke ok}. Arguments: {@code <kubeUrl> <awsEndpoint> <manifestsJson>}.
 */
public final class JarSmokeAttach {
    private JarSmokeAttach() {
    }

    public static void main(String[] a) {
        URI aws = URI.create(a[1]);
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        ClusterAttachHandler h = new ClusterAttachHandler(cluster -> KubeClients.forUrl(a[0]), arn -> {
            try (SecretsManagerClient sm = SecretsManagerClient.builder().endpointOverride(aws).region(Region.US_EAST_1)
                    .credentialsProvider(creds).httpClient(UrlConnectionHttpClient.create()).build()) {
                return sm.getSecretValue(r -> r.secretId(arn)).secretString();
            }
        }, arn -> {
            try (LambdaClient lambda = LambdaClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(creds)
                    .httpClient(UrlConnectionHttpClient.create()).build()) {
                var r = lambda.invoke(b -> b.functionName(arn).payload(SdkBytes.fromString("{\"finalSweep\":true}", StandardCharsets.UTF_8)));
                if (r.functionError() != null) {
                    throw new IllegalStateException("sweep failed: " + r.payload().asUtf8String());
                }
            }
        });
        h.beforeCheckpoint(null);
        Map<String, Object> props = Map.of("ClusterName", "test-cluster", "WebhookTokenSecretArn",
                "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token", "WebhookUrl", "https://hook.example/",
                "Manifests", a[2], "FinalSweepFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:sweep");
        var created = h.handleRequest(Map.of("RequestType", "Create", "ResourceProperties", props), null);
        var deleted = h.handleRequest(Map.of("RequestType", "Delete", "ResourceProperties", props), null);
        System.out.println("attach jar smoke ok " + created + " " + deleted);
    }
}
