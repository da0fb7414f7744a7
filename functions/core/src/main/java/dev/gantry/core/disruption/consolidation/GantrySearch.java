package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import java.util.List;

/**
 * Gantry's underutilized search, on Gantry's cost-aware placement: multi-node (a binary search over batches of at
 * most {@value #MAX_BATCH} + 1 budget-admitted candidates), plus m-to-n re-packs of the leading candidates, all of them
 * (prefixes of m, m/2, m/4 … 2 of them, each re-planned by Gantry's packer onto the other nodes and 2 ≤ n < m new
 * nodes, accepted when strictly cheaper under the same price rules); the move saving the most wins. When no multi-node move exists,
 * single-node, keeping the best of several working moves.
 * <p>
 * Why batches are bounded: unbounded, the binary search deletes bigger batches that save more in one decision but
 * settle worse, since a batch's pods are placed first-fit and the candidates are re-ordered only between decisions
 * (ConsolidationBenchmark, settled $/h: 1,000 nodes 616.01 against the reference's 614.71, 2,000 nodes 1198.05
 * against 1193.56; bounded, 613.20 and 1191.19). The bound is a step size, not a cap on what is considered.
 */
final class GantrySearch {
    /** The largest multi-node batch is this + 1 candidates, as Karpenter's (see the class comment for why). */
    static final int MAX_BATCH = KarpenterReference.MAX_MULTI;

    private GantrySearch() {
    }

    static ConsolidationCommand run(Round round, List<Candidate> ordered) {
        List<Candidate> cs = round.withinBudget(ordered);
        ConsolidationCommand best = null;
        if (cs.size() >= 2) {
            int min = 1;
            int max = Math.min(cs.size() - 1, MAX_BATCH);
            while (min <= max) {
                int mid = (min + max) / 2;
                ConsolidationCommand cmd = round.evaluate(cs.subList(0, mid + 1), Method.MULTI_NODE);
                if (cmd != null) {
                    best = better(best, cmd);
                    min = mid + 1;
                } else {
                    max = mid - 1;
                }
            }
            for (int k = cs.size(); k >= 2; k /= 2) {
                List<Candidate> prefix = cs.subList(0, k);
                double price = prefix.stream().mapToDouble(Candidate::price).sum();
                double inHand = best == null ? 0 : best.savings();
                if (price <= inHand) {
                    break; // even removing them for free would not save more than the move in hand
                }
                if (price - round.sim.leftoverBound(prefix) <= inHand) {
                    continue; // the LP bound on their re-placement already eats the saving
                }
                best = better(best, round.repack(prefix));
            }
        }
        return best != null ? best : bestSingle(round, ordered);
    }

    /** How many working single-node moves are compared before the best is taken. */
    static final int SINGLE_MOVES_COMPARED = 8;

    /**
     * Single-node, but the best of the first {@value #SINGLE_MOVES_COMPARED} moves that work rather than the first
     * (Karpenter's): a node replaced for a few cents no longer stands in the way of one that saves dollars.
     */
    static ConsolidationCommand bestSingle(Round round, List<Candidate> ordered) {
        ConsolidationCommand best = null;
        int found = 0;
        for (Candidate c : KarpenterReference.roundRobin(ordered)) {
            if (found == SINGLE_MOVES_COMPARED) {
                break;
            }
            if (round.budget.getOrDefault(c.pool().name(), 0) == 0) {
                continue;
            }
            if (!round.balanced.canPass(c)) {
                round.reasons.put(c.name(), "Balanced: removing it could not reach the score threshold");
                continue;
            }
            if (best != null && c.price() <= best.savings()) {
                continue; // removing it for free would not save more
            }
            ConsolidationCommand cmd = round.evaluate(List.of(c), Method.SINGLE_NODE);
            if (cmd != null) {
                found++;
                best = better(best, cmd);
            }
        }
        return best;
    }

    /** The move that saves more; on a tie the one that disrupts fewer nodes, then launches fewer; else the first. */
    static ConsolidationCommand better(ConsolidationCommand a, ConsolidationCommand b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        if (Math.abs(b.savings() - a.savings()) > 1e-9) {
            return b.savings() > a.savings() ? b : a;
        }
        if (b.nodes().size() != a.nodes().size()) {
            return b.nodes().size() < a.nodes().size() ? b : a;
        }
        return b.replacements().size() < a.replacements().size() ? b : a;
    }
}
