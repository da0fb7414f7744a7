package dev.gantry.core.lifecycle;

import static dev.gantry.core.lifecycle.LifecycleFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one rule pairing a Node with its NodeClaim: instance id, then the {@code gantry.dev/nodeclaim} label, then the
 * registered node name; Terminated claims never match; a label or name never overrides a contradicting instance id.
 * The instance id first, as Karpenter matches a Node and its NodeClaim by provider id: kubernetes-sigs/karpenter
 * {@code pkg/controllers/nodeclaim/lifecycle/registration.go} Registration.Reconcile ({@code NodeForNodeClaim}, by
 * {@code spec.providerID}) and {@code pkg/controllers/state/cluster.go} (state nodes keyed by provider id).
 */
class ClaimsByNodeTest {

    private static NodeClaim launching(String name) {
        return NodeClaim.launching(name, "default", "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "spot", 0.04, T0);
    }

    private static NodeClaim launched(String name, String instanceId) {
        return launching(name).launched(instanceId, "m5.large", "us-east-1a", "spot", 0.04, T0);
    }

    private static NodeClaim registered(String name, String instanceId, String nodeName) {
        return (instanceId == null ? launching(name) : launched(name, instanceId)).registered(nodeName, T0);
    }

    private static Node node(String name, String instanceId, String label) {
        Map<String, String> labels = new HashMap<>();
        labels.put("karpenter.sh/nodepool", "default");
        if (label != null) {
            labels.put(ClaimsByNode.LABEL, label);
        }
        return new Node(name, instanceId == null ? null : "aws:///us-east-1a/" + instanceId, labels, Map.of(), List.of(),
                Resources.of(2000, 8L << 30), true, false, false, T0);
    }

    private static Optional<String> claimOf(Node n, NodeClaim... claims) {
        return new ClaimsByNode(List.of(claims)).claimOf(n).map(NodeClaim::name);
    }

    @Test
    void eachRuleAloneMatches() {
        assertThat(claimOf(node("n", "i-1", null), launched("by-id", "i-1"))).contains("by-id");
        assertThat(claimOf(node("n", "i-1", "by-label"), launching("by-label"))).as("no instance recorded yet").contains("by-label");
        assertThat(claimOf(node("n", null, null), registered("by-name", "i-1", "n"))).as("no provider id on the node").contains("by-name");
        assertThat(claimOf(node("n", "i-1", "other"), launched("x", "i-2"), registered("y", "i-3", "m"))).isEmpty();
    }

    @Test
    void theInstanceIdWinsOverTheLabelAndTheLabelOverTheNodeName() {
        NodeClaim byId = launched("by-id", "i-1");
        NodeClaim byLabel = launching("by-label");
        NodeClaim byName = registered("by-name", null, "n");
        Node n = node("n", "i-1", "by-label");
        assertThat(claimOf(n, byName, byLabel, byId)).contains("by-id");
        assertThat(claimOf(n, byName, byLabel)).contains("by-label");
        assertThat(claimOf(n, byName)).contains("by-name");
    }

    @Test
    void aTerminatedClaimNeverMatchesByAnyRule() {
        NodeClaim gone = registered("gone", "i-1", "n").terminated(T0, Duration.ofHours(1));
        assertThat(claimOf(node("n", "i-1", "gone"), gone)).isEmpty();
        assertThat(claimOf(node("n", "i-1", "live"), gone, launching("live"))).as("the next rule then decides").contains("live");
        NodeClaim draining = registered("draining", "i-1", "n").draining("expired", T0);
        assertThat(claimOf(node("n", "i-1", null), draining)).as("deleting is not terminated").contains("draining");
    }

    @Test
    void aLabelOrNodeNameNeverOverridesAContradictingInstanceId() {
        // An EC2 host name is reused: the old claim's node name now belongs to another instance.
        assertThat(claimOf(node("n", "i-new", null), registered("old", "i-old", "n"))).isEmpty();
        assertThat(claimOf(node("n", "i-new", "old"), launched("old", "i-old"))).isEmpty();
        assertThat(claimOf(node("n", null, "old"), launched("old", "i-old"))).as("no provider id yet: nothing contradicts").contains("old");
    }

    @Test
    void severalClaimsUnderOneKeyGiveTheFirstInListOrderThatIsNotRefused() {
        assertThat(claimOf(node("n", "i-1", null), launched("a", "i-1"), launched("b", "i-1"))).contains("a");
        assertThat(claimOf(node("n", "i-1", null), registered("stale", "i-0", "n"), registered("fresh", null, "n")))
                .as("the stale record of a reused name is passed over").contains("fresh");
    }

    @Test
    void aClaimIsInFlightUntilANodeIsItsByTheSameRule() {
        NodeClaim recorded = launching("recorded");
        NodeClaim launchedNoNode = launched("launched", "i-9");
        NodeClaim byId = launched("by-id", "i-1");
        NodeClaim byLabel = launching("by-label");
        NodeClaim contradicted = launched("contradicted", "i-7");
        NodeClaim registeredGone = registered("registered", "i-8", "node-gone");
        NodeClaim terminated = launching("terminated").terminated(T0, Duration.ofHours(1));
        List<Node> nodes = List.of(node("n1", "i-1", null), node("n2", "i-2", "by-label"), node("n3", "i-3", "contradicted"));
        ClaimsByNode index = new ClaimsByNode(List.of(recorded, launchedNoNode, byId, byLabel, contradicted, registeredGone, terminated));

        assertThat(index.inFlight(nodes)).extracting(NodeClaim::name).containsExactly("recorded", "launched", "contradicted");
        assertThat(index.byNode(nodes)).containsOnlyKeys("n1", "n2");
        assertThat(index.nodesByClaim(nodes)).containsOnlyKeys("by-id", "by-label");
        assertThat(index.nodesByClaim(nodes).get("by-label").name()).isEqualTo("n2");
        for (Node n : nodes) {
            index.claimOf(n).ifPresent(c -> assertThat(index.inFlight(nodes)).as("a node's claim is never also in flight")
                    .doesNotContain(c));
        }
    }

    @Test
    void theStoresLookupsDecideAsTheIndexDoes() {
        InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
        List<NodeClaim> claims = List.of(launched("by-id", "i-1"), launching("by-label"), registered("by-name", null, "n3"),
                registered("gone", "i-4", "n4").terminated(T0, Duration.ofHours(1)));
        claims.forEach(store::create);
        ClaimsByNode.Lookup lookup = new ClaimsByNode.Lookup() {
            @Override
            public List<NodeClaim> byInstanceId(String instanceId) {
                return store.findByInstanceId(instanceId, T0).stream().toList();
            }

            @Override
            public List<NodeClaim> byName(String claimName) {
                return store.get(claimName, T0).stream().toList();
            }

            @Override
            public List<NodeClaim> byNodeName(String nodeName) {
                return store.list(T0).stream().filter(c -> nodeName.equals(c.nodeName())).toList();
            }
        };
        ClaimsByNode index = new ClaimsByNode(store.list(T0));
        for (Node n : List.of(node("n1", "i-1", "by-label"), node("n2", "i-2", "by-label"), node("n3", null, null),
                node("n4", "i-4", null), node("n5", "i-5", null))) {
            assertThat(ClaimsByNode.match(n, lookup).map(NodeClaim::name)).as(n.name())
                    .isEqualTo(index.claimOf(n).map(NodeClaim::name));
        }
        assertThat(ClaimsByNode.match(node("n1", "i-1", "by-label"), lookup)).map(NodeClaim::name).contains("by-id");
    }
}
