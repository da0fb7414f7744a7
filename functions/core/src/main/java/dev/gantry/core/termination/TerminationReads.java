package dev.gantry.core.termination;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a termination slice looks up besides its own claim: the claim's Node, the claim of a deleted Node, and whether a
 * drain that waits for its replacement still has capacity to come. Reads only.
 */
final class TerminationReads {
    private final ClusterReader reader;
    private final NodeClaimStore store;

    TerminationReads(ClusterReader reader, NodeClaimStore store) {
        this.reader = reader;
        this.store = store;
    }

    /**
     * For a drain that waits for its replacement: whether the capacity for its node's pods is still to come. It is
     * until a provisioning run has planned them since the claim was marked ({@link TerminationMarkers#REPLACEMENTS_PLANNED}
     * after {@link TerminationMarkers#waitForReplacement}), and then while a claim recorded for one of them (by name, as
     * the provisioner records a claim's pods) is not yet initialized. Pods the plan found room for on existing nodes,
     * or no room at all, have nothing to wait for; nor has a node without pods that move.
     */
    boolean replacementPending(NodeClaim claim, List<Pod> pods, Instant now) {
        Optional<Instant> waiting = store.marker(TerminationMarkers.waitForReplacement(claim.name()));
        if (waiting.isEmpty()) {
            return false;
        }
        Set<String> moving = new HashSet<>();
        pods.stream().filter(EvictionCost::reschedulable).forEach(p -> moving.add(p.key()));
        if (moving.isEmpty()) {
            return false;
        }
        boolean planned = store.marker(TerminationMarkers.REPLACEMENTS_PLANNED).filter(t -> t.isAfter(waiting.get())).isPresent();
        if (!planned) {
            return true;
        }
        return store.list(now).stream().anyMatch(c -> !c.name().equals(claim.name())
                && c.state().isBefore(NodeClaimState.Initialized) && c.pods().stream().anyMatch(moving::contains));
    }

    /**
     * The claim's Node, by {@link ClaimsByNode}'s rule checked against this claim alone. A registered claim costs one
     * GET, by the name it registered with, the node kept when the rule gives it this claim (not Terminated, no
     * contradicting instance id). Only a claim that never registered (rare in a drain) is looked for among all nodes:
     * the node with its instance, else the node carrying its name in the {@value ClaimsByNode#LABEL} label (launched,
     * the store's write of the instance lost). A registered claim whose node is not found under its name is not looked
     * for under another: the name is fixed at registration, and in a drain the node is usually gone already, so a list
     * of every node per slice would find nothing at a high price.
     */
    Optional<Node> nodeOf(NodeClaim claim) {
        ClaimsByNode index = new ClaimsByNode(List.of(claim));
        if (claim.nodeName() != null) {
            return reader.findNode(claim.nodeName()).filter(n -> index.claimOf(n).isPresent());
        }
        List<Node> nodes = reader.nodes();
        Optional<Node> byInstance = claim.instanceId() == null ? Optional.empty()
                : nodes.stream().filter(n -> claim.instanceId().equals(n.instanceId()) && index.claimOf(n).isPresent()).findFirst();
        return byInstance.or(() -> nodes.stream().filter(n -> index.claimOf(n).isPresent()).findFirst());
    }

    /**
     * The claim of a (deleted) Node, by {@link ClaimsByNode}'s rule through the store: its instance id (the store's
     * index), then its {@value ClaimsByNode#LABEL} label (one GET), then a scan for the node name it registered with.
     */
    Optional<NodeClaim> claimFor(Node node, Instant now) {
        return ClaimsByNode.match(node, new ClaimsByNode.Lookup() {
            @Override
            public List<NodeClaim> byInstanceId(String instanceId) {
                return store.findByInstanceId(instanceId, now).stream().toList();
            }

            @Override
            public List<NodeClaim> byName(String claimName) {
                return store.get(claimName, now).stream().toList();
            }

            @Override
            public List<NodeClaim> byNodeName(String nodeName) {
                return store.list(now).stream().filter(c -> nodeName.equals(c.nodeName())).toList();
            }
        });
    }
}
