package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;

/**
 * The command's last step: every replacement is up, so the leader says Handed, each candidate goes to the termination
 * flow (reason {@code empty}/{@code underutilized}) and the replacements are unmarked. Handed is written first: from then
 * on a redelivery ({@link #finish}) or the sweep ({@link #handOver}) finishes a hand-off cut short, never aborts it (a
 * crash between two candidates must not keep the rest beside their replacement).
 */
final class HandOff {
    private final CommandStore commands;
    private final TerminationService termination;
    private final ConsolidationService.Journal journal;

    HandOff(CommandStore commands, TerminationService termination, ConsolidationService.Journal journal) {
        this.commands = commands;
        this.termination = termination;
        this.journal = journal;
    }

    /** Hands the command's candidates over; null when the leader changed under it without moving the command. */
    ConsolidationOutcome run(NodeClaim leader, ConsolidationMark m, Instant now) {
        CommandStore.Write w = commands.moveOn(leader, m, m.next(Phase.Handed, m.replacements(), m.deadline(), now), now);
        if (w != CommandStore.Write.DONE) {
            return CommandStore.lost(w, m.command());
        }
        for (String name : m.candidates()) {
            termination.start(name, TerminationStart.because(m.reason()).with(FirstSlice.QUEUED)); // a started flow is left alone
        }
        for (String name : m.replacements()) {
            commands.unmark(name, m.command(), now);
        }
        journal.record("handed", m.command(), "command " + m.command() + ": " + m.nodes() + " to the termination flow ("
                + m.reason() + ")" + (m.replacements().isEmpty() ? "" : ", replaced by " + m.replacements()),
                m.priceBefore() - m.plannedPrice());
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.HANDED,
                m.reason() + ": " + m.nodes() + (m.replacements().isEmpty() ? "" : " replaced by " + m.replacements()),
                m.priceBefore() - m.plannedPrice());
    }

    /** The hand-off's own message, delivered again: a crash may have cut the hand-off short; finish it. */
    ConsolidationOutcome finish(ConsolidationMark m, Instant now) {
        for (String name : m.candidates()) {
            commands.get(name, now).filter(c -> !c.state().isDeleting() && c.consolidation() != null
                    && c.consolidation().command().equals(m.command())).ifPresent(c -> handOver(c, m));
        }
        for (String name : m.replacements()) {
            commands.unmark(name, m.command(), now);
        }
        return ConsolidationOutcome.ignored(m.command(), "hand-off of " + m.nodes() + " finished");
    }

    /** One claim of a command handing over: a candidate goes to the termination flow, a replacement is unmarked. */
    void handOver(NodeClaim c, ConsolidationMark m) {
        if (m.candidates().contains(c.name())) {
            termination.start(c.name(), TerminationStart.because(m.reason()).with(FirstSlice.QUEUED));
        } else {
            commands.update(c.withConsolidation(null));
        }
    }
}
