package dev.gantry.core.disruption.consolidation;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of one consolidation pass: at most one command, and a verdict for every managed node it leaves alone.
 *
 * @param simulations how many re-placement simulations the search ran (for metrics)
 */
public record ConsolidationDecision(Optional<ConsolidationCommand> command, List<Verdict> verdicts, int simulations) {
    public ConsolidationDecision {
        verdicts = List.copyOf(verdicts);
    }

    /** The verdict for a node, if it has one. */
    public Optional<Verdict> verdict(String node) {
        return verdicts.stream().filter(v -> v.node().equals(node)).findFirst();
    }
}
