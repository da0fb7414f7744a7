package dev.gantry.simulator.observe;

import dev.gantry.core.health.RepairPolicies;
import dev.gantry.core.health.RepairPolicy;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeCondition;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The invariant {@value #KIND}: a node repaired (deletion reason {@code unhealthy}) while more than 20% of its pool
 * (rounded up, as a PDB's percentage: Karpenter's safeguard) was unhealthy. Counted on its own terms, from the nodes
 * the cluster has when the repair is first seen (the repaired node counted unhealthy whether or not it is still
 * there), against Karpenter's table of conditions ({@link RepairPolicies#AWS}) but not Gantry's safeguard code.
 */
final class RepairChecks {
    static final String KIND = "repairWhileUnhealthy";
    private final Set<String> judged = new HashSet<>();

    void check(List<NodeClaim> claims, List<Node> nodes, Checks.Episodes episodes) {
        for (NodeClaim c : claims) {
            if (!"unhealthy".equals(c.deletionReason()) || c.deletionRequestedAt() == null || !judged.add(c.name())) {
                continue;
            }
            int total = 0;
            int unhealthy = 0;
            boolean seen = false;
            for (Node n : nodes) {
                boolean inScope = c.nodePool() == null || c.nodePool().isEmpty()
                        || c.nodePool().equals(n.labels().get(WellKnownLabels.NODEPOOL));
                if (!inScope) {
                    continue;
                }
                boolean self = n.instanceId() != null && n.instanceId().equals(c.instanceId());
                seen |= self;
                total++;
                unhealthy += self || unhealthy(n) ? 1 : 0;
            }
            if (!seen) {
                total++;
                unhealthy++;
            }
            int allowed = (int) Math.ceil(total * 0.2);
            if (unhealthy > allowed) {
                episodes.violated(KIND, "nodeclaim " + c.name() + " repaired while " + unhealthy + " of " + total
                        + " nodes of pool " + c.nodePool() + " were unhealthy (" + allowed + " allowed)");
            }
        }
    }

    private static boolean unhealthy(Node n) {
        if (!n.ready() && n.condition(NodeCondition.READY).isEmpty()) {
            return true;
        }
        for (RepairPolicy p : RepairPolicies.AWS) {
            if (n.condition(p.type()).filter(x -> x.status().equals(p.status())).isPresent()) {
                return true;
            }
        }
        return false;
    }
}
