package dev.gantry.handlers.attach;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.JsonResponses;
import dev.gantry.testing.StubResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;

/**
 * EKS Auto Mode detection through the real EKS SDK against the AWS stub's DescribeCluster, signed as the attach
 * function (the IAM contract evaluates the call): {@code computeConfig.enabled} as EKS returns it for an Auto Mode
 * cluster, absent on a standard one.
 */
class AutoModeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AwsStub stub = AwsStub.start();
    private final EksClient eks = EksClusterInfo.client(Region.US_EAST_1, stub.endpoint(),
            StaticCredentialsProvider.create(AwsBasicCredentials.create("attach", "secret")));

    @AfterEach
    void stop() {
        eks.close();
        stub.close();
    }

    /** The stub's cluster, with EKS Auto Mode's three settings as DescribeCluster returns them. */
    private void autoMode(boolean enabled) {
        stub.onPath("GET", "/clusters/", request -> {
            StubResponse plain = JsonResponses.eksCluster(JsonResponses.EksCluster.defaults()).respond(request);
            try {
                ObjectNode body = (ObjectNode) JSON.readTree(plain.body());
                ObjectNode cluster = (ObjectNode) body.path("cluster");
                cluster.putObject("computeConfig").put("enabled", enabled).put("nodeRoleArn",
                        "arn:aws:iam::" + Ec2State.ACCOUNT + ":role/AmazonEKSAutoNodeRole").putArray("nodePools")
                        .add("general-purpose").add("system");
                cluster.putObject("storageConfig").putObject("blockStorage").put("enabled", enabled);
                cluster.with("kubernetesNetworkConfig").putObject("elasticLoadBalancing").put("enabled", enabled);
                return StubResponse.json(body.toString());
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void anAutoModeClusterHasComputeEnabled() {
        autoMode(true);

        assertThat(AutoMode.computeEnabled(eks, Ec2State.CLUSTER)).isTrue();
        assertThat(stub.requests()).singleElement().satisfies(r -> assertThat(r.path()).isEqualTo("/clusters/" + Ec2State.CLUSTER));
    }

    @Test
    void aClusterWithAutoModeTurnedOffOrNeverOnHasNot() {
        assertThat(AutoMode.computeEnabled(eks, Ec2State.CLUSTER)).as("no computeConfig at all").isFalse();
        autoMode(false);
        assertThat(AutoMode.computeEnabled(eks, Ec2State.CLUSTER)).isFalse();
    }
}
