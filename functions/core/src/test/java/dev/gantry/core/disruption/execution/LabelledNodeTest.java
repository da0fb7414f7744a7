package dev.gantry.core.disruption.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.provisioning.ClusterView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A node whose {@code gantry.dev/nodeclaim} label names its claim is that claim's node even when the claim's record has
 * no instance id or node name that matches it (a crash between the node registering and the store's write): the
 * provisioner's in-flight rule ({@link ClusterView#inFlight}) and consolidation's snapshot ({@link ClusterSnapshot})
 * pair them by one rule ({@link ClaimsByNode}), so both see one node of that claim. Before, the snapshot matched by
 * instance id and node name only: the node read as not Gantry's (never a candidate, a destination for others' pods)
 * while the provisioner counted it as the claim's. Karpenter pairs them by provider id
 * (kubernetes-sigs/karpenter {@code pkg/controllers/nodeclaim/lifecycle/registration.go} Registration.Reconcile);
 * Gantry's label stands in until the store records the instance.
 */
class LabelledNodeTest {

    /** Claim {@code name}'s record without its instance id and node name, the rest as the world wrote it. */
    static NodeClaim withoutIdentity(ConsolidationWorld c, String name) {
        NodeClaim was = c.claim(name);
        Instant at = was.initializedAt();
        return NodeClaim.launching(name, was.nodePool(), "h", List.of(), was.instanceTypeOptions(), List.of(), was.instanceType(),
                was.zone(), was.capacityType(), was.pricePerHour(), was.createdAt()).registered(null, at).initialized(at)
                .withVersion(was.version());
    }

    static void label(ConsolidationWorld c, String node, String claim) {
        c.w.cluster.patchNode(node, new NodePatch(Map.of(ClaimsByNode.LABEL, claim), null, null, null, null, null));
    }

    @Test
    void aNodeNamingItsClaimByLabelIsThatClaimsCandidateAndNeverAlsoInFlight() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 500);
        c.node("b", 1000);
        c.w.store.update(withoutIdentity(c, "a"));
        label(c, "node-a", "a");
        Instant now = c.w.clock.instant();
        List<NodeClaim> claims = c.w.store.list(now);
        ClusterSnapshot snap = ClusterSnapshot.read(c.w.cluster, claims);

        ConsolidationInput in = snap.input(List.of(), List.of(), ConsolidationSettings.DEFAULT, now, null, Set.of());
        ConsolidationInput.ClusterNode a = in.nodes().stream().filter(n -> n.name().equals("node-a")).findFirst().orElseThrow();
        assertThat(a.claim()).isEqualTo("a");
        assertThat(a.initializedAt()).isNotNull();
        assertThat(in.inFlight()).isEmpty();
        assertThat(snap.view().inFlight(claims)).as("the provisioner: a's node is here").isEmpty();
        for (Node n : snap.view().nodes()) {
            assertThat(snap.claimOf(n)).as(n.name()).isEqualTo(new ClaimsByNode(claims).claimOf(n));
        }
    }

    /** Consolidation takes the labelled node as Gantry's: it deletes a (its pod fits on b), not b onto a as if a were not its. */
    @Test
    void consolidationDeletesTheLabelledNodeAsACandidate() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("a", 500);
        c.node("b", 1000);
        c.w.store.update(withoutIdentity(c, "a"));
        label(c, "node-a", "a");

        ConsolidationReport r = c.service.sweep(List.of());

        assertThat(r.decided()).isEqualTo(1);
        assertThat(c.claim("a").consolidation().candidates()).containsExactly("a");
    }

    /** Launched, its instance id lost before the store's write: the node is the claim's (not a candidate yet), not in flight. */
    @Test
    void aLaunchingClaimWhoseNodeCameUpIsThatNodeForBoth() {
        ConsolidationWorld c = new ConsolidationWorld(false);
        c.node("b", 1000);
        Instant at = LifecycleFixtures.T0.minus(Duration.ofMinutes(55));
        NodeClaim x = c.w.store.create(NodeClaim.launching("x", ConsolidationWorld.POOL, "h", List.of(), List.of("big"), List.of(),
                "big", "us-east-1a", "on-demand", 0.10, at));
        Node b = c.w.cluster.node("node-b");
        Map<String, String> labels = new java.util.HashMap<>(b.labels());
        labels.put(ClaimsByNode.LABEL, "x");
        labels.remove(Node.INITIALIZED_LABEL);
        c.w.cluster.putNode(new Node("node-x", "aws:///us-east-1a/i-x", labels, Map.of(), List.of(), b.allocatable(), true,
                false, false, at, List.of(), null));
        Instant now = c.w.clock.instant();
        List<NodeClaim> claims = c.w.store.list(now);
        ClusterSnapshot snap = ClusterSnapshot.read(c.w.cluster, claims);

        ConsolidationInput in = snap.input(List.of(), List.of(), ConsolidationSettings.DEFAULT, now, null, Set.of());
        assertThat(in.nodes()).filteredOn(n -> n.name().equals("node-x")).extracting(ConsolidationInput.ClusterNode::claim)
                .containsExactly(x.name());
        assertThat(in.inFlight()).isEmpty();
        assertThat(snap.view().inFlight(claims)).isEmpty();
    }
}
