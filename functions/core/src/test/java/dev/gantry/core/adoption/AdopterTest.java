package dev.gantry.core.adoption;

import static dev.gantry.core.lifecycle.LifecycleFixtures.CLUSTER;
import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Adoption as the sweep runs it: exactly once per instance, crash-safe, and the adopted nodes then live as Gantry's. */
class AdopterTest {
    static final NodePool QUIET = LifecycleFixtures.poolWith("general", new NodePool.Disruption(
            NodePool.ConsolidationPolicy.WhenEmpty, Optional.empty(), List.of()), Optional.empty(), Optional.empty(), Map.of());

    static LifecycleWorld world(NodePool pool) {
        LifecycleWorld w = new LifecycleWorld(pool);
        w.sweep.withAdoption(new Adopter(CLUSTER, w.store, w.cloud, w.cluster, w.termination, () -> Set.of(pool.name()),
                (type, zone, capacity) -> 0.096));
        return w;
    }

    /** A Karpenter instance with its Ready, initialized node, launched at {@code launched}. */
    static void karpenterNode(LifecycleWorld w, String id, String pool, String claim, Instant launched) {
        w.cloud.instances.put(id, new CloudInstance(id, "m5.large", "us-east-1a", "on-demand", "running", launched,
                "ip-" + id, KarpenterTags.ofRegistered(CLUSTER, pool, "default", claim, "ip-" + id)));
        w.cluster.putNode(new Node("ip-" + id, "aws:///us-east-1a/" + id, Map.of("karpenter.sh/nodepool", pool,
                Node.REGISTERED_LABEL, "true", Node.INITIALIZED_LABEL, "true", "karpenter.sh/capacity-type", "on-demand"),
                Map.of(), List.of(), dev.gantry.core.model.Resources.of(2000, 8L << 30), true, false, false,
                launched.plusSeconds(40), List.of(Node.KARPENTER_FINALIZER), null));
    }

    @Test
    void twoSweepsAdoptEachInstanceExactlyOnceAndReplaceNoNode() {
        LifecycleWorld w = world(QUIET);
        karpenterNode(w, "i-a", "general", "general-aaaaa", T0.minus(Duration.ofDays(3)));
        karpenterNode(w, "i-b", "general", "general-bbbbb", T0.minus(Duration.ofDays(1)));

        w.sweep.sweep();
        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();

        assertThat(w.store.list(w.clock.instant())).extracting(NodeClaim::name, NodeClaim::state, NodeClaim::version)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("general-aaaaa", NodeClaimState.Initialized, 1L),
                        org.assertj.core.groups.Tuple.tuple("general-bbbbb", NodeClaimState.Initialized, 1L));
        assertThat(w.cloud.tagged).hasSize(2);
        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.cloud.instances.get("i-a").tags()).containsEntry(CloudInstance.TAG_CLUSTER, CLUSTER)
                .containsEntry(CloudInstance.TAG_NODECLAIM, "general-aaaaa").containsEntry(KarpenterTags.NODECLAIM, "general-aaaaa");
        assertThat(w.cluster.node("ip-i-a").finalizers()).containsExactly(Node.FINALIZER);
        assertThat(w.cluster.node("ip-i-a").labels()).containsEntry(Adoption.NODECLAIM_LABEL, "general-aaaaa");
    }

    @Test
    void aCrashAfterTheStoreWriteAndBeforeTheRetagIsFinishedByTheNextSweep() {
        LifecycleWorld w = world(QUIET);
        karpenterNode(w, "i-a", "general", "general-aaaaa", T0.minus(Duration.ofDays(3)));
        w.cloud.failTags = 1;

        w.sweep.sweep();
        assertThat(w.claim("general-aaaaa").state()).isEqualTo(NodeClaimState.Initialized);
        assertThat(w.cloud.instances.get("i-a").tags()).doesNotContainKey(CloudInstance.TAG_CLUSTER);

        w.clock.advance(Duration.ofMinutes(1));
        w.sweep.sweep();

        assertThat(w.cloud.instances.get("i-a").tags()).containsEntry(CloudInstance.TAG_CLUSTER, CLUSTER);
        assertThat(w.claim("general-aaaaa").version()).as("recorded once").isEqualTo(1);
        assertThat(w.claim("general-aaaaa").state()).as("housekeeping did not take it for lost").isEqualTo(NodeClaimState.Initialized);
        assertThat(w.cloud.terminated).isEmpty();
    }

    @Test
    void anotherClustersAndAnUnmanagedPoolsInstancesAreNeitherRecordedNorTouched() {
        LifecycleWorld w = world(QUIET);
        karpenterNode(w, "i-gpu", "gpu", "gpu-aaaaa", T0.minus(Duration.ofDays(3)));
        w.cloud.instances.put("i-other", new CloudInstance("i-other", "m5.large", "us-east-1a", "on-demand", "running",
                T0.minus(Duration.ofDays(3)), "ip-o", KarpenterTags.ofRegistered("other", "general", "default", "general-o", "o")));

        w.sweep.sweep();
        w.sweep.sweep();

        assertThat(w.store.list(w.clock.instant())).isEmpty();
        assertThat(w.cloud.tagged).isEmpty();
        assertThat(w.cloud.terminated).isEmpty();
        assertThat(w.cluster.node("ip-i-gpu").finalizers()).containsExactly(Node.KARPENTER_FINALIZER);
    }

    @Test
    void anAdoptedNodePastExpireAfterCountedFromItsRealLaunchIsReplaced() {
        NodePool expiring = LifecycleFixtures.poolWith("general", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty,
                Optional.empty(), List.of(NodePool.Budget.DEFAULT)), Optional.of(Duration.ofDays(30)), Optional.empty(), Map.of());
        LifecycleWorld w = world(expiring);
        karpenterNode(w, "i-old", "general", "general-old00", T0.minus(Duration.ofDays(30)).plus(Duration.ofMinutes(30)));
        karpenterNode(w, "i-new", "general", "general-new00", T0.minus(Duration.ofDays(2)));

        w.sweep.sweep();
        assertThat(w.store.list(w.clock.instant())).allMatch(c -> !c.state().isDeleting());

        w.clock.advance(Duration.ofMinutes(31));
        w.sweep.sweep();

        assertThat(w.claim("general-old00").state().isDeleting()).isTrue();
        assertThat(w.claim("general-old00").deletionReason()).isEqualTo("expired");
        assertThat(w.claim("general-new00").state()).isEqualTo(NodeClaimState.Initialized);
    }

    @Test
    void aSpotInterruptionOfAnAdoptedInstanceDrainsAndTerminatesItAsGantrysOwn() {
        LifecycleWorld w = world(QUIET);
        karpenterNode(w, "i-a", "general", "general-aaaaa", T0.minus(Duration.ofDays(3)));
        w.sweep.sweep();

        w.interruption.handle(new dev.gantry.core.interruption.EventEnvelope("s", "aws.ec2",
                "EC2 Spot Instance Interruption Warning", w.clock.instant(), Map.of("instance-id", "i-a"), List.of(), List.of()));

        assertThat(w.claim("general-aaaaa").deletionReason()).isEqualTo("interruption");
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("ip-i-a")).as("drained, its finalizer removed").isNull();
    }

    @Test
    void aNodeKarpenterWasDeletingIsDrainedAndLetGoWithKarpentersFinalizerRemoved() {
        LifecycleWorld w = world(QUIET);
        karpenterNode(w, "i-a", "general", "general-aaaaa", T0.minus(Duration.ofDays(3)));
        w.cluster.deleteNodeAt("ip-i-a", T0.minusSeconds(20));
        assertThat(w.cluster.node("ip-i-a")).as("held by Karpenter's finalizer").isNotNull();

        w.sweep.sweep();
        for (int i = 0; i < 5 && !w.queue.sent.isEmpty() && w.claim("general-aaaaa").state() != NodeClaimState.Terminated; i++) {
            w.continueLast();
        }

        assertThat(w.claim("general-aaaaa").state()).isEqualTo(NodeClaimState.Terminated);
        assertThat(w.cloud.terminated).containsExactly("i-a");
        assertThat(w.cluster.node("ip-i-a")).as("no finalizer left holding it").isNull();
    }
}
