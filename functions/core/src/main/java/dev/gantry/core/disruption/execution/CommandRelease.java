package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives a command up and frees its claims: candidates untainted and unmarked, replacements not yet initialized closed
 * (never launched) or sent to termination, initialized ones kept. A drift command whose replacement failed or was late
 * makes its pool back off drift ({@link PoolBackoff}); a rebalance command's, rebalance; a consolidation command's, the
 * replacement's pool backs off consolidation launches.
 */
final class CommandRelease {
    private final CommandStore commands;
    private final CandidateTaints taints;
    private final TerminationService termination;
    private final ConsolidationService.Journal journal;
    private final PoolBackoff.Kinds backoffs;

    CommandRelease(CommandStore commands, CandidateTaints taints, TerminationService termination,
                   ConsolidationService.Journal journal, PoolBackoff.Kinds backoffs) {
        this.commands = commands;
        this.taints = taints;
        this.termination = termination;
        this.journal = journal;
        this.backoffs = backoffs;
    }

    /**
     * Gives the command up: the leader says so first, then every other claim is released, the leader last. Null when
     * the leader changed under it without moving the command (decide again).
     */
    ConsolidationOutcome abort(NodeClaim leader, ConsolidationMark m, ConsolidationAbort why, Instant now) {
        ConsolidationMark aborted = m.next(Phase.Aborted, m.replacements(), m.deadline(), now);
        boolean replacementFailed = why.reason() == ConsolidationAbort.Reason.REPLACEMENT_FAILED
                || why.reason() == ConsolidationAbort.Reason.REPLACEMENTS_LATE;
        // Read before the release closes them: the pools the replacements were to launch in.
        java.util.Set<String> launchPools = new java.util.LinkedHashSet<>();
        if (replacementFailed && !CommandStart.DRIFTED.equals(m.reason()) && !CommandStart.REBALANCE.equals(m.reason())) {
            for (String r : m.replacements()) {
                launchPools.add(commands.get(r, now).map(NodeClaim::nodePool).orElse(leader.nodePool()));
            }
        }
        if (!leader.state().isDeleting()) {
            CommandStore.Write w = commands.moveOn(leader, m, aborted, now);
            if (w != CommandStore.Write.DONE) {
                return CommandStore.lost(w, m.command());
            }
            leader = commands.get(leader.name(), now).orElse(leader.withConsolidation(aborted));
        }
        List<String> others = new ArrayList<>(m.candidates());
        others.addAll(m.replacements());
        for (String name : others) {
            if (!name.equals(leader.name())) {
                commands.get(name, now).ifPresent(c -> {
                    if (c.consolidation() != null && c.consolidation().command().equals(m.command())) {
                        release(c, c.consolidation(), now);
                    }
                });
            }
        }
        release(leader, aborted, now);
        String text = why.text();
        if (CommandStart.DRIFTED.equals(m.reason()) && replacementFailed) {
            Instant until = backoffs.drift().failed(leader.nodePool(), now);
            text += "; NodePool " + leader.nodePool() + " backs off drift until " + until;
        } else if (CommandStart.REBALANCE.equals(m.reason()) && replacementFailed) {
            Instant until = backoffs.rebalance().failed(leader.nodePool(), now);
            text += "; NodePool " + leader.nodePool() + " backs off rebalance until " + until;
        }
        for (String pool : launchPools) {
            if (pool != null) {
                Instant until = backoffs.consolidation().failed(pool, now);
                text += "; NodePool " + pool + " launches no consolidation replacement until " + until;
            }
        }
        journal.record("aborted", m.command(), "command " + m.command() + " (" + m.nodes() + "): " + text, 0);
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.ABORTED, text, 0);
    }

    /**
     * Frees one claim from a command that is over: a candidate is untainted (unless it is being deleted) and unmarked; a
     * replacement not yet initialized is closed (never launched) or sent to termination, an initialized one kept.
     */
    void release(NodeClaim c, ConsolidationMark m, Instant now) {
        boolean replacement = m.replacements().contains(c.name()) || (!m.candidates().contains(c.name()) && c.fromConsolidation());
        if (replacement && c.state().isBefore(NodeClaimState.Initialized) && !c.state().isDeleting()) {
            if (c.state() == NodeClaimState.Launching) {
                commands.update(c.withConsolidation(null).draining("consolidation-aborted", now).terminated(now, TerminationService.RETENTION));
            } else {
                termination.start(c.name(), TerminationStart.because("consolidation-aborted").with(FirstSlice.QUEUED));
            }
            return;
        }
        if (c.state().isDeleting()) {
            return; // the termination flow's now
        }
        if (!replacement && c.nodeName() != null) {
            taints.untaint(c.nodeName());
        }
        commands.update(c.withConsolidation(null));
    }
}
