package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.model.Taint;
import java.time.Instant;
import java.util.List;

/** The {@code karpenter.sh/disrupted:NoSchedule} taint on a command's candidates: put on once validated, taken off on release. */
final class CandidateTaints {
    private static final NodePatch TAINT = new NodePatch(null, List.of(Taint.DISRUPTED), null, null, null, null);
    private static final NodePatch UNTAINT = new NodePatch(null, null, List.of(Taint.DISRUPTED.key()), null, null, null);

    private final ClusterWriter writer;
    private final CommandStore commands;

    CandidateTaints(ClusterWriter writer, CommandStore commands) {
        this.writer = writer;
        this.commands = commands;
    }

    /**
     * Taints the command's candidates, then looks at the leader again: a delivery that aborted the command meanwhile
     * untainted them before this taint landed, so the taint is taken back (from candidates not being deleted).
     */
    void taintWhileActive(ConsolidationMark m, Instant now) {
        for (String node : m.nodes()) {
            patch(node, TAINT);
        }
        ConsolidationMark fresh = commands.markOf(m.leader(), now);
        if (fresh != null && fresh.command().equals(m.command()) && fresh.phase() != Phase.Aborted) {
            return;
        }
        for (int i = 0; i < m.candidates().size(); i++) {
            String node = m.nodes().get(i);
            commands.get(m.candidates().get(i), now).filter(c -> !c.state().isDeleting()).ifPresent(c -> untaint(node));
        }
    }

    /** Takes the taint off one node (a node already gone is fine). */
    void untaint(String node) {
        patch(node, UNTAINT);
    }

    private void patch(String node, NodePatch p) {
        try {
            writer.patchNode(node, p);
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }
}
