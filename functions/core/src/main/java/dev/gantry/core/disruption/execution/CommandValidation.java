package dev.gantry.core.disruption.execution;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.disruption.consolidation.DriftReplacement;
import dev.gantry.core.disruption.consolidation.RebalanceReplacement;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The command's validation, {@link ConsolidationService#VALIDATION_DELAY} after it was decided (Karpenter's validator):
 * re-reads the cluster, decides again on the command's nodes only, and aborts unless the same nodes go for no more than
 * the planned price. Then records the replacements (Launching claims the provisioner launches, nudged by a hint), writes
 * the leader Launching, sends the next message, and taints the candidates.
 */
final class CommandValidation {
    private final ClusterReader reader;
    private final CommandStore commands;
    private final CandidateTaints taints;
    private final CommandRelease release;
    private final ProvisioningHints hints;
    private final ConsolidationService.Offers offers;
    private final ConsolidationService.Replacements replacements;
    private final ConsolidationSettings settings;
    private final Headroom headroom;
    private final ConsolidationService.Journal journal;
    private final PoolBackoff consolidationBackoff;

    /**
     * @param headroom the buffers validation keeps room for, as the sweep's decision did
     * @param backoff  the pools backing off consolidation launches, which validation holds back as the sweep does
     */
    CommandValidation(ClusterReader reader, CommandStore commands, CandidateTaints taints, CommandRelease release,
                      ProvisioningHints hints, ConsolidationService.Offers offers, ConsolidationService.Replacements replacements,
                      ConsolidationSettings settings, Headroom headroom, ConsolidationService.Journal journal,
                      PoolBackoff backoff) {
        this.consolidationBackoff = backoff;
        this.reader = reader;
        this.commands = commands;
        this.taints = taints;
        this.release = release;
        this.hints = hints;
        this.offers = offers;
        this.replacements = replacements;
        this.settings = settings;
        this.headroom = headroom;
        this.journal = journal;
    }

    /**
     * The decision's command, or, when it launches in a pool that backs off consolidation launches (a replacement failed
     * since the sweep decided), the command decided without launching there: validation never launches what the sweep
     * would hold back.
     */
    private Optional<ConsolidationCommand> notHeld(ConsolidationDecision d, ConsolidationInput input, Instant now) {
        ConsolidationDecision again = SweepDecision.held(d, input, consolidationBackoff, now);
        return (again == null ? d : again).command();
    }

    /** The name the command's {@code i}th replacement is recorded under (or, when that name is closed, begins with). */
    static String replacementName(String command, int i) {
        return command + "-r" + i;
    }

    /**
     * Whether {@code claim} is one of {@code command}'s replacements: marked with the command, or, when validation
     * crashed before marking it, by its name.
     */
    static boolean replacementOf(NodeClaim claim, String command) {
        return (claim.consolidation() != null && claim.consolidation().command().equals(command))
                || claim.name().startsWith(command + "-r");
    }

    /** Validates the command; null when the leader changed under it without moving the command (decide again). */
    ConsolidationOutcome run(NodeClaim leader, ConsolidationMark m, Instant now) {
        if (now.isBefore(m.validateAt())) {
            commands.send(leader.name(), m.command(), m.step(), Duration.between(now, m.validateAt()));
            return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.WAITING, "validation not due yet", 0);
        }
        List<NodeClaim> claims = commands.list(now);
        Set<String> active = CommandStore.activeCommands(claims);
        for (String name : m.candidates()) {
            NodeClaim c = claims.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            if (c == null || c.state().isDeleting() || c.consolidation() == null || !c.consolidation().command().equals(m.command())) {
                return release.abort(leader, m, ConsolidationAbort.candidateChanged(name), now);
            }
        }
        List<Pod> buffers;
        try {
            buffers = headroom.at(now).virtualPods();
        } catch (RuntimeException e) {
            // As the sweep, which consolidates no node when it cannot see the buffers.
            return release.abort(leader, m, ConsolidationAbort.buffersUnreadable(e), now);
        }
        ClusterSnapshot snap = ClusterSnapshot.read(reader, claims);
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), buffers, settings, now, m.command(), active)
                .restrictedTo(Set.copyOf(m.nodes()));
        // A drift command is validated by drift's rules: still drifted, still within its budget, its pods still placeable;
        // its replacements may cost more (drift is not about savings).
        // A rebalance command likewise, by rebalance's: still recommended, within budget, its pods placeable elsewhere.
        boolean rebalance = CommandStart.REBALANCE.equals(m.reason());
        boolean drift = rebalance || CommandStart.DRIFTED.equals(m.reason());
        Optional<ConsolidationCommand> again = rebalance
                ? RebalanceReplacement.decide(input, SweepDecision.recommended(input, claims, m.command())).command()
                : drift ? DriftReplacement.decide(input, SweepDecision.drifted(claims, m.command())).command()
                : notHeld(Consolidation.decide(input), input, now);
        ConsolidationAbort why = again.isEmpty() ? (drift ? ConsolidationAbort.noLongerDrifted() : ConsolidationAbort.noLongerWorthIt())
                : !Set.copyOf(again.get().nodes()).equals(Set.copyOf(m.nodes())) ? ConsolidationAbort.otherNodes(again.get().nodes())
                : !drift && again.get().priceAfter() > m.plannedPrice() + 1e-9 ? ConsolidationAbort.costlier(again.get().priceAfter(), m.plannedPrice())
                : null;
        if (why != null) {
            return release.abort(leader, m, why, now);
        }
        ConsolidationCommand cmd = again.get();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < cmd.replacements().size(); i++) {
            NodeClaim recorded = replacements.record(cmd.replacements().get(i), replacementName(m.command(), i), now);
            names.add(recorded.name());
        }
        ConsolidationMark next = m.next(Phase.Launching, names, now.plus(ConsolidationService.LAUNCH_TIMEOUT), now);
        for (String name : names) {
            commands.mark(name, next, now);
        }
        CommandStore.Write w = commands.moveOn(leader, m, next, now);
        if (w != CommandStore.Write.DONE) {
            return CommandStore.lost(w, m.command());
        }
        commands.send(leader.name(), m.command(), next.step(), names.isEmpty() ? Duration.ZERO : ConsolidationService.POLL);
        taints.taintWhileActive(m, now);
        if (!names.isEmpty()) {
            hints.send(ProvisioningHints.REPLACEMENT, null, m.nodes().getFirst(), now);
        }
        journal.record("validated", m.command(), "command " + m.command() + ": " + m.nodes() + " tainted"
                + (names.isEmpty() ? "" : ", replacements " + names + " recorded"), m.priceBefore() - m.plannedPrice());
        return new ConsolidationOutcome(m.command(), ConsolidationOutcome.What.LAUNCHING,
                "validated; " + (names.isEmpty() ? "deleting " : "launching " + names + " to replace ") + m.nodes(), 0);
    }
}
