package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;

/**
 * The stub's DescribeInstanceTypes read by the real SDK: EC2's shape (network cards, GPUs, usage classes), its
 * {@code InvalidInstanceType} for an unknown name, its MaxResults bounds and paging (EC2 API reference,
 * DescribeInstanceTypes; Gantry's own double).
 */
class Ec2DescribeInstanceTypesTest {
    private static final Ec2InstanceTypeShape G7X = new Ec2InstanceTypeShape("g7x.2xlarge", 8, 32768, "x86_64", "AMD",
            3.5, 4, 15, "nitro", false, false, List.of("on-demand", "spot"), 10.0, 5000, 450L, 1, "L40S", "NVIDIA", 46068);
    private AwsStub stub;
    private Ec2Client ec2;

    @BeforeEach
    void start() {
        Ec2State state = Ec2State.withDefaults();
        state.addInstanceType(G7X.info(), Ec2State.ZONES, "0.5");
        state.instanceTypeShapes().put(G7X);
        state.addInstanceType(new Ec2Resources.InstanceTypeInfo("c5.xlarge", 4, 8192, "x86_64", 4, 15, "nitro"), Ec2State.ZONES, "0.06");
        stub = AwsStub.start(state, new MutableClock(java.time.Instant.parse("2026-09-01T00:00:00Z")));
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterEach
    void stop() {
        ec2.close();
        stub.close();
    }

    @Test
    void aFullShapeParses() {
        InstanceTypeInfo g = ec2.describeInstanceTypes(r -> r.instanceTypesWithStrings("g7x.2xlarge")).instanceTypes().getFirst();
        assertThat(g.processorInfo().manufacturer()).isEqualTo("AMD");
        assertThat(g.processorInfo().sustainedClockSpeedInGhz()).isEqualTo(3.5);
        assertThat(g.networkInfo().defaultNetworkCardIndex()).isZero();
        assertThat(g.networkInfo().networkCards()).singleElement().satisfies(c -> {
            assertThat(c.maximumNetworkInterfaces()).isEqualTo(4);
            assertThat(c.baselineBandwidthInGbps()).isEqualTo(10.0);
        });
        assertThat(g.gpuInfo().gpus()).singleElement().satisfies(d -> {
            assertThat(d.name()).isEqualTo("L40S");
            assertThat(d.count()).isEqualTo(1);
            assertThat(d.memoryInfo().sizeInMiB()).isEqualTo(46068);
        });
        assertThat(g.instanceStorageInfo().totalSizeInGB()).isEqualTo(450L);
        assertThat(g.ebsInfo().ebsOptimizedInfo().baselineBandwidthInMbps()).isEqualTo(5000);
        assertThat(g.supportedUsageClassesAsStrings()).containsExactly("on-demand", "spot");
    }

    @Test
    void anUnknownNameFailsTheWholeCallWithInvalidInstanceType() {
        assertThatThrownBy(() -> ec2.describeInstanceTypes(r -> r.instanceTypesWithStrings("m5.large", "m99z.large")))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidInstanceType");
                    assertThat(e.awsErrorDetails().errorMessage()).contains("m99z.large").doesNotContain("m5.large");
                });
    }

    @Test
    void maxResultsIsFiveToAHundredAndPagesFollow() {
        assertThatThrownBy(() -> ec2.describeInstanceTypes(r -> r.maxResults(4))).isInstanceOfSatisfying(Ec2Exception.class,
                e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        var first = ec2.describeInstanceTypes(r -> r.maxResults(5).filters(Filter.builder().name("instance-type")
                .values("*.large", "*.xlarge", "*.2xlarge").build()));
        assertThat(first.instanceTypes()).hasSize(5);
        assertThat(first.nextToken()).isNotNull();
        var all = ec2.describeInstanceTypesPaginator(r -> r.maxResults(5)).instanceTypes().stream()
                .map(InstanceTypeInfo::instanceTypeAsString).toList();
        assertThat(all).containsExactly("m5.large", "m5.xlarge", "c5.large", "m6g.large", "g7x.2xlarge", "c5.xlarge");
        assertThat(ec2.describeInstanceTypes(r -> r.filters(Filter.builder().name("supported-usage-class").values("spot")
                .build(), Filter.builder().name("processor-info.supported-architecture").values("arm64").build()))
                .instanceTypes()).extracting(InstanceTypeInfo::instanceTypeAsString).containsExactly("m6g.large");
        assertThatThrownBy(() -> ec2.describeInstanceTypes(r -> r.nextToken("bogus"))).isInstanceOfSatisfying(
                Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
    }
}
