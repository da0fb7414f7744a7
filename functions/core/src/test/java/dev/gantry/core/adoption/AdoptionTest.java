package dev.gantry.core.adoption;

import static dev.gantry.core.lifecycle.LifecycleFixtures.CLUSTER;
import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.adoption.Adoption.Adopt;
import dev.gantry.core.adoption.Adoption.Finish;
import dev.gantry.core.adoption.Adoption.Skip;
import dev.gantry.core.adoption.Adoption.Step;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdoptionTest {
    static final Instant LAUNCHED = T0.minus(Duration.ofDays(20));

    /** An instance Karpenter v1.14 launched for {@code pool} and tagged once its node registered. */
    static CloudInstance karpenters(String id, String pool, String claim) {
        return new CloudInstance(id, "m5.large", "us-east-1b", "on-demand", "running", LAUNCHED, "ip-" + id + ".ec2.internal",
                KarpenterTags.ofRegistered(CLUSTER, pool, "default", claim, "ip-" + id + ".ec2.internal"));
    }

    static CloudInstance withTags(CloudInstance i, Map<String, String> tags) {
        return new CloudInstance(i.instanceId(), i.instanceType(), i.zone(), i.capacityType(), i.state(), i.launchTime(),
                i.privateDnsName(), tags);
    }

    /** Karpenter's node for {@code id}: its labels, its finalizer, Ready. */
    static Node node(String id, String pool, boolean registered, boolean initialized) {
        Map<String, String> labels = new HashMap<>(Map.of("karpenter.sh/nodepool", pool,
                "node.kubernetes.io/instance-type", "m5.large", "topology.kubernetes.io/zone", "us-east-1b",
                "karpenter.sh/capacity-type", "reserved"));
        if (registered) {
            labels.put(Node.REGISTERED_LABEL, "true");
        }
        if (initialized) {
            labels.put(Node.INITIALIZED_LABEL, "true");
        }
        return new Node("ip-" + id + ".ec2.internal", "aws:///us-east-1b/" + id, labels, Map.of(),
                registered ? List.of() : List.of(new Taint(Adoption.UNREGISTERED_TAINT, "", Taint.Effect.NoExecute)),
                Resources.of(2000, 8L << 30), true, false, false, LAUNCHED.plusSeconds(40),
                List.of(Node.KARPENTER_FINALIZER), null);
    }

    static List<Step> decide(List<NodeClaim> claims, List<CloudInstance> instances, List<Node> nodes) {
        return Adoption.decide(CLUSTER, Set.of("general"), claims, instances, nodes, (t, z, c) -> 0.096, T0);
    }

    @Test
    void aKarpenterInstanceIsRecordedUnderItsNodeClaimNameInItsNodesStateWithItsRealLaunchTime() {
        List<Step> steps = decide(List.of(), List.of(karpenters("i-a", "general", "general-x7k2p")),
                List.of(node("i-a", "general", true, true)));

        assertThat(steps).singleElement().isInstanceOfSatisfying(Adopt.class, a -> {
            NodeClaim c = a.claim();
            assertThat(c.name()).isEqualTo("general-x7k2p");
            assertThat(c.version()).isZero();
            assertThat(c.nodePool()).isEqualTo("general");
            assertThat(c.state()).isEqualTo(NodeClaimState.Initialized);
            assertThat(c.instanceId()).isEqualTo("i-a");
            assertThat(c.instanceType()).isEqualTo("m5.large");
            assertThat(c.zone()).isEqualTo("us-east-1b");
            assertThat(c.capacityType()).as("the node's label says reserved; EC2's lifecycle only on-demand").isEqualTo("reserved");
            assertThat(c.pricePerHour()).isEqualTo(0.096);
            assertThat(c.createdAt()).as("expireAfter counts from the real launch").isEqualTo(LAUNCHED);
            assertThat(c.launchedAt()).isEqualTo(LAUNCHED);
            assertThat(c.nodeName()).isEqualTo("ip-i-a.ec2.internal");
            assertThat(c.lastPodEventAt()).as("consolidateAfter counts from the adoption").isEqualTo(T0);
            assertThat(a.tags()).containsExactlyInAnyOrderEntriesOf(Map.of(CloudInstance.TAG_CLUSTER, CLUSTER,
                    CloudInstance.TAG_NODEPOOL, "general", CloudInstance.TAG_NODECLAIM, "general-x7k2p"));
            assertThat(a.nodePatch().addFinalizers()).containsExactly(Node.FINALIZER);
            assertThat(a.nodePatch().removeFinalizers()).containsExactly(Node.KARPENTER_FINALIZER);
            assertThat(a.nodePatch().setLabels()).containsEntry(Adoption.NODECLAIM_LABEL, "general-x7k2p");
            assertThat(a.nodeDeleting()).isFalse();
        });
    }

    @Test
    void theStateIsTheNodes_registeredOnly_notRegistered_orNoNode() {
        List<Step> steps = decide(List.of(), List.of(karpenters("i-r", "general", "general-r"),
                        karpenters("i-u", "general", "general-u"), karpenters("i-n", "general", "general-n")),
                List.of(node("i-r", "general", true, false), node("i-u", "general", false, false)));

        assertThat(steps).extracting(s -> ((Adopt) s).claim().state())
                .containsExactly(NodeClaimState.Registered, NodeClaimState.Launched, NodeClaimState.Launched);
        assertThat(((Adopt) steps.get(1)).nodePatch().removeTaintKeys()).as("no Karpenter is left to remove it")
                .containsExactly(Adoption.UNREGISTERED_TAINT);
        assertThat(((Adopt) steps.get(2)).nodePatch()).isNull();
    }

    @Test
    void anInstanceOfANodePoolGantryDoesNotManageIsLeftAlone() {
        assertThat(decide(List.of(), List.of(karpenters("i-a", "gpu", "gpu-abcde")), List.of(node("i-a", "gpu", true, true))))
                .containsExactly(new Skip("i-a", "unmanaged-pool"));
    }

    @Test
    void anInstanceOfAnotherClusterOrWithoutKarpentersTagsIsIgnoredEvenWhenHandedIn() {
        CloudInstance other = withTags(karpenters("i-o", "general", "general-o"),
                KarpenterTags.ofRegistered("other-cluster", "general", "default", "general-o", "n"));
        CloudInstance gantrys = withTags(karpenters("i-g", "general", "general-g"),
                Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_NODEPOOL, "general"));
        Map<String, String> shared = new HashMap<>(karpenters("i-s", "general", "general-s").tags());
        shared.put(KarpenterTags.clusterKey(CLUSTER), "shared");

        assertThat(decide(List.of(), List.of(other, gantrys, withTags(karpenters("i-s", "general", "general-s"), shared)),
                List.of())).isEmpty();
    }

    @Test
    void aLaunchKarpenterHadInFlight_noNodeClaimTagYet_isLeftAlone() {
        Map<String, String> tags = new HashMap<>(karpenters("i-a", "general", "x").tags());
        tags.remove(KarpenterTags.NODECLAIM);
        tags.remove("Name");

        assertThat(decide(List.of(), List.of(withTags(karpenters("i-a", "general", "x"), tags)), List.of()))
                .containsExactly(new Skip("i-a", "unnamed"));
    }

    @Test
    void anAdoptedInstanceIsNotAdoptedAgain_whatACrashLeftUndoneIsFinished() {
        CloudInstance i = karpenters("i-a", "general", "general-x7k2p");
        Adopt first = (Adopt) decide(List.of(), List.of(i), List.of(node("i-a", "general", true, true))).getFirst();
        NodeClaim recorded = first.claim().withVersion(1);

        List<Step> crashed = decide(List.of(recorded), List.of(i), List.of(node("i-a", "general", true, true)));
        assertThat(crashed).singleElement().isInstanceOfSatisfying(Finish.class, f -> {
            assertThat(f.claim()).isEqualTo("general-x7k2p");
            assertThat(f.tags()).containsEntry(CloudInstance.TAG_CLUSTER, CLUSTER);
            assertThat(f.nodePatch().addFinalizers()).containsExactly(Node.FINALIZER);
        });

        Map<String, String> retagged = new HashMap<>(i.tags());
        retagged.putAll(first.tags());
        Node done = new Node("ip-i-a.ec2.internal", "aws:///us-east-1b/i-a", Map.of("karpenter.sh/nodepool", "general",
                Node.INITIALIZED_LABEL, "true", Adoption.NODECLAIM_LABEL, "general-x7k2p"), Map.of(), List.of(),
                Resources.of(2000, 8L << 30), true, false, false, T0, List.of(Node.FINALIZER), null);
        assertThat(decide(List.of(recorded), List.of(withTags(i, retagged)), List.of(done))).as("nothing left to do").isEmpty();
    }

    @Test
    void aNameAClaimHoldsForAnotherInstanceIsNeverReused() {
        NodeClaim other = Adoption.claim("general-x7k2p", "general", karpenters("i-z", "general", "general-x7k2p"), null,
                Adoption.Prices.NONE, T0).withVersion(1);

        assertThat(decide(List.of(other), List.of(karpenters("i-a", "general", "general-x7k2p")), List.of()))
                .containsExactly(new Skip("i-a", "name-taken"));
    }

    @Test
    void aNodeKarpenterWasDeletingIsRecordedAndHandedToTheTerminationFlowWithoutAddingAFinalizer() {
        Node n = node("i-a", "general", true, true);
        Node deleting = new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), true,
                true, true, n.createdAt(), n.finalizers(), T0.minusSeconds(30));

        assertThat(decide(List.of(), List.of(karpenters("i-a", "general", "general-a")), List.of(deleting)))
                .singleElement().isInstanceOfSatisfying(Adopt.class, a -> {
                    assertThat(a.nodeDeleting()).isTrue();
                    assertThat(a.nodePatch().addFinalizers()).as("none may be added to an object being deleted").isEmpty();
                    assertThat(a.nodePatch().removeFinalizers()).as("the termination flow removes it when done").isEmpty();
                });
    }
}
