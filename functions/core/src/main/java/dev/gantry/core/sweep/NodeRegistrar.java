package dev.gantry.core.sweep;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sweep's registration step, also run on its own when a node registers ({@link SweepService#registerNodes}):
 * launched claims are matched to the Nodes that appeared, which get their labels and finalizer, and the claims move to
 * Registered, then Initialized. Idempotent.
 */
final class NodeRegistrar {
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final Map<String, NodePool> pools;
    private final InstanceFacts.Source facts;

    NodeRegistrar(ClusterWriter writer, NodeClaimStore store, Map<String, NodePool> pools, InstanceFacts.Source facts) {
        this.writer = writer;
        this.store = store;
        this.pools = pools;
        this.facts = facts;
    }

    /** What the registration step did: claims that moved to Registered, and to Initialized. */
    record Registered(int registered, int initialized) {
    }

    /**
     * Moves each Launched or Registered claim whose Node appeared one step on ({@link Registration#decide}): labels,
     * taints and finalizer on the Node first, then the claim. A claim changed meanwhile loses its conditional write and
     * the next sweep decides again; a Node deleted meanwhile is skipped.
     */
    Registered register(List<NodeClaim> claims, List<Node> nodes, Instant now) {
        return register(claims, nodes, now, () -> true);
    }

    /**
     * As {@link #register(List, List, Instant)}, but no claim is started once {@code inTime} says no: a thousand nodes
     * registering at once take two writes each, and a sweep that wrote them all could run past its timeout (the webhook
     * burst: 2 sweeps of 30 timed out). Each step stands alone, so the next sweep goes on where this one stopped.
     */
    Registered register(List<NodeClaim> claims, List<Node> nodes, Instant now, java.util.function.BooleanSupplier inTime) {
        int registered = 0;
        int initialized = 0;
        NodeIndex index = new NodeIndex(nodes, claims);
        for (NodeClaim c : claims) {
            if (c.state() != NodeClaimState.Launched && c.state() != NodeClaimState.Registered) {
                continue;
            }
            if (!inTime.getAsBoolean()) {
                break;
            }
            Optional<Node> node = index.of(c);
            NodePool pool = pools.get(c.nodePool());
            if (node.isEmpty() || pool == null) {
                continue;
            }
            InstanceFacts f = c.instanceType() == null ? InstanceFacts.NONE : facts.of(c.instanceType()).orElse(InstanceFacts.NONE);
            Optional<Registration.Transition> step = Registration.decide(c, node.get(), pool, f, now);
            if (step.isEmpty()) {
                continue;
            }
            if (step.get().patch() != null) {
                patchIfPresent(writer, node.get().name(), step.get().patch());
            }
            try {
                store.update(step.get().updated());
                registered += c.state() == NodeClaimState.Launched ? 1 : 0;
                initialized += step.get().updated().state() == NodeClaimState.Initialized ? 1 : 0;
            } catch (NodeClaimStore.Conflict lost) {
                // changed under us (an interruption, say): the next sweep decides again
            }
        }
        return new Registered(registered, initialized);
    }


    /** Patches {@code node}; a Node already gone is not an error (its claim's flow notices on its own). */
    static void patchIfPresent(ClusterWriter writer, String node, NodePatch p) {
        try {
            writer.patchNode(node, p);
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }
}
