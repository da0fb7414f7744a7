package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.config;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.provider;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.DelegatingStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Claims planned alike launch together: one CreateFleet of many instances (issue #11 §7, 500 nodes at once). */
class ProvisionerBatchTest {
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);

    private Provisioner provisioner(dev.gantry.core.lifecycle.NodeClaimStore s) {
        return new Provisioner(cluster, cluster, s, cloud, provider(), config(pool("default", null)), clock);
    }

    private void pendingPods(int n) {
        for (int i = 0; i < n; i++) {
            cluster.putPod(pending("p-" + i, 1500, 256).build());
        }
    }

    private List<NodeClaim> claims() {
        return store.list(clock.instant());
    }

    @Test
    void identicalClaimsLaunchWithOneCreateFleetAndEachRecordsTheInstanceItGot() {
        pendingPods(40);

        ProvisioningOutcome out = provisioner(store).provision();

        assertThat(out.launched()).hasSize(40);
        assertThat(cloud.requests()).singleElement().satisfies(r -> assertThat(r.count()).isEqualTo(40));
        String token = cloud.requests().getFirst().clientToken();
        assertThat(claims()).hasSize(40).allSatisfy(c -> {
            assertThat(c.state()).isEqualTo(NodeClaimState.Launched);
            assertThat(c.launchKey()).isEqualTo(token);
        });
        assertThat(claims()).extracting(NodeClaim::instanceId).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(cloud.instances().stream().map(CloudInstance::instanceId).toList());
        assertThat(cloud.instances()).allSatisfy(i -> assertThat(i.tags()).containsEntry(CloudInstance.TAG_LAUNCH, token)
                .doesNotContainKey(CloudInstance.TAG_NODECLAIM));
        for (NodeClaim c : claims()) {
            CloudInstance i = cloud.instances().stream().filter(x -> x.instanceId().equals(c.instanceId())).findFirst().orElseThrow();
            assertThat(c.instanceType()).isEqualTo(i.instanceType());
            assertThat(c.zone()).isEqualTo(i.zone());
        }
        assertThat(out.nominations()).hasSize(40);
    }

    @Test
    void aLaunchBatchIsAtMostTheBatchSize() {
        pendingPods(25);

        provisioner(store).withBatchSize(10).provision();

        assertThat(cloud.requests()).extracting(LaunchRequest::count).containsExactlyInAnyOrder(10, 10, 5);
        assertThat(claims()).extracting(NodeClaim::instanceId).doesNotHaveDuplicates().hasSize(25);
    }

    @Test
    void aFleetFulfilledInPartClosesTheClaimsLeftWithoutAnInstanceAsOutOfCapacity() {
        pendingPods(10);
        cloud.limitTotal(6);

        ProvisioningOutcome out = provisioner(store).provision();

        assertThat(cloud.requests().getFirst().count()).isEqualTo(10);
        assertThat(out.launched()).hasSize(6);
        assertThat(claims().stream().filter(c -> c.state() == NodeClaimState.Launched)).hasSize(6)
                .extracting(NodeClaim::instanceId).doesNotHaveDuplicates();
        assertThat(claims().stream().filter(c -> c.state() == NodeClaimState.Terminated))
                .allSatisfy(c -> assertThat(c.instanceId()).isNull()).isNotEmpty();
        assertThat(out.failed()).filteredOn(f -> f.code().equals("PartialFulfilment")).hasSize(4);
        // Their pods were planned again: onto room the launched instances have, or left unschedulable.
        java.util.Set<String> launched = new java.util.HashSet<>(claims().stream()
                .filter(c -> c.state() == NodeClaimState.Launched).map(NodeClaim::name).toList());
        assertThat(out.nominations().values()).allSatisfy(c -> assertThat(launched).contains(c));
        assertThat(out.nominations().size() + out.unschedulable().size()).isEqualTo(10);
    }

    @Test
    void aCrashBetweenABatchsCreateFleetAndItsWritesIsResumedWithTheSameInstancesAndNoMore() {
        pendingPods(10);
        CrashAtWrite crashing = new CrashAtWrite(store, 3); // two claims recorded Launched, then the process dies

        assertThatThrownBy(provisioner(crashing)::provision).hasMessageContaining("crash");
        assertThat(claims().stream().filter(c -> c.state() == NodeClaimState.Launched)).hasSize(2);
        assertThat(cloud.instances()).hasSize(10);

        clock.advance(Duration.ofSeconds(5));
        ProvisioningOutcome resumed = provisioner(store).provision();

        assertThat(resumed.resumed()).hasSize(8);
        assertThat(cloud.instances()).as("the replay launched nothing more").hasSize(10);
        assertThat(cloud.requests()).hasSize(2).extracting(r -> r.clientToken() + "/" + r.count()).containsOnly(
                cloud.requests().getFirst().clientToken() + "/10");
        assertThat(claims()).hasSize(10).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launched));
        assertThat(claims()).extracting(NodeClaim::instanceId).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(cloud.instances().stream().map(CloudInstance::instanceId).toList());
    }

    /**
     * Regression (#21): the resume rebuilt the batch's call, and what the cloud resolved by then (another subnet, other
     * offerings) made EC2 answer IdempotentParameterMismatch; with DescribeInstances not listing the instances yet, the
     * claims were closed while their instances ran. The resume now sends what the first call sent, recorded first.
     */
    @Test
    void aBatchResumedAfterACrashSendsWhatItsFirstCallSentThoughTheCloudWouldResolveOtherParametersNow() {
        pendingPods(10);
        cloud.tagLookupLags();
        assertThatThrownBy(provisioner(new CrashAtWrite(store, 3))::provision).hasMessageContaining("crash");
        assertThat(claims()).filteredOn(c -> c.launchParameters() != null).singleElement()
                .satisfies(c -> {
                    assertThat(c.name()).isEqualTo(c.launchKey());
                    assertThat(c.state()).isEqualTo(NodeClaimState.Launching);
                });
        cloud.moveSubnets("b");

        clock.advance(Duration.ofSeconds(5));
        ProvisioningOutcome resumed = provisioner(store).provision();

        assertThat(resumed.resumed()).hasSize(8);
        assertThat(resumed.failed()).isEmpty();
        assertThat(cloud.sent()).hasSize(2);
        assertThat(cloud.sent().get(1)).isEqualTo(cloud.sent().get(0));
        assertThat(cloud.mismatches()).isZero();
        assertThat(claims()).hasSize(10).allSatisfy(c -> {
            assertThat(c.state()).isEqualTo(NodeClaimState.Launched);
            assertThat(c.launchParameters()).as("nothing left to replay").isNull();
        });
    }

    /** Dies at the {@code n}th write that records a claim Launched, after the writes before it went through. */
    private static final class CrashAtWrite extends DelegatingStore {
        private final AtomicInteger writes = new AtomicInteger();
        private final int n;

        CrashAtWrite(InMemoryNodeClaimStore delegate, int n) {
            super(delegate);
            this.n = n;
        }

        @Override
        public NodeClaim update(NodeClaim claim) {
            if (claim.state() == NodeClaimState.Launched && writes.incrementAndGet() == n) {
                throw new IllegalStateException("crash between CreateFleet and the store writes");
            }
            return super.update(claim);
        }
    }
}
