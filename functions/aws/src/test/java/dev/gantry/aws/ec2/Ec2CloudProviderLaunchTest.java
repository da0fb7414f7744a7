package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.testing.Ec2Resources.Subnet;
import dev.gantry.testing.Ec2Responses;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.RecordedRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The EC2 launcher against the AWS stub with the real SDK clients: what it sends, and what it makes of answers. */
class Ec2CloudProviderLaunchTest extends Ec2StubTest {
    private static final List<String> SPOT_OR_OD = List.of("spot", "on-demand");
    private static final List<String> OD = List.of("on-demand");

    private static Map<String, String> withoutProtocol(RecordedRequest r) {
        Map<String, String> params = new TreeMap<>(r.params());
        params.remove("Action");
        params.remove("Version");
        return params;
    }

    @Test
    void sendsTheWholeCreateFleetRequestForASpotLaunch() {
        LaunchResult result = provider.launch(LaunchFixtures.request("general-abc12", SPOT_OR_OD));

        String template = stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateName");
        assertThat(template).matches("gantry/test-cluster/[0-9a-f]{20}");
        Map<String, String> expected = new TreeMap<>();
        expected.put("ClientToken", "general-abc12");
        expected.put("Type", "instant");
        expected.put("TargetCapacitySpecification.TotalTargetCapacity", "1");
        expected.put("TargetCapacitySpecification.DefaultTargetCapacityType", "spot");
        expected.put("SpotOptions.AllocationStrategy", "price-capacity-optimized");
        expected.put("LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName", template);
        expected.put("LaunchTemplateConfigs.1.LaunchTemplateSpecification.Version", "$Latest");
        String[][] overrides = {
                {"c5.large", "subnet-0000000000000000a", "us-east-1a"}, {"c5.large", "subnet-0000000000000000b", "us-east-1b"},
                {"c5.large", "subnet-0000000000000000c", "us-east-1c"}, {"m5.large", "subnet-0000000000000000a", "us-east-1a"},
                {"m5.large", "subnet-0000000000000000b", "us-east-1b"}, {"m5.large", "subnet-0000000000000000c", "us-east-1c"}};
        for (int i = 0; i < overrides.length; i++) {
            String p = "LaunchTemplateConfigs.1.Overrides." + (i + 1) + ".";
            expected.put(p + "InstanceType", overrides[i][0]);
            expected.put(p + "SubnetId", overrides[i][1]);
            expected.put(p + "AvailabilityZone", overrides[i][2]);
        }
        String[] resources = {"instance", "volume", "fleet"};
        String[][] tags = {{"Name", "general-abc12"}, {"gantry.dev/cluster", "test-cluster"},
                {"gantry.dev/nodeclaim", "general-abc12"}, {"gantry.dev/nodepool", "general"}, {"team", "platform"}};
        for (int r = 0; r < resources.length; r++) {
            String p = "TagSpecification." + (r + 1) + ".";
            expected.put(p + "ResourceType", resources[r]);
            for (int t = 0; t < tags.length; t++) {
                expected.put(p + "Tag." + (t + 1) + ".Key", tags[t][0]);
                expected.put(p + "Tag." + (t + 1) + ".Value", tags[t][1]);
            }
        }
        assertThat(withoutProtocol(stub.lastRequest("CreateFleet"))).containsExactlyEntriesOf(expected);

        assertThat(result.unavailable()).isEmpty();
        assertThat(result.instance().instanceType()).isEqualTo("c5.large");
        assertThat(result.instance().zone()).isEqualTo("us-east-1a");
        assertThat(result.instance().capacityType()).isEqualTo("spot");
        assertThat(result.instance().tags()).containsEntry("gantry.dev/nodeclaim", "general-abc12")
                .doesNotContainKeys("karpenter.sh/nodepool", "karpenter.sh/nodeclaim");
        assertThat(stub.ec2().instances()).singleElement().satisfies(i -> {
            assertThat(i.id()).isEqualTo(result.instance().instanceId());
            assertThat(i.lifecycle()).isEqualTo("spot");
        });
    }

    @Test
    void onDemandLaunchesUseLowestPriceAndNoSpotOptions() {
        provider.launch(LaunchFixtures.request("general-od001", OD));

        Map<String, String> params = stub.lastRequest("CreateFleet").params();
        assertThat(params).containsEntry("TargetCapacitySpecification.DefaultTargetCapacityType", "on-demand")
                .containsEntry("OnDemandOptions.AllocationStrategy", "lowest-price")
                .doesNotContainKey("SpotOptions.AllocationStrategy");
        assertThat(stub.ec2().instances()).singleElement().satisfies(i -> assertThat(i.lifecycle()).isEqualTo("on-demand"));
    }

    @Test
    void launchTemplateCarriesImageProfileGroupsMetadataDisksAndTags() {
        provider.launch(LaunchFixtures.request("general-lt001", SPOT_OR_OD));

        Map<String, String> lt = withoutProtocol(stub.lastRequest("CreateLaunchTemplate"));
        assertThat(lt).containsEntry("LaunchTemplateData.ImageId", "ami-0a1b2c3d4e5f60001")
                .containsEntry("LaunchTemplateData.IamInstanceProfile.Name", "gantry-node-profile")
                .containsEntry("LaunchTemplateData.SecurityGroupId.1", "sg-0123456789abcdef0")
                .containsEntry("LaunchTemplateData.MetadataOptions.HttpTokens", "required")
                .containsEntry("LaunchTemplateData.MetadataOptions.HttpPutResponseHopLimit", "1")
                .containsEntry("LaunchTemplateData.MetadataOptions.HttpEndpoint", "enabled")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.DeviceName", "/dev/xvda")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeSize", "20")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeType", "gp3")
                .containsEntry("LaunchTemplateData.BlockDeviceMapping.1.Ebs.Encrypted", "true")
                .containsEntry("LaunchTemplateData.Monitoring.Enabled", "false")
                .containsEntry("TagSpecification.1.ResourceType", "launch-template");
        // The template's own tags: the controller policy requires cluster and NodePool on the template at create
        // (aws:RequestTag) and on every launch from it (aws:ResourceTag).
        assertThat(stub.ec2().launchTemplates()).singleElement().satisfies(t -> assertThat(t.tags())
                .containsExactlyInAnyOrderEntriesOf(Map.of("gantry.dev/cluster", "test-cluster",
                        "gantry.dev/nodepool", "general", "team", "platform")));
        List<String> tagged = List.of("instance", "volume", "network-interface");
        for (int i = 0; i < 3; i++) {
            String p = "LaunchTemplateData.TagSpecification." + (i + 1) + ".";
            assertThat(lt).containsEntry(p + "ResourceType", tagged.get(i))
                    .containsEntry(p + "Tag.1.Key", "gantry.dev/cluster").containsEntry(p + "Tag.2.Key", "gantry.dev/nodepool")
                    .containsEntry(p + "Tag.3.Key", "team").doesNotContainKey(p + "Tag.4.Key");
        }
        assertThat(lt.keySet()).noneMatch(k -> lt.get(k).startsWith("karpenter.sh/"));
    }

    @Test
    void nodePoolsSharingANodeClassGetATemplateEachTaggedWithItsPool() {
        NodeClass nc = LaunchFixtures.al2023();
        for (String pool : List.of("general", "batch")) {
            provider.launch(LaunchFixtures.request(pool + "-shr01", LaunchFixtures.pool(pool, Map.of(), List.of(), List.of()),
                    nc, LaunchFixtures.types(nc, "c5.large"), OD, Ec2State.ZONES));
        }

        assertThat(stub.ec2().launchTemplates()).hasSize(2).extracting(t -> t.tags().get("gantry.dev/nodepool"))
                .containsExactlyInAnyOrder("general", "batch");
        assertThat(stub.requests("CreateFleet")).extracting(r -> r.param(
                "LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName")).doesNotHaveDuplicates();
    }

    @Test
    void reusesTheLaunchTemplateAcrossClaimsAndAcrossProviderInstances() {
        provider.launch(LaunchFixtures.request("general-r0001", SPOT_OR_OD));
        provider.launch(LaunchFixtures.request("general-r0002", SPOT_OR_OD));
        assertThat(stub.requests("CreateLaunchTemplate")).hasSize(1);

        // A fresh Lambda instance knows nothing: EC2 says the name exists, which is success.
        var coldStart = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));
        coldStart.launch(LaunchFixtures.request("general-r0003", SPOT_OR_OD));

        assertThat(stub.ec2().launchTemplates()).hasSize(1);
        assertThat(stub.requests("CreateFleet")).extracting(r -> r.param(
                "LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName")).containsOnly(
                stub.ec2().launchTemplates().getFirst().name());
        assertThat(stub.ec2().instances()).hasSize(3);
    }

    @Test
    void launchingTheSameClaimTwiceLaunchesOneInstance() {
        LaunchResult first = provider.launch(LaunchFixtures.request("general-idem1", SPOT_OR_OD));
        LaunchResult again = provider.launch(LaunchFixtures.request("general-idem1", SPOT_OR_OD));

        assertThat(again.instance().instanceId()).isEqualTo(first.instance().instanceId());
        assertThat(stub.ec2().instances()).hasSize(1);
        assertThat(stub.requests("CreateFleet")).extracting(r -> r.param("ClientToken")).containsOnly("general-idem1");
    }

    @Test
    void insufficientCapacityOnTheFirstOfferingLaunchesTheNextAndReportsTheFailedOne() {
        stub.ec2().failLaunches("c5.large", "us-east-1a", "InsufficientInstanceCapacity");

        LaunchResult result = provider.launch(LaunchFixtures.request("general-ice01", OD));

        assertThat(result.instance().instanceType()).isEqualTo("c5.large");
        assertThat(result.instance().zone()).isEqualTo("us-east-1b");
        assertThat(result.unavailable()).containsExactly(new OfferingKey("c5.large", "us-east-1a", "on-demand"));
    }

    @Test
    void noCapacityAnywhereThrowsInsufficientCapacityNamingEveryOfferingTried() {
        for (String zone : Ec2State.ZONES) {
            stub.ec2().failLaunches("c5.large", zone, "InsufficientInstanceCapacity");
            stub.ec2().failLaunches("m5.large", zone, "MaxSpotInstanceCountExceeded");
        }

        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("general-ice02", SPOT_OR_OD)))
                .isInstanceOfSatisfying(InsufficientCapacity.class, e -> {
                    assertThat(e.code()).isEqualTo("InsufficientInstanceCapacity");
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.offerings()).hasSize(6).allMatch(k -> k.capacityType().equals("spot"))
                            .contains(new OfferingKey("m5.large", "us-east-1c", "spot"));
                });
    }

    @Test
    void picksTheSubnetWithMostFreeAddressesAndSkipsOneThatRanOut() {
        stub.ec2().addSubnet(new Subnet("subnet-0000000000000000d", "us-east-1a", "use1-az1", "vpc-0123456789abcdef0",
                "10.0.192.0/18", 20000, Map.of(Ec2State.DISCOVERY_TAG, Ec2State.CLUSTER)));
        var nc = LaunchFixtures.al2023();
        var onlyZoneA = LaunchFixtures.request("general-sn001", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "c5.large", "m5.large"), OD, List.of("us-east-1a"));

        stub.ec2().failLaunches("c5.large", "us-east-1a", "InsufficientFreeAddressesInSubnet");
        provider.launch(onlyZoneA);
        assertThat(stub.lastRequest("CreateFleet").param("LaunchTemplateConfigs.1.Overrides.1.SubnetId"))
                .isEqualTo("subnet-0000000000000000d");

        stub.ec2().clearLaunchFailures();
        provider.launch(LaunchFixtures.request("general-sn002", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "c5.large"), OD, List.of("us-east-1a")));
        assertThat(stub.lastRequest("CreateFleet").param("LaunchTemplateConfigs.1.Overrides.1.SubnetId"))
                .as("the full subnet is skipped for 3 minutes").isEqualTo("subnet-0000000000000000a");

        clock.advance(Duration.ofMinutes(4));
        provider.launch(LaunchFixtures.request("general-sn003", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "c5.large"), OD, List.of("us-east-1a")));
        assertThat(stub.lastRequest("CreateFleet").param("LaunchTemplateConfigs.1.Overrides.1.SubnetId"))
                .isEqualTo("subnet-0000000000000000d");
    }

    @Test
    void resolvesTheAl2023AliasThroughTheEksSsmParameters() {
        provider.launch(LaunchFixtures.request("general-ami01", SPOT_OR_OD));

        assertThat(stub.requests("AmazonSSM.GetParameter")).extracting(RecordedRequest::body).containsExactlyInAnyOrder(
                "{\"Name\":\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id\"}",
                "{\"Name\":\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/nvidia/recommended/image_id\"}",
                "{\"Name\":\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/neuron/recommended/image_id\"}",
                "{\"Name\":\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/arm64/standard/recommended/image_id\"}",
                "{\"Name\":\"/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/arm64/nvidia/recommended/image_id\"}");
        assertThat(stub.lastRequest("DescribeImages").filters())
                .containsEntry("image-id", List.of("ami-0a1b2c3d4e5f60001", "ami-0a1b2c3d4e5f60002", Ec2State.NVIDIA_AMD64,
                        Ec2State.NEURON_AMD64, Ec2State.NVIDIA_ARM64));
    }

    @Test
    void armAndIntelTypesGetOneLaunchTemplateEachWithTheirOwnImage() {
        var nc = LaunchFixtures.al2023();
        provider.launch(LaunchFixtures.request("general-arch1", LaunchFixtures.pool(), nc,
                LaunchFixtures.types(nc, "m6g.large", "m5.large"), OD, List.of("us-east-1b")));

        assertThat(stub.requests("CreateLaunchTemplate")).extracting(r -> r.param("LaunchTemplateData.ImageId"))
                .containsExactly("ami-0a1b2c3d4e5f60002", "ami-0a1b2c3d4e5f60001");
        Map<String, String> fleet = stub.lastRequest("CreateFleet").params();
        assertThat(fleet).containsEntry("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "m6g.large")
                .containsEntry("LaunchTemplateConfigs.2.Overrides.1.InstanceType", "m5.large")
                .doesNotContainKey("LaunchTemplateConfigs.1.Overrides.2.InstanceType");
    }

    @Test
    void throttlingIsARetryableCloudException() {
        stub.on("CreateFleet", q -> Ec2Responses.error("RequestLimitExceeded", "Request limit exceeded."));

        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("general-thr01", SPOT_OR_OD)))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e).isNotInstanceOf(InsufficientCapacity.class);
                    assertThat(e.code()).isEqualTo("RequestLimitExceeded");
                    assertThat(e.retryable()).isTrue();
                });
    }

    @Test
    void aPermissionErrorIsNotRetryable() {
        stub.on("CreateFleet", q -> Ec2Responses.error("UnauthorizedOperation", "You are not authorized."));

        assertThatThrownBy(() -> provider.launch(LaunchFixtures.request("general-den01", SPOT_OR_OD)))
                .isInstanceOfSatisfying(CloudException.class, e -> assertThat(e.retryable()).isFalse());
    }
}
