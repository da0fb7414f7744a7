package dev.gantry.core.disruption.execution;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.NodePool;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A decided command's first step: written to its candidates (followers first, the leader last, so a follower without
 * its leader's mark belongs to no command), then its validation message is sent
 * {@link ConsolidationService#VALIDATION_DELAY} later.
 */
final class CommandStart {
    /** The mark's reason for a drift command: validated by drift's rules, and the candidates' termination reason. */
    static final String DRIFTED = "drifted";
    /** The mark's reason for a rebalance command: validated by rebalance's rules, and the candidates' termination reason. */
    static final String REBALANCE = dev.gantry.core.disruption.Rebalance.REASON;
    private final CommandStore commands;

    CommandStart(CommandStore commands) {
        this.commands = commands;
    }

    /** The command's id, or null when a candidate changed while it was written (the next sweep cleans up). */
    String start(ConsolidationCommand cmd, Instant now) {
        List<String> claims = cmd.claims();
        String leader = claims.getFirst();
        // Drift and rebalance commands may start beside one another: theirs also name the leader (a short hash), so two
        // started at the same instant never share an id (nor their replacements' names).
        boolean rebalance = cmd.method() == ConsolidationCommand.Method.REBALANCE;
        String id = cmd.reason() == NodePool.Reason.Drifted || rebalance
                ? (rebalance ? "r-" : "d-") + Long.toString(now.toEpochMilli(), 36) + "-" + String.format("%04x", leader.hashCode() & 0xffff)
                : "c-" + Long.toString(now.toEpochMilli(), 36);
        Instant validateAt = now.plus(ConsolidationService.VALIDATION_DELAY);
        ConsolidationMark mark = new ConsolidationMark(id, leader, Phase.Validating, 0, claims, cmd.nodes(), List.of(),
                rebalance ? REBALANCE : reason(cmd.reason()), cmd.priceBefore(), cmd.priceAfter(), validateAt,
                validateAt.plus(ConsolidationService.LAUNCH_TIMEOUT), now);
        for (int i = claims.size() - 1; i >= 0; i--) {
            Optional<NodeClaim> c = commands.get(claims.get(i), now);
            if (c.isEmpty() || c.get().state().isDeleting()) {
                return null;
            }
            try {
                commands.write(c.get().withConsolidation(mark));
            } catch (NodeClaimStore.Conflict lost) {
                return null; // the followers written are cleaned up by the next sweep (their leader has no mark)
            }
        }
        commands.send(leader, id, 0, ConsolidationService.VALIDATION_DELAY);
        return id;
    }

    /** The budget reason the command counts against, as its mark records it. */
    private static String reason(NodePool.Reason r) {
        return switch (r) {
            case Empty -> "empty";
            case Drifted -> DRIFTED;
            case Underutilized -> "underutilized";
        };
    }
}
