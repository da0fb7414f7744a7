package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code karpenter.sh/disrupted} taints no flow owns, which the sweep removes (Karpenter strips them on every
 * disruption loop). Without it a taint left by an overlap or a crash makes its node read as deleting for ever: never
 * consolidated, emptied or expired, and one less in its pool's budget.
 * <p>
 * Only Gantry's nodes are judged: those with a live claim ({@link ClaimsByNode}'s rule).
 * A taint is owned while the node is being deleted (its {@code deletionTimestamp}), while its claim is deleting (a
 * termination flow: expiry, interruption, drift, emptiness, a hand-off), or while its claim carries a consolidation
 * command that is under way or handing over.
 * <p>
 * Read the nodes before the claims: every owner records itself on the claim before it taints (a flow marks the claim
 * deleting first; consolidation writes its leader first), so a taint seen in the earlier read has its owner in the
 * later one, and a taint that lands after the read of the nodes is not judged at all.
 */
public final class StaleTaints {
    private StaleTaints() {
    }

    /** The names of the nodes whose disrupted taint no flow owns, in node order. */
    public static List<String> of(List<Node> nodes, List<NodeClaim> claims) {
        ClaimsByNode index = new ClaimsByNode(claims);
        Set<String> active = CommandStore.activeCommands(claims);
        Set<String> handing = CommandStore.handingCommands(claims);
        List<String> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.deletionTimestamp() != null || !n.hasTaint(Taint.DISRUPTED)) {
                continue;
            }
            NodeClaim c = index.claimOf(n).orElse(null);
            if (c == null || c.state().isDeleting()) {
                continue;
            }
            ConsolidationMark m = c.consolidation();
            if (m == null || !(active.contains(m.command()) || handing.contains(m.command()))) {
                out.add(n.name());
            }
        }
        return out;
    }
}
