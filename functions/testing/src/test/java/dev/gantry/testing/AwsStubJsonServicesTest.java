package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.pricing.model.FilterType;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;
import software.amazon.awssdk.services.sts.StsClient;

/** Proves the stub's canned SSM, Pricing, EKS and STS answers with the real SDK v2 clients. */
class AwsStubJsonServicesTest {
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b"));
    private static AwsStub stub;

    @BeforeAll
    static void start() {
        stub = AwsStub.start();
    }

    @AfterAll
    static void stop() {
        stub.close();
    }

    @BeforeEach
    void forget() {
        stub.clearRequests();
    }

    private static <B extends software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>
            & software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder<B, C>, C> C client(B builder) {
        return builder.endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(CREDENTIALS)
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Test
    void eksDescribeClusterGivesEndpointCaVersionAndServiceCidr() {
        try (EksClient eks = client(EksClient.builder())) {
            var cluster = eks.describeCluster(r -> r.name("test-cluster")).cluster();

            assertThat(cluster.endpoint()).startsWith("https://").endsWith(".eks.amazonaws.com");
            assertThat(cluster.version()).isEqualTo("1.33");
            assertThat(new String(Base64.getDecoder().decode(cluster.certificateAuthority().data())))
                    .startsWith("-----BEGIN CERTIFICATE-----");
            assertThat(cluster.kubernetesNetworkConfig().serviceIpv4Cidr()).isEqualTo("172.20.0.0/16");
            assertThat(cluster.resourcesVpcConfig().clusterSecurityGroupId()).isEqualTo("sg-0123456789abcdef0");
            assertThat(cluster.createdAt()).isNotNull();
            assertThat(stub.lastRequest("GET /clusters/test-cluster").method()).isEqualTo("GET");

            assertThatThrownBy(() -> eks.describeCluster(r -> r.name("nope")))
                    .isInstanceOf(ResourceNotFoundException.class);
        }
    }

    @Test
    void ssmGetParameterResolvesTheEksAmiParameterAndRejectsUnknownNames() {
        try (SsmClient ssm = client(SsmClient.builder())) {
            String name = "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/arm64/standard/recommended/image_id";

            assertThat(ssm.getParameter(r -> r.name(name)).parameter().value()).isEqualTo("ami-0a1b2c3d4e5f60002");
            assertThat(stub.lastRequest("AmazonSSM.GetParameter").body()).contains(name);
            assertThatThrownBy(() -> ssm.getParameter(r -> r.name("/nope")))
                    .isInstanceOf(ParameterNotFoundException.class);
        }
    }

    @Test
    void onTargetReplacesTheCannedAnswer() {
        stub.onTarget("AmazonSSM.GetParameter", JsonResponses.ssmParameters(java.util.Map.of("/x", "y")));
        try (SsmClient ssm = client(SsmClient.builder())) {
            assertThat(ssm.getParameter(r -> r.name("/x")).parameter().value()).isEqualTo("y");
        } finally {
            stub.onTarget("AmazonSSM.GetParameter", JsonResponses.ssmParameters(JsonResponses.defaultSsmParameters()));
        }
    }

    @Test
    void pricingGetProductsReturnsOnDemandPriceDocuments() throws Exception {
        try (PricingClient pricing = client(PricingClient.builder())) {
            var products = pricing.getProducts(r -> r.serviceCode("AmazonEC2").filters(
                    f -> f.type(FilterType.TERM_MATCH).field("instanceType").value("m5.large"))).priceList();

            assertThat(products).hasSize(1);
            var doc = new ObjectMapper().readTree(products.getFirst());
            assertThat(doc.at("/product/attributes/instanceType").asText()).isEqualTo("m5.large");
            var dimension = doc.at("/terms/OnDemand").elements().next().get("priceDimensions").elements().next();
            assertThat(dimension.at("/pricePerUnit/USD").asText()).isEqualTo("0.0960000000");
            assertThat(stub.lastRequest("AWSPriceListService.GetProducts").body()).contains("\"ServiceCode\":\"AmazonEC2\"");
        }
    }

    @Test
    void stsGetCallerIdentityGivesTheAccount() {
        try (StsClient sts = client(StsClient.builder())) {
            var identity = sts.getCallerIdentity();

            assertThat(identity.account()).isEqualTo("123456789012");
            assertThat(identity.arn()).contains(":assumed-role/");
            assertThat(stub.lastRequest("GetCallerIdentity").param("Version")).isEqualTo("2011-06-15");
        }
    }

    @Test
    void unprogrammedRequestsGetAnInvalidActionErrorAndAreStillRecorded() {
        stub.onPath("GET", "/other", r -> StubResponse.json("{}"));
        try (EksClient eks = client(EksClient.builder())) {
            assertThatThrownBy(() -> eks.listClusters()).isInstanceOf(software.amazon.awssdk.core.exception.SdkException.class);
        }
        assertThat(stub.requests()).extracting(RecordedRequest::action).contains("GET /clusters");
    }
}
