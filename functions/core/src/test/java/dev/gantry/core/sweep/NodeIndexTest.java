package dev.gantry.core.sweep;

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
import org.junit.jupiter.api.Test;

/**
 * The sweep finds a claim's node by {@link ClaimsByNode}'s rule, as consolidation and the provisioner pair them:
 * instance id first (Karpenter's provider id match, kubernetes-sigs/karpenter
 * {@code pkg/controllers/nodeclaim/lifecycle/registration.go} Registration.Reconcile), then the label, then the node
 * name; a Terminated claim or a contradicting instance id never.
 */
class NodeIndexTest {

    private static Node node(String name, String instanceId, String label) {
        Node n = LifecycleFixtures.node(name, "default");
        Map<String, String> labels = new HashMap<>(n.labels());
        if (label != null) {
            labels.put(ClaimsByNode.LABEL, label);
        }
        return new Node(n.name(), "aws:///us-east-1a/" + instanceId, labels, n.annotations(), n.taints(), n.allocatable(),
                n.ready(), n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), null);
    }

    @Test
    void aReusedNodeNameIsNotTheOldClaimsNode() {
        NodeClaim gone = LifecycleFixtures.initialized("a", "default").terminated(T0, Duration.ofHours(1));
        NodeClaim stale = LifecycleFixtures.initialized("b", "default");
        List<Node> nodes = List.of(node("a", "i-new-a", null), node("b", "i-new-b", null));
        NodeIndex index = new NodeIndex(nodes, List.of(gone, stale));
        assertThat(index.of(gone)).isEmpty();
        assertThat(index.of(stale)).as("its name, another instance").isEmpty();
    }

    @Test
    void theInstanceIdThenTheLabelThenTheName() {
        NodeClaim a = LifecycleFixtures.initialized("a", "default");
        NodeClaim labelled = NodeClaim.launching("x", "default", "h", List.of(), List.of("m5.large"), List.of(), "m5.large",
                "us-east-1a", "spot", 0.04, T0).registered("node-elsewhere", T0);
        List<Node> nodes = List.of(node("z", "i-a", "x"), node("x", "i-x", "x"));
        NodeIndex index = new NodeIndex(nodes, List.of(a, labelled));
        assertThat(index.of(a).map(Node::name)).as("by instance, though named and labelled otherwise").contains("node-z");
        assertThat(index.of(labelled).map(Node::name)).as("node-z is a's: the label gives node-x").contains("node-x");
    }
}
