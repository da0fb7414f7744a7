package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.NodeClass;
import dev.gantry.testing.Ec2Resources;
import dev.gantry.testing.Ec2State;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Launches of several identical instances in one CreateFleet (issue #11 §7), with the real SDK against the stub: the
 * fleet's total target capacity, its answer of many instances, partial fulfilment and ClientToken idempotency.
 */
class Ec2CloudProviderFleetTest extends Ec2StubTest {
    private static final List<String> OD = List.of("on-demand");

    private static LaunchRequest fleet(String token, int count) {
        return LaunchFixtures.request("unused", OD).batch(token, count);
    }

    @Test
    void aLaunchOfSeveralIsOneCreateFleetForThemAllTaggedWithItsTokenAndReturnsEveryInstance() {
        LaunchResult result = provider.launch(fleet("general-batch1", 5));

        assertThat(stub.requests("CreateFleet")).singleElement().satisfies(r -> {
            assertThat(r.param("TargetCapacitySpecification.TotalTargetCapacity")).isEqualTo("5");
            assertThat(r.param("ClientToken")).isEqualTo("general-batch1");
        });
        assertThat(result.instances()).hasSize(5).extracting(CloudInstance::instanceId).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(stub.ec2().instances().stream().map(i -> i.id()).toList());
        assertThat(result.instances()).allSatisfy(i -> {
            assertThat(i.instanceType()).isEqualTo("c5.large");
            assertThat(i.zone()).isNotNull();
        });
        assertThat(stub.ec2().instances()).allSatisfy(i -> assertThat(i.tags())
                .containsEntry(CloudInstance.TAG_LAUNCH, "general-batch1").doesNotContainKey(CloudInstance.TAG_NODECLAIM));
    }

    @Test
    void aFleetFulfilledInPartReturnsWhatLaunchedAtTheTypeEachGotAndTheOfferingsThatRanOut() {
        for (String zone : Ec2State.ZONES) {
            stub.ec2().failLaunches("c5.large", zone, "InsufficientInstanceCapacity");
        }
        stub.ec2().limitCapacity("m5.large", "us-east-1b", 2);
        stub.ec2().failLaunches("m5.large", "us-east-1a", "InsufficientInstanceCapacity");
        stub.ec2().failLaunches("m5.large", "us-east-1c", "InsufficientInstanceCapacity");

        LaunchResult result = provider.launch(fleet("general-part1", 4));

        assertThat(result.instances()).hasSize(2).allSatisfy(i -> {
            assertThat(i.instanceType()).isEqualTo("m5.large");
            assertThat(i.zone()).isEqualTo("us-east-1b");
        });
        assertThat(result.unavailable()).contains(new OfferingKey("c5.large", "us-east-1a", "on-demand"),
                new OfferingKey("m5.large", "us-east-1b", "on-demand"));
    }

    @Test
    void replayingALaunchOfSeveralReturnsTheSameInstancesAndLaunchesNoMore() {
        List<String> first = provider.launch(fleet("general-again", 3)).instances().stream().map(CloudInstance::instanceId).toList();

        List<String> again = provider.launch(fleet("general-again", 3)).instances().stream().map(CloudInstance::instanceId).toList();

        assertThat(again).containsExactlyInAnyOrderElementsOf(first);
        assertThat(stub.ec2().instances()).hasSize(3);
    }

    @Test
    void aReplayOfTheRecordedParametersIsTheSameCreateFleetThoughANewSubnetWithMoreAddressesAppeared() {
        LaunchRequest request = fleet("general-rec", 3);
        LaunchParameters sent = provider.prepare(request);
        List<String> first = provider.launch(request, sent).instances().stream().map(CloudInstance::instanceId).toList();
        stub.ec2().addSubnet(new Ec2Resources.Subnet("subnet-0000000000000000d", "us-east-1a", "use1-az1",
                "vpc-0123456789abcdef0", "10.0.192.0/18", 60000, java.util.Map.of(Ec2State.DISCOVERY_TAG, Ec2State.CLUSTER)));
        Ec2CloudProvider fresh = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));

        assertThat(fresh.prepare(request)).as("what a fresh Lambda would send now").isNotEqualTo(sent);
        List<String> again = fresh.launch(request, sent).instances().stream().map(CloudInstance::instanceId).toList();

        assertThat(again).containsExactlyInAnyOrderElementsOf(first);
        assertThat(stub.ec2().instances()).hasSize(3);
        assertThat(stub.requests("CreateFleet")).hasSize(2);
        assertThat(stub.requests("CreateFleet").get(1).params()).isEqualTo(stub.requests("CreateFleet").get(0).params());
    }

    @Test
    void aTokenReusedWithOtherParametersGetsTheLaunchsLiveInstancesFoundByItsTag() {
        List<String> first = provider.launch(fleet("general-moved", 3)).instances().stream().map(CloudInstance::instanceId).toList();
        NodeClass nc = LaunchFixtures.al2023();
        LaunchRequest changed = LaunchFixtures.request("unused", LaunchFixtures.pool(), nc, LaunchFixtures.types(nc, "m5.large"),
                OD, Ec2State.ZONES).batch("general-moved", 3); // a resumed batch whose options changed meanwhile

        LaunchResult result = provider.launch(changed);

        assertThat(result.instances()).extracting(CloudInstance::instanceId).containsExactlyInAnyOrderElementsOf(first);
        assertThat(stub.ec2().instances()).hasSize(3);
        assertThat(stub.requests("DescribeInstances")).anySatisfy(r -> assertThat(r.params())
                .containsValue("tag:" + CloudInstance.TAG_LAUNCH).containsValue("general-moved"));
    }

    @Test
    void aTokenReusedWithOtherParametersAndNoLiveInstanceLeftFailsForGood() {
        List<String> first = provider.launch(fleet("general-gone", 2)).instances().stream().map(CloudInstance::instanceId).toList();
        first.forEach(id -> stub.ec2().setInstanceState(id, "terminated"));

        assertThatThrownBy(() -> provider.launch(fleet("general-gone", 3)))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("IdempotentParameterMismatch");
                    assertThat(e.retryable()).isFalse();
                });
    }

    /**
     * Gantry's own: a fleet whose image was deregistered after it was resolved (the adapter caches images for a minute)
     * launches nothing, and EC2's InvalidAMIID.NotFound among the fleet's errors is the port's ImageRefused, not retried
     * and marking no offering unavailable (aws/karpenter-provider-aws v1.14.1 pkg/errors/errors.go ToReasonMessage).
     */
    @Test
    void aFleetOnADeregisteredImageIsRefusedForItsImageNotForCapacity() {
        String image = provider.launch(fleet("general-before", 1)).instances().stream().findFirst()
                .map(i -> stub.ec2().instances().stream().filter(x -> x.id().equals(i.instanceId())).findFirst().orElseThrow().imageId())
                .orElseThrow();
        stub.ec2().deregisterImage(image);

        assertThatThrownBy(() -> provider.launch(fleet("general-after", 2)))
                .isInstanceOfSatisfying(dev.gantry.core.cloud.ImageRefused.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidAMIID.NotFound");
                    assertThat(e.retryable()).isFalse();
                });
        assertThat(stub.ec2().instances()).hasSize(1);
    }

    /**
     * EC2's own: a block device mapping that gives the image's snapshot device less than the snapshot is refused per
     * override (InvalidBlockDeviceMapping, "Volume of size 2GB is smaller than snapshot 'snap-…', expect size >= 4GB",
     * as Karpenter's users quote it for Bottlerocket NVIDIA images under a 2Gi /dev/xvda). The launch fails for good, and
     * its message carries EC2's words, which say what to change; the code alone did not.
     */
    @Test
    void aVolumeSmallerThanTheImagesSnapshotIsRefusedInEc2sWordsAndNotRetried() {
        for (String image : List.of("ami-0a1b2c3d4e5f60001", "ami-0a1b2c3d4e5f60002")) {
            stub.ec2().imageSnapshot(image, "/dev/xvda", "snap-0f59de5aef3442431", 4);
        }
        NodeClass base = LaunchFixtures.al2023();
        NodeClass small = LaunchFixtures.withRootVolume(base, "2Gi");
        LaunchRequest request = LaunchFixtures.request("small-root", LaunchFixtures.pool(), small,
                LaunchFixtures.types(small, "c5.large", "m5.large"), OD, Ec2State.ZONES);

        assertThatThrownBy(() -> provider.launch(request))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidBlockDeviceMapping");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("Volume of size 2GB is smaller than snapshot "
                            + "'snap-0f59de5aef3442431', expect size >= 4GB");
                });
        assertThat(stub.ec2().instances()).isEmpty();

        NodeClass enough = LaunchFixtures.withRootVolume(small, "4Gi");
        assertThat(provider.launch(LaunchFixtures.request("enough-root", LaunchFixtures.pool(), enough,
                LaunchFixtures.types(enough, "c5.large"), OD, Ec2State.ZONES)).instances()).hasSize(1);
    }
}
