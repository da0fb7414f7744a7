package dev.gantry.core.sweep;

import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A claim's Node: a node whose claim by {@link ClaimsByNode}'s rule it is (instance id, then the
 * {@code gantry.dev/nodeclaim} label, then the registered node name; never a Terminated claim), the first in node order
 * if two are. The same rule as consolidation's and the provisioner's, read the other way. Indexed, so that matching every
 * claim costs one pass over the nodes, not one per claim (pairwise, 1,000 nodes would cost a million provider-id parses
 * per sweep).
 */
final class NodeIndex {
    private final Map<String, Node> byClaim;

    NodeIndex(List<Node> nodes, List<NodeClaim> claims) {
        byClaim = new ClaimsByNode(claims).nodesByClaim(nodes);
    }

    /** {@code c}'s node; {@code c} must be one of the claims the index was built from. */
    Optional<Node> of(NodeClaim c) {
        return Optional.ofNullable(byClaim.get(c.name()));
    }
}
