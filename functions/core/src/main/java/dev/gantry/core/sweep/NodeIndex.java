package dev.gantry.core.sweep;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A claim's Node: the first in list order whose instance is the claim's or whose name the claim registered with.
 * Indexed, so that matching every claim costs one pass over the nodes, not one per claim (pairwise, 1,000 nodes would
 * cost a million provider-id parses per sweep).
 */
final class NodeIndex {
    private final Map<String, Integer> byInstance = new HashMap<>();
    private final Map<String, Integer> byName = new HashMap<>();
    private final List<Node> nodes;

    NodeIndex(List<Node> nodes) {
        this.nodes = nodes;
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            String id = n.instanceId();
            if (id != null) {
                byInstance.putIfAbsent(id, i);
            }
            byName.putIfAbsent(n.name(), i);
        }
    }

    Optional<Node> of(NodeClaim c) {
        Integer a = c.instanceId() == null ? null : byInstance.get(c.instanceId());
        Integer b = c.nodeName() == null ? null : byName.get(c.nodeName());
        Integer first = a;
        if (first == null || (b != null && b < first)) {
            first = b;
        }
        return first == null ? Optional.empty() : Optional.of(nodes.get(first));
    }
}
