package dev.gantry.core.termination;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.disruption.EvictionCost;
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
     * The claim's Node: one GET by the name it registered with; only a claim that never registered (rare in a drain)
     * is looked for among all nodes, by its instance.
     */
    Optional<Node> nodeOf(NodeClaim claim) {
        if (claim.nodeName() != null) {
            return reader.findNode(claim.nodeName())
                    .filter(n -> claim.instanceId() == null || n.instanceId() == null || claim.instanceId().equals(n.instanceId()));
        }
        if (claim.instanceId() == null) {
            return Optional.empty();
        }
        return reader.nodes().stream().filter(n -> claim.instanceId().equals(n.instanceId())).findFirst();
    }

    Optional<NodeClaim> claimFor(Node node, Instant now) {
        String id = node.instanceId();
        if (id != null) {
            Optional<NodeClaim> byId = store.findByInstanceId(id, now);
            if (byId.isPresent()) {
                return byId;
            }
        }
        return store.list(now).stream().filter(c -> node.name().equals(c.nodeName())).findFirst();
    }
}
