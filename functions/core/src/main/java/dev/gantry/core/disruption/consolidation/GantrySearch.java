package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import java.util.List;

/**
 * Gantry's underutilized search, on Gantry's cost-aware placement: multi-node (a binary search over batches of at
 * most {@value #MAX_BATCH} + 1 budget-admitted candidates), plus m-to-n re-packs of the leading candidates, all of them
 * (prefixes of m, m/2, m/4 … 2 of them, each re-planned by Gantry's packer onto the other nodes and 2 ≤ n < m new
 * nodes, accepted when strictly cheaper under the same price rules; n up to m + 1 when they cost at most a quarter of
 * the m: {@code Round.DEAR}), plus {@link #groups} the prefixes cannot see;
 * the move saving the most wins. When no multi-node move exists, single-node, keeping the best of several working moves.
 * <p>
 * Why batches are bounded: unbounded, the binary search deletes bigger batches that save more in one decision but
 * settle worse, since a batch's pods are placed first-fit and the candidates are re-ordered only between decisions
 * (ConsolidationBenchmark, settled $/h: 1,000 nodes 616.01 against the reference's 614.71, 2,000 nodes 1198.05
 * against 1193.56; bounded, 613.20 and 1191.19; re-measured with {@link #groups}: unbounded 615.67 at 1,000 nodes against the
 * reference's 614.71, bounded 612.39). The bound is a step size, not a cap on what is considered.
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
        best = better(best, groups(round, ordered, best));
        return best != null ? best : bestSingle(round, ordered);
    }

    /** How many groups beyond the prefixes are tried per decision at most. */
    static final int MAX_GROUPS = 24;
    /** The largest group tried beyond the prefixes. */
    static final int MAX_GROUP = 8;

    /**
     * Moves the prefixes cannot see: the savings-ratio order puts half-empty small nodes first, so a prefix always
     * holds them and a budget of a few nodes never reaches a run of full nodes of a dear type (the diurnal day's
     * afternoon: twenty full m5a.large, three of which re-pack strictly cheaper onto a c6a.xlarge and an m5a.large,
     * held for hours because the first three candidates were other nodes). Per pool, groups of as many candidates as
     * its budget admits (at most {@value #MAX_GROUP}): the first ones of each instance type, then consecutive runs of
     * the order; each is tried as a Karpenter move (delete, or m-to-1) and as a re-pack, under the same rules.
     */
    static ConsolidationCommand groups(Round round, List<Candidate> ordered, ConsolidationCommand inHand) {
        java.util.Map<String, List<Candidate>> byPool = new java.util.TreeMap<>();
        ordered.forEach(c -> byPool.computeIfAbsent(c.pool().name(), k -> new java.util.ArrayList<>()).add(c));
        java.util.LinkedHashSet<List<String>> seen = new java.util.LinkedHashSet<>();
        List<List<Candidate>> groups = new java.util.ArrayList<>();
        for (var e : byPool.entrySet()) {
            int m = Math.min(MAX_GROUP, Math.min(round.budget.getOrDefault(e.getKey(), 0), e.getValue().size()));
            if (m < 2) {
                continue;
            }
            java.util.Map<String, List<Candidate>> byType = new java.util.LinkedHashMap<>();
            for (Candidate c : e.getValue()) {
                if (c.type() != null) {
                    byType.computeIfAbsent(c.type().name() + "/" + c.capacityType(), k -> new java.util.ArrayList<>()).add(c);
                }
            }
            byType.values().stream().filter(l -> l.size() >= 2).forEach(l -> groups.add(l.subList(0, Math.min(m, l.size()))));
            for (int i = m; i + m <= e.getValue().size(); i += m) {
                groups.add(e.getValue().subList(i, i + m));
            }
        }
        ConsolidationCommand best = null;
        int tried = 0;
        for (List<Candidate> g : groups) {
            if (tried == MAX_GROUPS) {
                break;
            }
            if (!seen.add(g.stream().map(Candidate::name).sorted().toList())) {
                continue;
            }
            double price = g.stream().mapToDouble(Candidate::price).sum();
            double have = Math.max(inHand == null ? 0 : inHand.savings(), best == null ? 0 : best.savings());
            if (price <= have || price - round.sim.leftoverBound(g) <= have) {
                continue;
            }
            tried++;
            best = better(best, round.evaluate(g, Method.MULTI_NODE));
            if (g.size() > 2) {
                best = better(best, round.repack(g));
            }
        }
        return best;
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
