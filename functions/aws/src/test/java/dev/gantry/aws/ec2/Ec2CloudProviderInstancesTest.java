package dev.gantry.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.testing.MutableClock;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources.Instance;
import dev.gantry.testing.Ec2State;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listing, describing and terminating: only this cluster's instances, idempotently. */
class Ec2CloudProviderInstancesTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private AwsStub stub;
    private StubClients clients;
    private StubClients terminationClients;
    private Ec2CloudProvider provider;
    /** The same provider as the termination function holds it: its own role's credentials. */
    private Ec2CloudProvider terminator;

    @BeforeEach
    void start() {
        stub = AwsStub.start(Ec2State.withDefaults(), clock);
        clients = StubClients.of(stub);
        provider = new Ec2CloudProvider(clients.ec2(), clients.ssm(), LaunchFixtures.config(clock));
        terminationClients = StubClients.of(stub, "termination");
        terminator = new Ec2CloudProvider(terminationClients.ec2(), terminationClients.ssm(), LaunchFixtures.config(clock));
    }

    @AfterEach
    void stop() {
        clients.close();
        terminationClients.close();
        stub.close();
    }

    private static Instance foreign(String id, Map<String, String> tags) {
        return new Instance(id, "m5.large", "us-east-1a", "subnet-0000000000000000a", "ami-1", "on-demand", "running",
                Instant.parse("2025-05-01T00:00:00Z"), "10.0.9.9", tags);
    }

    @Test
    void listsOnlyThisClusterInstancesThatAreNotTerminated() {
        String launched = provider.launch(LaunchFixtures.request("general-ls001", List.of("spot"))).instance().instanceId();
        String gone = provider.launch(LaunchFixtures.request("general-ls002", List.of("spot"))).instance().instanceId();
        stub.ec2().setInstanceState(gone, "terminated");
        stub.ec2().addInstance(foreign("i-0karpenter000001", Map.of("karpenter.sh/nodepool", "default",
                "eks:eks-cluster-name", Ec2State.CLUSTER)));
        stub.ec2().addInstance(foreign("i-0othercluster001", Map.of(CloudInstance.TAG_CLUSTER, "other-cluster")));

        List<CloudInstance> listed = provider.listInstances();

        assertThat(listed).singleElement().satisfies(i -> {
            assertThat(i.instanceId()).isEqualTo(launched);
            assertThat(i.capacityType()).isEqualTo("spot");
            assertThat(i.state()).isEqualTo("running");
            assertThat(i.zone()).isEqualTo("us-east-1a");
            assertThat(i.privateDnsName()).endsWith(".ec2.internal");
            assertThat(i.tags()).containsEntry(CloudInstance.TAG_NODECLAIM, "general-ls001");
            assertThat(i.providerId()).isEqualTo("aws:///us-east-1a/" + launched);
        });
        assertThat(stub.lastRequest("DescribeInstances").filters())
                .containsEntry("tag:gantry.dev/cluster", List.of(Ec2State.CLUSTER))
                .containsEntry("instance-state-name", List.of("pending", "running", "stopping", "stopped", "shutting-down"));
    }

    /**
     * Dynamic drift's inputs (aws {@code pkg/cloudprovider/drift.go} compares the instance's image, subnet and
     * security groups with the EC2NodeClass's resolved status): the instance as described, and what the NodeClass
     * selects now through the launch's own lookups (SSM alias, DescribeImages, DescribeSubnets, DescribeSecurityGroups).
     * Not modelled by the stub: an instance's own security groups (its DescribeInstances item carries none), so the
     * adapter's mapping of them is exercised only against EC2.
     */
    @Test
    void reportsTheImageAndSubnetOfAnInstanceAndWhatTheNodeClassSelectsNow() {
        String id = provider.launch(LaunchFixtures.request("general-dr001", List.of("on-demand"))).instance().instanceId();

        CloudInstance listed = provider.listInstances().getFirst();
        var selected = provider.resolve(LaunchFixtures.al2023()).orElseThrow();

        assertThat(listed.instanceId()).isEqualTo(id);
        assertThat(listed.imageId()).isEqualTo("ami-0a1b2c3d4e5f60001");
        assertThat(listed.subnetId()).isEqualTo("subnet-0000000000000000a");
        assertThat(selected.images()).containsEntry("amd64/standard", "ami-0a1b2c3d4e5f60001")
                .containsEntry("arm64/standard", "ami-0a1b2c3d4e5f60002").containsEntry("amd64/nvidia", Ec2State.NVIDIA_AMD64);
        assertThat(selected.subnets()).containsExactlyInAnyOrder("subnet-0000000000000000a", "subnet-0000000000000000b",
                "subnet-0000000000000000c");
        assertThat(selected.securityGroups()).containsExactly("sg-0123456789abcdef0");
        assertThat(selected.images()).containsValue(listed.imageId());
    }

    @Test
    void listsThisClustersKarpenterInstancesOnly_asKarpentersOwnIamScopesThem() {
        Map<String, String> karpenters = KarpenterTags.ofRegistered(Ec2State.CLUSTER, "general", "default", "general-x7k2p",
                "ip-10-0-9-9.ec2.internal");
        stub.ec2().addInstance(foreign("i-0karpenter000001", karpenters));
        stub.ec2().addInstance(foreign("i-0karpenter000002", karpenters).withState("terminated"));
        stub.ec2().addInstance(foreign("i-0othercluster001", KarpenterTags.ofRegistered("other-cluster", "general", "default",
                "general-other", "ip-10-0-9-8.ec2.internal")));
        // A managed node group's instance carries the cluster tag too, but no NodePool.
        stub.ec2().addInstance(foreign("i-0nodegroup000001", Map.of(KarpenterTags.clusterKey(Ec2State.CLUSTER), "owned",
                "eks:nodegroup-name", "system")));
        provider.launch(LaunchFixtures.request("general-ls003", List.of("spot")));

        List<CloudInstance> listed = provider.listKarpenterInstances();

        assertThat(listed).extracting(CloudInstance::instanceId).containsExactly("i-0karpenter000001");
        assertThat(listed.getFirst().tags()).containsAllEntriesOf(karpenters);
        assertThat(listed.getFirst().launchTime()).isEqualTo(Instant.parse("2025-05-01T00:00:00Z"));
        assertThat(stub.lastRequest("DescribeInstances").filters())
                .containsOnly(Map.entry("tag:kubernetes.io/cluster/" + Ec2State.CLUSTER, List.of("owned")),
                        Map.entry("tag-key", List.of("karpenter.sh/nodepool")),
                        Map.entry("instance-state-name", List.of("pending", "running", "stopping", "stopped", "shutting-down")));
    }

    @Test
    void anAdoptedKarpenterInstanceIsRetaggedByTheSweepThenListedAsGantrysAndTerminatedByTheTerminationFunction() {
        stub.ec2().addInstance(foreign("i-0karpenter000001", KarpenterTags.ofRegistered(Ec2State.CLUSTER, "general", "default",
                "general-x7k2p", "ip-10-0-9-9.ec2.internal")));
        try (StubClients sweepClients = StubClients.of(stub, "sweep")) {
            Ec2CloudProvider sweep = new Ec2CloudProvider(sweepClients.ec2(), sweepClients.ssm(), LaunchFixtures.config(clock));

            sweep.tag("i-0karpenter000001", Map.of(CloudInstance.TAG_CLUSTER, Ec2State.CLUSTER,
                    CloudInstance.TAG_NODEPOOL, "general", CloudInstance.TAG_NODECLAIM, "general-x7k2p"));

            assertThat(stub.lastRequest("CreateTags").values("ResourceId")).containsExactly("i-0karpenter000001");
            assertThat(stub.lastRequest("CreateTags").members("Tag")).extracting(t -> t.get("Key") + "=" + t.get("Value"))
                    .containsExactly("gantry.dev/cluster=" + Ec2State.CLUSTER, "gantry.dev/nodeclaim=general-x7k2p",
                            "gantry.dev/nodepool=general");
            assertThat(sweep.listInstances()).extracting(CloudInstance::instanceId).containsExactly("i-0karpenter000001");
            assertThat(sweep.listKarpenterInstances()).as("still Karpenter's tags: adoption finds it adopted")
                    .extracting(CloudInstance::instanceId).containsExactly("i-0karpenter000001");
        }

        terminator.terminate(List.of("i-0karpenter000001"));

        assertThat(stub.ec2().instance("i-0karpenter000001")).hasValueSatisfying(i -> assertThat(i.state()).isEqualTo("terminated"));
    }

    @Test
    void taggingAnUnknownInstanceFailsNotRetryable() {
        assertThatThrownBy(() -> provider.tag("i-0doesnotexist0000", Map.of(CloudInstance.TAG_CLUSTER, Ec2State.CLUSTER)))
                .isInstanceOfSatisfying(CloudException.class, e -> {
                    assertThat(e.code()).isEqualTo("InvalidInstanceID.NotFound");
                    assertThat(e.retryable()).isFalse();
                });
    }

    @Test
    void describesOneInstanceAndAnUnknownIdIsEmpty() {
        String id = provider.launch(LaunchFixtures.request("general-ds001", List.of("on-demand"))).instance().instanceId();

        assertThat(provider.describe(id)).hasValueSatisfying(i -> {
            assertThat(i.instanceType()).isEqualTo("c5.large");
            assertThat(i.capacityType()).isEqualTo("on-demand");
            assertThat(i.launchTime()).isEqualTo(clock.instant());
        });
        assertThat(provider.describe("i-0doesnotexist0000")).isEmpty();
    }

    @Test
    void terminateIgnoresUnknownIdsAndStillTerminatesTheRest() {
        String id = provider.launch(LaunchFixtures.request("general-tm001", List.of("spot"))).instance().instanceId();

        terminator.terminate(List.of("i-0doesnotexist0000", id));
        terminator.terminate(List.of(id));
        terminator.terminate(List.of());

        assertThat(stub.ec2().instance(id)).hasValueSatisfying(i -> assertThat(i.state()).isEqualTo("terminated"));
        assertThat(terminator.listInstances()).isEmpty();
    }
}
