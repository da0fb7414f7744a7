package dev.gantry.aws.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

class EksClusterInfoTest {
    private final AwsStub stub = AwsStub.start();
    private final EksClient eks = EksClusterInfo.client(Region.US_EAST_1, stub.endpoint(),
            // Signed as the attach function (every function but the webhook reads the cluster), for the IAM contract.
            StaticCredentialsProvider.create(AwsBasicCredentials.create("attach", "secret")));

    @AfterEach
    void stop() {
        eks.close();
        stub.close();
    }

    @Test
    void readsEndpointCaVersionServiceCidrAndArnFromDescribeCluster() {
        EksClusterInfo info = EksClusterInfo.describe(eks, Ec2State.CLUSTER);

        JsonResponses.EksCluster expected = JsonResponses.EksCluster.defaults();
        assertThat(info).isEqualTo(new EksClusterInfo(Ec2State.CLUSTER, expected.endpoint(), expected.caData(),
                "1.33", "172.20.0.0/16", "arn:aws:eks:us-east-1:123456789012:cluster/" + Ec2State.CLUSTER));
        assertThat(info.certificateAuthorityPem()).startsWith("-----BEGIN CERTIFICATE-----\n");
        assertThat(stub.lastRequest("GET /clusters/" + Ec2State.CLUSTER).header("authorization"))
                .hasValueSatisfying(auth -> assertThat(auth).contains("/us-east-1/eks/aws4_request"));
    }

    /** An IPv6 cluster has serviceIpv6Cidr and no IPv4 one: it was read as null, and the provisioner could not start. */
    @Test
    void readsTheIpv6ServiceCidrOfAnIpv6Cluster() {
        JsonResponses.EksCluster d = JsonResponses.EksCluster.defaults();
        stub.onPath("GET", "/clusters/", JsonResponses.eksCluster(new JsonResponses.EksCluster(d.name(), d.version(),
                d.endpoint(), d.caData(), "fd30:1c53:5f8a::/108", d.clusterSecurityGroupId())));

        assertThat(EksClusterInfo.describe(eks, Ec2State.CLUSTER).serviceCidr()).isEqualTo("fd30:1c53:5f8a::/108");
    }

    @Test
    void failsWithTheSdksNotFoundForAnUnknownCluster() {
        assertThatThrownBy(() -> EksClusterInfo.describe(eks, "no-such-cluster"))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void refusesAClusterThatHasNoEndpointYet() {
        stub.onPath("GET", "/clusters/creating", request -> StubResponse.json(
                "{\"cluster\":{\"name\":\"creating\",\"status\":\"CREATING\",\"version\":\"1.33\"}}"));

        // As the deployment for cluster "creating" would ask (the IAM contract's function@cluster principal).
        try (EksClient creating = EksClusterInfo.client(Region.US_EAST_1, stub.endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("attach@creating", "secret")))) {
            assertThatThrownBy(() -> EksClusterInfo.describe(creating, "creating"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("CREATING");
        }
    }

    @Test
    void refusesACaThatIsNotBase64() {
        assertThatThrownBy(() -> new EksClusterInfo("c", "https://x", "not base64!", "1.33", null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
