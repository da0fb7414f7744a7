package dev.gantry.core.disruption.execution;

import dev.gantry.core.disruption.consolidation.Consolidation;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationDecision;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The sweep's decision when no command is under way: decides on the whole cluster, records each kept node's verdict as
 * an event, and starts the command found ({@link CommandStart}). A decision that found nothing stands for
 * {@link ConsolidationService#QUIET_FOR} while its inputs ({@link DecisionKey}) are unchanged, per function instance.
 */
final class SweepDecision {
    private final ConsolidationService.Offers offers;
    private final ConsolidationSettings settings;
    private final NodeEvents events;
    private final CommandStart start;
    private final ConsolidationService.Journal journal;
    /** The input key of the last decision that found nothing to do, and its candidate count. */
    private String quietKey;
    private Instant quietAt;
    private int quietCandidates;

    SweepDecision(ConsolidationService.Offers offers, ConsolidationSettings settings, NodeEvents events, CommandStart start,
                  ConsolidationService.Journal journal) {
        this.offers = offers;
        this.settings = settings;
        this.events = events;
        this.start = start;
        this.journal = journal;
    }

    /** {@code podEvents} and {@code resumed} are what the sweep did before, for the report. */
    ConsolidationReport decide(ClusterSnapshot snap, List<Pod> headroom, Set<String> active, int podEvents, int resumed,
                               Instant now) {
        ConsolidationInput input = snap.input(offers.at(snap.view(), now), headroom, settings, now, null, active);
        String key = DecisionKey.of(input);
        if (key.equals(quietKey) && now.isBefore(quietAt.plus(ConsolidationService.QUIET_FOR))) {
            return new ConsolidationReport(quietCandidates, 0, 0, null, "nothing changed since the last decision", List.of(),
                    podEvents, resumed, 0);
        }
        long t0 = System.nanoTime();
        ConsolidationDecision d = Consolidation.decide(input);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        events.record(d.verdicts(), now);
        int candidates = d.verdicts().size() + d.command().map(c -> c.nodes().size()).orElse(0);
        if (d.command().isEmpty()) {
            quietKey = key;
            quietAt = now;
            quietCandidates = candidates;
            return new ConsolidationReport(candidates, 0, 0, null, null, d.verdicts(), podEvents, resumed, millis);
        }
        quietKey = null;
        ConsolidationCommand cmd = d.command().get();
        String id = start.start(cmd, now);
        if (id == null) {
            return new ConsolidationReport(candidates, 0, 0, null, "a candidate changed while the command was written",
                    d.verdicts(), podEvents, resumed, millis);
        }
        String line = String.format("command %s (%s, %s): remove %s%s, $%.4f/h -> $%.4f/h", id, cmd.method(), cmd.decidedBy(),
                String.join(", ", cmd.nodes()), cmd.replacements().isEmpty() ? ""
                        : ", launch " + cmd.replacements().stream().map(r -> r.instanceType().name()).toList(),
                cmd.priceBefore(), cmd.priceAfter());
        journal.record("decided", id, line, cmd.savings());
        return new ConsolidationReport(candidates, 1, cmd.savings(), line, null, d.verdicts(), podEvents, resumed, millis);
    }
}
