package dev.gantry.core.termination;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The termination flow's store lookups pair a Node and its claim by {@link ClaimsByNode}'s rule, as the sweep's
 * in-memory index does: instance id (Karpenter's provider id match, kubernetes-sigs/karpenter
 * {@code pkg/controllers/nodeclaim/lifecycle/registration.go} Registration.Reconcile), then the
 * {@code gantry.dev/nodeclaim} label, then the registered node name; never a Terminated claim, never against a
 * contradicting instance id.
 */
class TerminationReadsTest {
    private final LifecycleWorld w = new LifecycleWorld(TerminationServiceTest.pool(Optional.empty()));
    private final TerminationReads reads = new TerminationReads(w.cluster, w.store);

    private static NodeClaim launching(String name) {
        return NodeClaim.launching(name, "default", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "spot", 0.04, T0);
    }

    /** {@link LifecycleFixtures#node}'s node {@code node-<name>} for instance {@code instanceId}, with {@code extra} labels. */
    private static Node node(String name, String instanceId, Map<String, String> extra) {
        Node n = LifecycleFixtures.node(name, "default");
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.putAll(extra);
        return new Node(n.name(), instanceId == null ? null : "aws:///us-east-1a/" + instanceId, labels, n.annotations(),
                n.taints(), n.allocatable(), n.ready(), n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), null);
    }

    private Optional<String> claimFor(Node n) {
        return reads.claimFor(n, T0).map(NodeClaim::name);
    }

    @Test
    void aDeletedNodeNamingItsClaimByLabelIsThatClaimsBeforeTheStoreRecordedItsInstance() {
        w.store.create(launching("x"));
        assertThat(claimFor(node("x", "i-x", Map.of(ClaimsByNode.LABEL, "x")))).contains("x");
    }

    @Test
    void theInstanceIdDecidesBeforeTheLabelAndTheNodeName() {
        w.store.create(LifecycleFixtures.launched("a", "default"));
        w.store.create(launching("b"));
        w.store.create(launching("c").registered("node-z", T0));
        assertThat(claimFor(node("z", "i-a", Map.of(ClaimsByNode.LABEL, "b")))).contains("a");
        assertThat(claimFor(node("z", "i-q", Map.of(ClaimsByNode.LABEL, "b")))).contains("b");
        assertThat(claimFor(node("z", "i-q", Map.of()))).contains("c");
    }

    @Test
    void aReusedNodeNameNeverGivesTheOldClaim() {
        w.store.create(LifecycleFixtures.initialized("old", "default").terminated(T0, Duration.ofHours(1)));
        assertThat(claimFor(node("old", "i-new", Map.of()))).as("terminated").isEmpty();
        w.store.create(LifecycleFixtures.initialized("stale", "default"));
        assertThat(claimFor(node("stale", "i-new", Map.of()))).as("another instance under its name").isEmpty();
        assertThat(claimFor(node("stale", "i-stale", Map.of()))).contains("stale");
    }

    @Test
    void aClaimThatNeverRegisteredFindsItsNodeByInstanceElseByLabel() {
        NodeClaim x = w.store.create(launching("x"));
        w.cluster.putNode(node("other", "i-other", Map.of()));
        w.cluster.putNode(node("x", "i-x", Map.of(ClaimsByNode.LABEL, "x")));
        assertThat(reads.nodeOf(x)).map(Node::name).contains("node-x");

        NodeClaim y = w.store.create(launching("y").launched("i-y", "m5.large", "us-east-1a", "spot", 0.04, T0));
        w.cluster.putNode(node("y-labelled", "i-q", Map.of(ClaimsByNode.LABEL, "y")));
        assertThat(reads.nodeOf(y)).as("its label on another instance's node does not make it y's").isEmpty();
        w.cluster.putNode(node("y", "i-y", Map.of()));
        assertThat(reads.nodeOf(y)).map(Node::name).contains("node-y");
    }
}
