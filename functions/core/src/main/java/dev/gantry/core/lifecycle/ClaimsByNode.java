package dev.gantry.core.lifecycle;

import dev.gantry.core.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule for "which NodeClaim is this Node". Every caller that pairs a Node with its claim uses it: in memory
 * through an index built once from a list of claims ({@link #ClaimsByNode(List)}), or through the store
 * ({@link #match(Node, Lookup)} with the store's own lookups), so the provisioner, consolidation, the sweep and the
 * termination flow never disagree about a node.
 * <p>
 * The rule, first match wins:
 * <ol>
 *   <li>By instance id: the claim that recorded the node's instance (from its {@code spec.providerID}). Karpenter
 *       matches a Node and its NodeClaim by provider id (kubernetes-sigs/karpenter: pkg/controllers/state/cluster.go
 *       keeps both under their provider id; pkg/controllers/nodeclaim/lifecycle/registration.go
 *       {@code Registration.Reconcile} finds the claim's Node with {@code nodeclaimutils.NodeForNodeClaim}, by
 *       {@code spec.providerID} equal to the claim's {@code status.providerID}).</li>
 *   <li>By the {@value #LABEL} label the launcher puts on the node, naming its claim: it matches before the store
 *       records the instance or the node (a crash between the node registering and the claim's write).</li>
 *   <li>By the node name the claim registered with.</li>
 * </ol>
 * Tie-breaks and refusals:
 * <ul>
 *   <li>A Terminated claim never matches: its instance is gone, and a node name (an EC2 host name) is reused.</li>
 *   <li>A label or node-name match is refused when the node and the claim both know an instance id and the ids
 *       differ: the provider id is the node's identity, and a reused node name or a stale label never overrides
 *       it.</li>
 *   <li>Several live claims under one key (two records of one instance, or of one node name): the first in the
 *       list's order that is not refused.</li>
 *   <li>Each node gets at most one claim; a claim may be the match of two nodes only in a contradiction the refusals
 *       above do not catch (a node without a provider id yet carrying the label of a claim whose instance is another
 *       node): each is given it, and read the other way ({@link #nodesByClaim}) the claim gets the first in node
 *       order.</li>
 * </ul>
 * A claim is in flight ({@link #inFlight}) when it is launching or launched, has no node name recorded, and no node
 * here matches it: a claim whose node is here is that node, never both.
 * <p>
 * Drift and AMI rollouts find a claim's node here too ({@link #nodesByClaim}): by the name alone, a node that took a
 * live claim's EC2 host name on another instance was that claim's, and judged its drift or failed its canary. Not
 * through here, on purpose: housekeeping and instance health start from EC2's instances, by instance id.
 */
public final class ClaimsByNode {
    /** The label the launcher puts on every node, naming its claim ({@link NodeClaim#name()}). */
    public static final String LABEL = "gantry.dev/nodeclaim";

    /** Where the rule finds its candidates: each returns the claims under a key, in order (empty when none). */
    public interface Lookup {
        List<NodeClaim> byInstanceId(String instanceId);

        List<NodeClaim> byName(String claimName);

        List<NodeClaim> byNodeName(String nodeName);
    }

    private final List<NodeClaim> claims;
    private final Map<String, List<NodeClaim>> byInstance = new HashMap<>();
    private final Map<String, List<NodeClaim>> byName = new HashMap<>();
    private final Map<String, List<NodeClaim>> byNodeName = new HashMap<>();
    private final Lookup lookup = new Lookup() {
        @Override
        public List<NodeClaim> byInstanceId(String instanceId) {
            return byInstance.getOrDefault(instanceId, List.of());
        }

        @Override
        public List<NodeClaim> byName(String claimName) {
            return byName.getOrDefault(claimName, List.of());
        }

        @Override
        public List<NodeClaim> byNodeName(String nodeName) {
            return byNodeName.getOrDefault(nodeName, List.of());
        }
    };

    /** An index of {@code claims} (Terminated ones are left out: they never match). */
    public ClaimsByNode(List<NodeClaim> claims) {
        this.claims = List.copyOf(claims);
        for (NodeClaim c : this.claims) {
            if (!live(c)) {
                continue;
            }
            if (c.instanceId() != null) {
                byInstance.computeIfAbsent(c.instanceId(), k -> new ArrayList<>(1)).add(c);
            }
            byName.computeIfAbsent(c.name(), k -> new ArrayList<>(1)).add(c);
            if (c.nodeName() != null) {
                byNodeName.computeIfAbsent(c.nodeName(), k -> new ArrayList<>(1)).add(c);
            }
        }
    }

    /** The node's claim by the rule, among this index's claims. */
    public Optional<NodeClaim> claimOf(Node n) {
        return match(n, lookup);
    }

    /** Each node's claim by the rule, by node name, in node order; nodes without one are left out. */
    public Map<String, NodeClaim> byNode(List<Node> nodes) {
        Map<String, NodeClaim> out = new LinkedHashMap<>();
        for (Node n : nodes) {
            claimOf(n).ifPresent(c -> out.put(n.name(), c));
        }
        return out;
    }

    /**
     * Each claim's node, by claim name: the node whose claim by the rule it is, the first in node order if two are (the
     * rule read the other way, as the sweep finds a claim's node).
     */
    public Map<String, Node> nodesByClaim(List<Node> nodes) {
        Map<String, Node> out = new HashMap<>();
        for (Node n : nodes) {
            claimOf(n).ifPresent(c -> out.putIfAbsent(c.name(), n));
        }
        return out;
    }

    /**
     * The claims in flight, in the index's order: launching or launched, no node name recorded, and not the claim of
     * any of {@code nodes}.
     */
    public List<NodeClaim> inFlight(List<Node> nodes) {
        Set<String> placed = new HashSet<>();
        for (Node n : nodes) {
            claimOf(n).ifPresent(c -> placed.add(c.name()));
        }
        return claims.stream().filter(c -> c.state().isInFlight() && c.nodeName() == null && !placed.contains(c.name())).toList();
    }

    /** The node's claim by the rule, its candidates found by {@code lookup} (the store's, or an index's). */
    public static Optional<NodeClaim> match(Node n, Lookup lookup) {
        String id = n.instanceId();
        if (id != null) {
            for (NodeClaim c : lookup.byInstanceId(id)) {
                if (live(c) && id.equals(c.instanceId())) {
                    return Optional.of(c);
                }
            }
        }
        String label = n.labels().get(LABEL);
        if (label != null) {
            Optional<NodeClaim> c = first(n, lookup.byName(label));
            if (c.isPresent()) {
                return c;
            }
        }
        return first(n, lookup.byNodeName(n.name()).stream().filter(c -> n.name().equals(c.nodeName())).toList());
    }

    /**
     * Whether {@code c} could be the node's claim by its label or node name: it is not Terminated, and the node and the
     * claim do not know two different instance ids.
     */
    public static boolean consistent(Node n, NodeClaim c) {
        String id = n.instanceId();
        return live(c) && (id == null || c.instanceId() == null || id.equals(c.instanceId()));
    }

    private static Optional<NodeClaim> first(Node n, List<NodeClaim> candidates) {
        for (NodeClaim c : candidates) {
            if (consistent(n, c)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    private static boolean live(NodeClaim c) {
        return c.state() != NodeClaimState.Terminated;
    }
}
