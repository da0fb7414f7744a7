package dev.gantry.handlers.attach;

import dev.gantry.kube.KubeClients;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
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
 * of the custom resource against the parent's API server (applying the manifests compiled into the jar), with the
 * webhook token read through a real Secrets Manager client and the final sweep invoked through a real Lambda client
 * (both at the parent's AWS stub), signed as the attach function and naming the secret's full ARN and the sweep's
 * {@code live} alias as the stack passes them (the IAM contract evaluates these calls). Prints {@code attach jar smoke ok}. Arguments: {@code <kubeUrl> <awsEndpoint>}.
 */
public final class JarSmokeAttach {
    private JarSmokeAttach() {
    }

    public static void main(String[] a) {
        URI aws = URI.create(a[1]);
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("attach", "test"));
        var settings = new ClusterAttachHandler.Settings("test-cluster", "https://hook.example/",
                "arn:aws:secretsmanager:us-east-1:123456789012:secret:gantry-token-AbCdEf",
                "arn:aws:lambda:us-east-1:123456789012:function:sweep:live", Duration.ofSeconds(50), "s3://assets/bundle.yaml",
                java.util.Set.of());
        ClusterAttachHandler h = new ClusterAttachHandler(settings, cluster -> KubeClients.forUrl(a[0]), arn -> {
            try (SecretsManagerClient sm = SecretsManagerClient.builder().endpointOverride(aws).region(Region.US_EAST_1)
                    .credentialsProvider(creds).httpClient(UrlConnectionHttpClient.create()).build()) {
                return sm.getSecretValue(r -> r.secretId(arn)).secretString();
            }
        }, () -> {
            try (LambdaClient lambda = LambdaClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(creds)
                    .httpClient(UrlConnectionHttpClient.create()).build()) {
                var r = lambda.invoke(b -> b.functionName(settings.finalSweepArn()).payload(SdkBytes.fromString("{\"finalSweep\":true}", StandardCharsets.UTF_8)));
                if (r.functionError() != null) {
                    throw new IllegalStateException("sweep failed: " + r.payload().asUtf8String());
                }
            }
        }, new FinalSweep(Clock.systemUTC(), d -> Thread.sleep(d.toMillis())), Clock.systemUTC(),
                // The bundle's reader and validation run from the jar; a v1beta1 NodePool is reported, not applied (the
                // mock server has no server-side apply).
                new ClusterAttachHandler.Sources(url -> """
                        apiVersion: karpenter.sh/v1beta1
                        kind: NodePool
                        metadata: {name: legacy}
                        spec:
                          template:
                            spec:
                              nodeClassRef: {name: default}
                              requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
                        """, cluster -> false));
        h.beforeCheckpoint(null);
        // The payload is ignored but for the request type: what is applied comes from the jar and the settings.
        Map<String, Object> props = Map.of("ClusterName", "test-cluster");
        var created = h.handleRequest(Map.of("RequestType", "Create", "ResourceProperties", props), null);
        var deleted = h.handleRequest(Map.of("RequestType", "Delete", "ResourceProperties", props), null);
        System.out.println("attach jar smoke ok " + created + " " + deleted);
    }
}
