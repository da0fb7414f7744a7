package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.testing.iam.IamCall;
import dev.gantry.testing.iam.IamCallLog;
import dev.gantry.testing.iam.IamRequest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.FleetType;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateTagSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/** The IAM view of the stub's requests: caller from the SigV4 credential, one check per resource, tags at the time. */
class AwsStubIamTest {
    private static final String EC2 = "arn:aws:ec2:us-east-1:123456789012:";
    private AwsStub stub;
    private Ec2Client ec2;
    private final StaticCredentialsProvider provisioner =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("provisioner", "secret"));

    @BeforeEach
    void start() {
        stub = AwsStub.start();
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(provisioner)
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterEach
    void stop() {
        ec2.close();
        stub.close();
    }

    private static Tag tag(String k, String v) {
        return Tag.builder().key(k).value(v).build();
    }

    private void createTemplate() {
        List<Tag> tags = List.of(tag("gantry.dev/cluster", "test-cluster"), tag("gantry.dev/nodepool", "general"));
        ec2.createLaunchTemplate(r -> r.launchTemplateName("gantry/test-cluster/abc")
                .launchTemplateData(d -> d.imageId("ami-0a1b2c3d4e5f60001").iamInstanceProfile(p -> p.name("gantry-node-profile"))
                        .securityGroupIds("sg-0123456789abcdef0")
                        .tagSpecifications(LaunchTemplateTagSpecificationRequest.builder().resourceType(ResourceType.VOLUME)
                                .tags(tags).build(), LaunchTemplateTagSpecificationRequest.builder()
                                .resourceType(ResourceType.NETWORK_INTERFACE).tags(tags).build()))
                .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.LAUNCH_TEMPLATE)
                        .tags(tag("gantry.dev/cluster", "test-cluster")).build()));
    }

    private String launch(String capacity) {
        var fleet = ec2.createFleet(r -> r.type(FleetType.INSTANT).clientToken("claim-1")
                .targetCapacitySpecification(t -> t.totalTargetCapacity(1).defaultTargetCapacityType(capacity))
                .launchTemplateConfigs(c -> c.launchTemplateSpecification(s -> s.launchTemplateName("gantry/test-cluster/abc")
                        .version("$Latest")).overrides(FleetLaunchTemplateOverridesRequest.builder()
                        .instanceType("m5.large").subnetId("subnet-0000000000000000a").build()))
                .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE)
                        .tags(tag("gantry.dev/cluster", "test-cluster"), tag("gantry.dev/nodeclaim", "claim-1")).build(),
                        TagSpecification.builder().resourceType(ResourceType.FLEET)
                                .tags(tag("gantry.dev/cluster", "test-cluster")).build()));
        return fleet.instances().getFirst().instanceIds().getFirst();
    }

    private IamCall last(String call) {
        return stub.iamCalls().stream().filter(c -> c.call().equals(call)).reduce((a, b) -> b).orElseThrow();
    }

    private static IamRequest check(IamCall call, String action, String resource) {
        return call.authorizations().stream().filter(a -> a.action().equals(action) && a.resource().equals(resource))
                .findFirst().orElseThrow(() -> new AssertionError("no " + action + " on " + resource + " in " + call));
    }

    @Test
    void theCallerIsTheAccessKeyIdAndEveryCheckCarriesTheRequestedRegion() {
        ec2.describeSubnets();
        IamCall call = last("ec2:DescribeSubnets");
        assertThat(call.principal()).isEqualTo("provisioner");
        assertThat(call.authorizations()).singleElement().satisfies(a -> {
            assertThat(a.resource()).isEqualTo("*");
            assertThat(a.values("aws:RequestedRegion")).containsExactly("us-east-1");
        });
    }

    @Test
    void createLaunchTemplateIsCheckedWithItsRequestTagsAndTaggingOnCreate() {
        createTemplate();
        IamCall call = last("ec2:CreateLaunchTemplate");
        IamRequest create = check(call, "ec2:CreateLaunchTemplate", EC2 + "launch-template/*");
        assertThat(create.values("aws:RequestTag/gantry.dev/cluster")).containsExactly("test-cluster");
        assertThat(create.values("aws:RequestTag/gantry.dev/nodepool")).isNull();
        assertThat(create.values("aws:TagKeys")).containsExactly("gantry.dev/cluster");
        IamRequest tagging = check(call, "ec2:CreateTags", EC2 + "launch-template/*");
        assertThat(tagging.values("ec2:CreateAction")).containsExactly("CreateLaunchTemplate");
    }

    @Test
    void createFleetIsCheckedOnEveryResourceItCreatesOrUsesAndPassesTheProfilesRole() {
        createTemplate();
        String templateId = stub.ec2().launchTemplates().getFirst().id();
        launch("spot");
        IamCall call = last("ec2:CreateFleet");
        assertThat(call.authorizations()).extracting(IamRequest::action).contains("ec2:CreateFleet",
                "ec2:RunInstances", "ec2:CreateTags", "iam:PassRole");
        for (String action : List.of("ec2:CreateFleet", "ec2:RunInstances")) {
            assertThat(check(call, action, EC2 + "launch-template/" + templateId).values("aws:ResourceTag/gantry.dev/cluster"))
                    .containsExactly("test-cluster");
            assertThat(check(call, action, "arn:aws:ec2:us-east-1::image/ami-0a1b2c3d4e5f60001")
                    .values("aws:ResourceTag/karpenter.sh/discovery")).containsExactly("test-cluster");
            check(call, action, EC2 + "subnet/subnet-0000000000000000a");
            check(call, action, EC2 + "security-group/sg-0123456789abcdef0");
            assertThat(check(call, action, EC2 + "instance/*").values("aws:RequestTag/gantry.dev/nodeclaim"))
                    .containsExactly("claim-1");
            assertThat(check(call, action, EC2 + "volume/*").values("aws:RequestTag/gantry.dev/nodepool"))
                    .as("from the template's tag specification").containsExactly("general");
            check(call, action, EC2 + "network-interface/*");
            check(call, action, EC2 + "spot-instances-request/*");
        }
        assertThat(check(call, "ec2:CreateFleet", EC2 + "fleet/*").values("aws:RequestTag/gantry.dev/cluster"))
                .containsExactly("test-cluster");
        assertThat(check(call, "ec2:CreateTags", EC2 + "instance/*").values("ec2:CreateAction")).containsExactly("CreateFleet");
        assertThat(check(call, "iam:PassRole", "arn:aws:iam::123456789012:role/gantry-node-role")
                .values("iam:PassedToService")).containsExactly("ec2.amazonaws.com");
    }

    @Test
    void anOnDemandFleetCreatesNoSpotRequest() {
        createTemplate();
        launch(DefaultTargetCapacityType.ON_DEMAND.toString());
        assertThat(last("ec2:CreateFleet").authorizations()).extracting(IamRequest::resource)
                .noneMatch(r -> r.contains("spot-instances-request"));
    }

    @Test
    void terminationIsCheckedPerInstanceWithTheTagsItHadBefore() {
        createTemplate();
        String id = launch("spot");
        ec2.terminateInstances(r -> r.instanceIds(id));
        assertThat(last("ec2:TerminateInstances").authorizations()).singleElement().satisfies(a -> {
            assertThat(a.resource()).isEqualTo(EC2 + "instance/" + id);
            assertThat(a.values("aws:ResourceTag/gantry.dev/nodeclaim")).containsExactly("claim-1");
        });
    }

    @Test
    void ssmParametersAndTheEksClusterAreCheckedOnTheirArns() {
        try (SsmClient ssm = SsmClient.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("sweep", "s")))
                .httpClient(UrlConnectionHttpClient.create()).build();
             EksClient eks = EksClient.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(provisioner).httpClient(UrlConnectionHttpClient.create()).build()) {
            String name = JsonResponses.defaultSsmParameters().keySet().iterator().next();
            ssm.getParameter(r -> r.name(name));
            eks.describeCluster(r -> r.name(Ec2State.CLUSTER));
            IamCall get = last("ssm:GetParameter");
            assertThat(get.principal()).isEqualTo("sweep");
            assertThat(get.authorizations()).singleElement().satisfies(a -> assertThat(a.resource())
                    .isEqualTo("arn:aws:ssm:us-east-1::parameter" + name));
            assertThat(last("eks:DescribeCluster").authorizations()).singleElement().satisfies(a ->
                    assertThat(a.resource()).isEqualTo("arn:aws:eks:us-east-1:123456789012:cluster/test-cluster"));
        }
    }

    @Test
    void aRequestTheStubRefusesIsNoIamCall() {
        ec2.describeSubnets();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ec2.terminateInstances(r -> r.instanceIds("i-0missing")))
                .isInstanceOf(software.amazon.awssdk.services.ec2.model.Ec2Exception.class);
        assertThat(stub.iamCalls()).extracting(IamCall::call).containsExactly("ec2:DescribeSubnets");
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aRecordedCallSurvivesItsJsonLine() {
        createTemplate();
        IamCall call = last("ec2:CreateLaunchTemplate");
        assertThat(IamCallLog.fromJson(IamCallLog.toJson(call))).isEqualTo(call);
    }
}
