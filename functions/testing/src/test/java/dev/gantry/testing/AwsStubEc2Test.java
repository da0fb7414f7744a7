package dev.gantry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.Ec2Exception;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateConfigRequest;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.FleetType;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.InstanceType;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/** Proves the stub's EC2 query-XML answers and its launch model with the real SDK v2 Ec2Client. */
class AwsStubEc2Test {
    private AwsStub stub;
    private Ec2Client ec2;

    @BeforeEach
    void start() {
        stub = AwsStub.start();
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD)).build();
        ec2.createLaunchTemplate(r -> r.launchTemplateName("gantry-lt").launchTemplateData(d -> d.imageId("ami-0a1b2c3d4e5f60001")));
    }

    @AfterEach
    void stop() {
        ec2.close();
        stub.close();
    }

    private CreateFleetResponse launch(String token, String... typeAndSubnet) {
        return launch(token, 1, typeAndSubnet);
    }

    private CreateFleetResponse launch(String token, int capacity, String... typeAndSubnet) {
        FleetLaunchTemplateOverridesRequest[] overrides = new FleetLaunchTemplateOverridesRequest[typeAndSubnet.length / 2];
        for (int i = 0; i < overrides.length; i++) {
            overrides[i] = FleetLaunchTemplateOverridesRequest.builder().instanceType(typeAndSubnet[2 * i])
                    .subnetId(typeAndSubnet[2 * i + 1]).build();
        }
        return ec2.createFleet(CreateFleetRequest.builder().type(FleetType.INSTANT).clientToken(token)
                .targetCapacitySpecification(t -> t.totalTargetCapacity(capacity)
                        .defaultTargetCapacityType(DefaultTargetCapacityType.SPOT))
                .spotOptions(s -> s.allocationStrategy("price-capacity-optimized"))
                .launchTemplateConfigs(FleetLaunchTemplateConfigRequest.builder()
                        .launchTemplateSpecification(s -> s.launchTemplateName("gantry-lt").version("$Latest"))
                        .overrides(overrides).build())
                .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE)
                        .tags(Tag.builder().key("gantry.dev/cluster").value("test-cluster").build(),
                                Tag.builder().key("gantry.dev/nodeclaim").value(token).build()).build())
                .build());
    }

    @Test
    void createFleetLaunchesTheFirstOverrideAndTheSdkParsesTheInstance() {
        CreateFleetResponse response = launch("claim-a", "m5.large", "subnet-0000000000000000b",
                "c5.large", "subnet-0000000000000000a");

        assertThat(response.fleetId()).startsWith("fleet-");
        assertThat(response.errors()).isEmpty();
        assertThat(response.instances()).singleElement().satisfies(i -> {
            assertThat(i.instanceIds()).singleElement().asString().startsWith("i-0");
            assertThat(i.instanceType()).isEqualTo(InstanceType.M5_LARGE);
            assertThat(i.lifecycleAsString()).isEqualTo("spot");
            assertThat(i.launchTemplateAndOverrides().overrides().availabilityZone()).isEqualTo("us-east-1b");
            assertThat(i.launchTemplateAndOverrides().overrides().subnetId()).isEqualTo("subnet-0000000000000000b");
            assertThat(i.launchTemplateAndOverrides().launchTemplateSpecification().launchTemplateName())
                    .isEqualTo("gantry-lt");
        });
        RecordedRequest sent = stub.lastRequest("CreateFleet");
        assertThat(sent.param("Type")).isEqualTo("instant");
        assertThat(sent.param("ClientToken")).isEqualTo("claim-a");
        assertThat(sent.param("SpotOptions.AllocationStrategy")).isEqualTo("price-capacity-optimized");
        assertThat(sent.members("LaunchTemplateConfigs.1.Overrides")).extracting(o -> o.get("InstanceType"))
                .containsExactly("m5.large", "c5.large");
        assertThat(sent.param("TagSpecification.1.ResourceType")).isEqualTo("instance");
    }

    @Test
    void createFleetReportsInjectedCapacityErrorsAndLaunchesTheNextOverride() {
        stub.ec2().failLaunches("m5.large", "us-east-1a", "InsufficientInstanceCapacity");

        CreateFleetResponse response = launch("claim-b", "m5.large", "subnet-0000000000000000a",
                "m5.large", "subnet-0000000000000000c");

        assertThat(response.errors()).singleElement().satisfies(e -> {
            assertThat(e.errorCode()).isEqualTo("InsufficientInstanceCapacity");
            assertThat(e.errorMessage()).isNotBlank();
            assertThat(e.launchTemplateAndOverrides().overrides().instanceType()).isEqualTo(InstanceType.M5_LARGE);
            assertThat(e.launchTemplateAndOverrides().overrides().availabilityZone()).isEqualTo("us-east-1a");
        });
        assertThat(response.instances()).singleElement()
                .satisfies(i -> assertThat(i.launchTemplateAndOverrides().overrides().availabilityZone())
                        .isEqualTo("us-east-1c"));
    }

    @Test
    void anOverrideWhoseArchitectureIsNotTheImagesIsRefusedInEc2sWordsAndTheNextOneLaunches() {
        // gantry-lt is on the x86_64 image: EC2 refuses the arm64 type for it and goes on to the next override.
        CreateFleetResponse response = launch("claim-arch", "m6g.large", "subnet-0000000000000000a",
                "m5.large", "subnet-0000000000000000a");

        assertThat(response.errors()).singleElement().satisfies(e -> {
            assertThat(e.errorCode()).isEqualTo("InvalidParameterValue");
            assertThat(e.errorMessage()).startsWith("The architecture 'arm64' of the specified instance type does not match "
                    + "the architecture 'x86_64' of the specified AMI.");
            assertThat(e.launchTemplateAndOverrides().overrides().instanceTypeAsString()).isEqualTo("m6g.large");
        });
        assertThat(response.instances()).singleElement().satisfies(i -> assertThat(i.instanceTypeAsString()).isEqualTo("m5.large"));
    }

    @Test
    void createFleetWithNoCapacityLeftReturnsOnlyErrors() {
        stub.ec2().failLaunches("m5.large", "us-east-1a", "InsufficientInstanceCapacity");

        CreateFleetResponse response = launch("claim-c", "m5.large", "subnet-0000000000000000a");

        assertThat(response.instances()).isEmpty();
        assertThat(response.errors()).hasSize(1);
        assertThat(stub.ec2().instances()).isEmpty();
    }

    @Test
    void aFleetOfSeveralListsTheInstancesOfEachOverrideTogetherAndReportsThePoolThatRanDry() {
        stub.ec2().limitCapacity("m5.large", "us-east-1a", 2);

        CreateFleetResponse response = launch("claim-many", 5, "m5.large", "subnet-0000000000000000a",
                "m5.large", "subnet-0000000000000000b");

        assertThat(response.instances()).hasSize(2);
        assertThat(response.instances().get(0).instanceIds()).hasSize(2);
        assertThat(response.instances().get(0).launchTemplateAndOverrides().overrides().availabilityZone()).isEqualTo("us-east-1a");
        assertThat(response.instances().get(1).instanceIds()).hasSize(3);
        assertThat(response.errors()).singleElement().satisfies(e -> {
            assertThat(e.errorCode()).isEqualTo("InsufficientInstanceCapacity");
            assertThat(e.launchTemplateAndOverrides().overrides().availabilityZone()).isEqualTo("us-east-1a");
        });
        assertThat(stub.ec2().instances()).hasSize(5);
    }

    @Test
    void aFleetAnswersInPartWhenEveryPoolRunsDryBeforeItsTargetCapacity() {
        stub.ec2().limitCapacity("m5.large", "us-east-1a", 3);

        CreateFleetResponse response = launch("claim-short", 5, "m5.large", "subnet-0000000000000000a");

        assertThat(response.instances()).singleElement().satisfies(i -> assertThat(i.instanceIds()).hasSize(3));
        assertThat(response.errors()).hasSize(1);
    }

    @Test
    void aTotalTargetCapacityOutsideWhatAnInstantFleetTakesIsRejected() {
        for (int capacity : new int[] {0, 1001}) {
            assertThatThrownBy(() -> launch("claim-cap" + capacity, capacity, "m5.large", "subnet-0000000000000000a"))
                    .isInstanceOfSatisfying(Ec2Exception.class, e ->
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        }
        assertThat(stub.ec2().instances()).isEmpty();
    }

    @Test
    void aClientTokenReusedWithOtherParametersIsAnIdempotentParameterMismatch() {
        launch("claim-reused", 2, "m5.large", "subnet-0000000000000000a");

        assertThatThrownBy(() -> launch("claim-reused", 3, "m5.large", "subnet-0000000000000000a"))
                .isInstanceOfSatisfying(Ec2Exception.class, e ->
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("IdempotentParameterMismatch"));
        assertThatThrownBy(() -> launch("claim-reused", 2, "c5.large", "subnet-0000000000000000a"))
                .isInstanceOf(Ec2Exception.class);
        assertThat(launch("claim-reused", 2, "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds())
                .hasSize(2);
        assertThat(stub.ec2().instances()).hasSize(2);
    }

    @Test
    void aClientTokenLongerThanEc2sSixtyFourCharactersIsRefused() {
        assertThatThrownBy(() -> launch("c".repeat(65), "m5.large", "subnet-0000000000000000a"))
                .isInstanceOfSatisfying(Ec2Exception.class, e ->
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        assertThat(stub.ec2().instances()).isEmpty();
        assertThat(launch("c".repeat(64), "m5.large", "subnet-0000000000000000a").instances()).hasSize(1);
    }

    @Test
    void anInstanceLaunchedWithinTheDescribeLagIsMissingFromDescribeInstancesByFilterAndById() {
        stub.ec2().describeLag(java.time.Duration.ofDays(1));
        String id = launch("claim-lag", "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds().getFirst();

        assertThat(ec2.describeInstances(r -> r.filters(Filter.builder().name("tag:gantry.dev/nodeclaim")
                .values("claim-lag").build())).reservations()).isEmpty();
        assertThatThrownBy(() -> ec2.describeInstances(r -> r.instanceIds(id)))
                .isInstanceOfSatisfying(Ec2Exception.class, e ->
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidInstanceID.NotFound"));
        stub.ec2().describeLag(java.time.Duration.ZERO);
        assertThat(ec2.describeInstances(r -> r.instanceIds(id)).reservations()).hasSize(1);
    }

    @Test
    void sameClientTokenReturnsTheSameInstanceWithoutLaunchingAgain() {
        String first = launch("claim-d", "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds().getFirst();
        String second = launch("claim-d", "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds().getFirst();

        assertThat(second).isEqualTo(first);
        assertThat(stub.ec2().instances()).hasSize(1);
    }

    @Test
    void describeInstancesFiltersLaunchedInstancesByTagAndShowsTermination() {
        String mine = launch("claim-e", "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds().getFirst();
        stub.ec2().addInstance(new Ec2Resources.Instance("i-0foreign000000001", "m5.large", "us-east-1a",
                "subnet-0000000000000000a", "ami-1", "on-demand", "running", java.time.Instant.EPOCH, "10.0.0.9",
                java.util.Map.of("other", "x")));

        var found = ec2.describeInstances(r -> r.filters(Filter.builder().name("tag:gantry.dev/cluster")
                .values("test-cluster").build())).reservations().stream()
                .flatMap(r -> r.instances().stream()).toList();

        assertThat(found).extracting(Instance::instanceId).containsExactly(mine);
        Instance instance = found.getFirst();
        assertThat(instance.state().name()).isEqualTo(InstanceStateName.RUNNING);
        assertThat(instance.placement().availabilityZone()).isEqualTo("us-east-1a");
        assertThat(instance.instanceTypeAsString()).isEqualTo("m5.large");
        assertThat(instance.instanceLifecycleAsString()).isEqualTo("spot");
        assertThat(instance.launchTime()).isNotNull();
        assertThat(instance.tags()).contains(Tag.builder().key("gantry.dev/nodeclaim").value("claim-e").build());

        var terminated = ec2.terminateInstances(r -> r.instanceIds(mine)).terminatingInstances().getFirst();
        assertThat(terminated.previousState().name()).isEqualTo(InstanceStateName.RUNNING);
        assertThat(terminated.currentState().name()).isEqualTo(InstanceStateName.SHUTTING_DOWN);
        assertThat(ec2.describeInstances(r -> r.instanceIds(mine)).reservations().getFirst().instances().getFirst()
                .state().name()).isEqualTo(InstanceStateName.TERMINATED);
    }

    @Test
    void unknownInstanceIdsFailWithTheEc2ErrorCode() {
        assertThatThrownBy(() -> ec2.terminateInstances(r -> r.instanceIds("i-0000000000000dead")))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidInstanceID.NotFound");
                    assertThat(e.statusCode()).isEqualTo(400);
                });
    }

    @Test
    void programmedErrorResponseReachesTheCallerAsEc2Exception() {
        stub.on("DescribeSubnets", request -> Ec2Responses.error("UnauthorizedOperation", "You are not authorized."));

        assertThatThrownBy(() -> ec2.describeSubnets(r -> {}))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnauthorizedOperation");
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("You are not authorized.");
                });
    }

    @Test
    void instancesCarryTheTemplateTheyWereLaunchedFromAndAnUnknownTemplateFailsTheFleet() {
        String id = launch("claim-t", "m5.large", "subnet-0000000000000000a").instances().getFirst().instanceIds().getFirst();
        assertThat(stub.ec2().instance(id).orElseThrow().tags()).containsEntry("aws:ec2launchtemplate:id",
                stub.ec2().launchTemplates().getFirst().id());

        ec2.deleteLaunchTemplate(r -> r.launchTemplateName("gantry-lt"));
        assertThatThrownBy(() -> launch("claim-u", "m5.large", "subnet-0000000000000000a"))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("InvalidLaunchTemplateName.NotFoundException"));
    }

    @Test
    void launchTemplatesAreCreatedDescribedByNameAndDeleted() {
        var created = ec2.createLaunchTemplate(r -> r.launchTemplateName("gantry-abc")
                .launchTemplateData(d -> d.imageId("ami-0a1b2c3d4e5f60001").userData("dXNlcmRhdGE="))
                .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.LAUNCH_TEMPLATE)
                        .tags(Tag.builder().key("gantry.dev/cluster").value("test-cluster").build()).build()))
                .launchTemplate();
        assertThat(created.launchTemplateId()).startsWith("lt-0");
        assertThat(created.latestVersionNumber()).isEqualTo(1L);
        assertThat(stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateData.UserData")).isEqualTo("dXNlcmRhdGE=");

        assertThatThrownBy(() -> ec2.createLaunchTemplate(r -> r.launchTemplateName("gantry-abc")
                .launchTemplateData(d -> d.imageId("ami-1")))).isInstanceOfSatisfying(Ec2Exception.class, e ->
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidLaunchTemplateName.AlreadyExistsException"));
        assertThat(ec2.describeLaunchTemplates(r -> r.launchTemplateNames("gantry-abc")).launchTemplates())
                .singleElement().satisfies(t -> {
                    assertThat(t.launchTemplateId()).isEqualTo(created.launchTemplateId());
                    assertThat(t.tags()).extracting(Tag::key).containsExactly("gantry.dev/cluster");
                });
        assertThat(ec2.describeLaunchTemplates(r -> r.filters(Filter.builder().name("tag:gantry.dev/cluster")
                .values("test-cluster").build())).launchTemplates()).hasSize(1);

        ec2.deleteLaunchTemplate(r -> r.launchTemplateName("gantry-abc"));
        assertThatThrownBy(() -> ec2.describeLaunchTemplates(r -> r.launchTemplateNames("gantry-abc")))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("InvalidLaunchTemplateName.NotFoundException"));
    }

    @Test
    void describeSubnetsSecurityGroupsAndImagesSelectByTagAndId() {
        Filter discovery = Filter.builder().name("tag:karpenter.sh/discovery").values("test-cluster").build();

        var subnets = ec2.describeSubnets(r -> r.filters(discovery)).subnets();
        assertThat(subnets).extracting(s -> s.availabilityZone())
                .containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        assertThat(subnets.getFirst().availableIpAddressCount()).isEqualTo(16000);
        assertThat(subnets.getFirst().availabilityZoneId()).isEqualTo("use1-az1");
        assertThat(ec2.describeSubnets(r -> r.subnetIds("subnet-0000000000000000b")).subnets()).hasSize(1);
        assertThat(ec2.describeSubnets(r -> r.filters(Filter.builder().name("tag:karpenter.sh/discovery")
                .values("other").build())).subnets()).isEmpty();

        assertThat(ec2.describeSecurityGroups(r -> r.filters(discovery)).securityGroups())
                .singleElement().satisfies(g -> assertThat(g.groupId()).isEqualTo("sg-0123456789abcdef0"));
        assertThat(ec2.describeImages(r -> r.filters(Filter.builder().name("name")
                .values("amazon-eks-node-al2023-arm64-standard-*").build())).images())
                .singleElement().satisfies(i -> {
                    assertThat(i.architectureAsString()).isEqualTo("arm64");
                    assertThat(i.creationDate()).isEqualTo("2025-01-01T00:00:00Z");
                });
    }

    @Test
    void describeInstanceTypesOfferingsAndSpotPricesParse() {
        var types = ec2.describeInstanceTypes(r -> r.instanceTypesWithStrings("m5.large", "m6g.large")).instanceTypes();
        assertThat(types).hasSize(2);
        var m5 = types.getFirst();
        assertThat(m5.instanceType()).isEqualTo(InstanceType.M5_LARGE);
        assertThat(m5.vCpuInfo().defaultVCpus()).isEqualTo(2);
        assertThat(m5.memoryInfo().sizeInMiB()).isEqualTo(8192L);
        assertThat(m5.networkInfo().maximumNetworkInterfaces()).isEqualTo(3);
        assertThat(m5.networkInfo().ipv4AddressesPerInterface()).isEqualTo(10);
        assertThat(m5.processorInfo().supportedArchitecturesAsStrings()).containsExactly("x86_64");
        assertThat(m5.supportedUsageClassesAsStrings()).containsExactly("on-demand", "spot");
        assertThat(m5.hypervisorAsString()).isEqualTo("nitro");

        var offerings = ec2.describeInstanceTypeOfferings(r -> r.locationType("availability-zone")
                .filters(Filter.builder().name("location").values("us-east-1b").build())).instanceTypeOfferings();
        assertThat(offerings).hasSize(4).allSatisfy(o -> assertThat(o.location()).isEqualTo("us-east-1b"));

        var prices = ec2.describeSpotPriceHistory(r -> r.instanceTypesWithStrings("c5.large")
                .productDescriptions("Linux/UNIX")).spotPriceHistory();
        assertThat(prices).hasSize(3).allSatisfy(p -> {
            assertThat(p.spotPrice()).isEqualTo("0.0310");
            assertThat(p.timestamp()).isNotNull();
        });
        assertThat(ec2.describeSpotPriceHistoryPaginator(r -> r.instanceTypesWithStrings("c5.large"))
                .spotPriceHistory().stream().count()).isEqualTo(3);
    }

    @Test
    void createTagsAddsTheTagsToTheInstanceAndDescribeInstancesFiltersOnThem() {
        stub.ec2().addInstance(new Ec2Resources.Instance("i-0000000000000001", "m5.large", "us-east-1a",
                "subnet-0000000000000000a", "ami-1", "on-demand", "running", java.time.Instant.EPOCH, "10.0.0.9",
                java.util.Map.of("Name", "old", "karpenter.sh/nodepool", "general")));

        ec2.createTags(r -> r.resources("i-0000000000000001").tags(Tag.builder().key("Name").value("node-a").build(),
                Tag.builder().key("gantry.dev/cluster").value("test-cluster").build()));

        RecordedRequest sent = stub.lastRequest("CreateTags");
        assertThat(sent.values("ResourceId")).containsExactly("i-0000000000000001");
        assertThat(sent.header("content-type")).get().asString().startsWith("application/x-www-form-urlencoded");
        assertThat(stub.ec2().instance("i-0000000000000001").orElseThrow().tags()).containsEntry("Name", "node-a")
                .containsEntry("gantry.dev/cluster", "test-cluster").containsEntry("karpenter.sh/nodepool", "general");
        assertThat(ec2.describeInstances(r -> r.filters(Filter.builder().name("tag:gantry.dev/cluster")
                .values("test-cluster").build(), Filter.builder().name("tag-key").values("karpenter.sh/nodepool").build()))
                .reservations()).flatExtracting(res -> res.instances()).extracting(Instance::instanceId)
                .containsExactly("i-0000000000000001");
    }

    @Test
    void createTagsOnAnUnknownInstanceOrWithAnAwsPrefixedKeyIsRefusedAndTagsNothing() {
        assertThatThrownBy(() -> ec2.createTags(r -> r.resources("i-0doesnotexist0000")
                .tags(Tag.builder().key("k").value("v").build())))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("InvalidInstanceID.NotFound"));
        assertThatThrownBy(() -> ec2.createTags(r -> r.resources("i-0doesnotexist0000")
                .tags(Tag.builder().key("aws:cloudformation:stack-name").value("v").build())))
                .isInstanceOfSatisfying(Ec2Exception.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("InvalidParameterValue"));
    }
}
