package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The sweep's care of the commands: resumes those whose leader stalled ({@link ConsolidationService#STALLED_AFTER}),
 * aborts those past {@link ConsolidationService#COMMAND_TIMEOUT}, finishes hand-offs cut short, and releases claims
 * whose command is over or never started (a follower written before a crash, the candidates and replacements of an
 * aborted command).
 */
final class CommandUpkeep {
    private final CommandStore commands;
    private final CommandRelease release;
    private final HandOff handOff;

    CommandUpkeep(CommandStore commands, CommandRelease release, HandOff handOff) {
        this.commands = commands;
        this.release = release;
        this.handOff = handOff;
    }

    /**
     * Returns how many claims it touched. A claim whose clean-up fails is left for the next sweep and does not stop the
     * others, nor the decision.
     */
    int run(List<NodeClaim> claims, Instant now) {
        Set<String> active = CommandStore.activeCommands(claims);
        Set<String> handing = CommandStore.handingCommands(claims);
        int touched = 0;
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m == null) {
                continue;
            }
            try {
                if (m.isLeader(c.name()) && active.contains(m.command())) {
                    if (!now.isBefore(ConsolidationService.timeout(m))) {
                        release.abort(c, m, ConsolidationAbort.timedOut(), now);
                        touched++;
                    } else if (!now.isBefore(m.updatedAt().plus(ConsolidationService.STALLED_AFTER))) {
                        commands.send(c.name(), m.command(), m.step(), Duration.ZERO);
                        touched++;
                    }
                } else if (c.state().isDeleting()) {
                    continue; // the termination flow's
                } else if (handing.contains(m.command())) {
                    handOff.handOver(c, m);
                    touched++;
                } else if (!active.contains(m.command())) {
                    release.release(c, m, now);
                    touched++;
                }
            } catch (RuntimeException e) {
                System.getLogger(ConsolidationService.class.getName()).log(System.Logger.Level.WARNING,
                        "consolidation: nodeclaim/" + c.name() + " of command " + m.command() + " left for the next sweep: " + e);
            }
        }
        return touched;
    }
}
