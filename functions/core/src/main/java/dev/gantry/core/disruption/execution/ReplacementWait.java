package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Phase Launching: every {@link ConsolidationService#POLL} until each replacement is initialized, then the hand-off. A
 * failed replacement, or {@link ConsolidationService#LAUNCH_TIMEOUT}, aborts.
 */
final class ReplacementWait {
    private final CommandStore commands;
    private final CandidateTaints taints;
    private final CommandRelease release;
    private final HandOff handOff;

    ReplacementWait(CommandStore commands, CandidateTaints taints, CommandRelease release, HandOff handOff) {
        this.commands = commands;
        this.taints = taints;
        this.release = release;
        this.handOff = handOff;
    }

    /** Looks at the replacements once; null when the leader changed under it without moving the command (decide again). */
    ConsolidationOutcome run(NodeClaim leader, ConsolidationMark m, Instant now) {
        Map<String, Optional<NodeClaim>> read = new LinkedHashMap<>(); // each replacement read once
        m.replacements().forEach(name -> read.put(name, commands.get(name, now)));
        Optional<String> failed = m.failedReplacement(read::get);
        if (failed.isPresent()) {
            return release.abort(leader, m, ConsolidationAbort.replacementFailed(failed.get(), read.get(failed.get())), now);
        }
        boolean waiting = read.values().stream().anyMatch(r -> r.orElseThrow().state().isBefore(NodeClaimState.Initialized));
        if (!waiting) {
            return handOff.run(leader, m, now);
        }
        if (!now.isBefore(m.deadline())) {
            return release.abort(leader, m, ConsolidationAbort.replacementsLate(), now);
        }
        ConsolidationMark next = m.next(Phase.Launching, m.replacements(), m.deadline(), now);
        CommandStore.Write w = commands.moveOn(leader, m, next, now);
        if (w != CommandStore.Write.DONE) {
            return CommandStore.lost(w, m.command());
        }
        commands.send(leader.name(), m.command(), next.step(), ConsolidationService.POLL);
        taints.taintWhileActive(m, now); // again: a crash may have come between validation's leader write and its taint
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.WAITING, "waiting for " + m.replacements(), 0);
    }
}
