package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.model.NodePool;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Karpenter v1.14's Balanced policy: a move is approved for a Balanced pool only when
 * (savings / pool cost) / (disruption / pool disruption) ≥ 1/k with k = 2. The pool's cost is the price of all its
 * nodes; its disruption is the sum over its nodes of 1 + their pods' positive eviction costs; the move's disruption is
 * the same sum over the removed nodes. With several pools in one move, each pool's savings are its share of the
 * removed price. Pools with another policy are not scored.
 */
final class Balanced {
    static final int K = 2;

    private record Totals(double cost, double disruption) {
    }

    private final Map<String, Totals> totals;

    private Balanced(Map<String, Totals> totals) {
        this.totals = totals;
    }

    /** Pool totals from every managed node: prices and reschedule costs. */
    static Balanced of(Map<String, double[]> perPool) {
        Map<String, Totals> t = new HashMap<>();
        perPool.forEach((pool, v) -> t.put(pool, new Totals(v[0], v[1])));
        return new Balanced(t);
    }

    /** Karpenter's score: 0 when nothing is saved, infinite when nothing is disrupted. */
    static double score(double savings, double disruption, double totalCost, double totalDisruption) {
        if (totalCost <= 0 || totalDisruption <= 0) {
            return 0;
        }
        double s = savings / totalCost;
        double d = disruption / totalDisruption;
        if (s <= 0) {
            return 0;
        }
        return d == 0 ? Double.POSITIVE_INFINITY : s / d;
    }

    /** Karpenter's single-node pre-filter: could removing this node outright pass the threshold? */
    boolean canPass(Candidate c) {
        Totals t = totals.get(c.pool().name());
        if (!balanced(c.pool()) || t == null || t.cost() <= 0) {
            return true;
        }
        return score(c.price(), c.disruption(), t.cost(), t.disruption()) >= 1.0 / K;
    }

    /** Null when every Balanced pool in the move approves it, else why not. */
    String reject(List<Candidate> candidates, double savings) {
        Map<String, List<Candidate>> byPool = new LinkedHashMap<>();
        candidates.forEach(c -> byPool.computeIfAbsent(c.pool().name(), k -> new java.util.ArrayList<>()).add(c));
        double total = candidates.stream().mapToDouble(Candidate::price).sum();
        for (var e : byPool.entrySet()) {
            NodePool pool = e.getValue().get(0).pool();
            if (!balanced(pool)) {
                continue;
            }
            double poolCost = e.getValue().stream().mapToDouble(Candidate::price).sum();
            double poolSavings = total > 0 && byPool.size() > 1 ? savings * poolCost / total : savings;
            double disruption = e.getValue().stream().mapToDouble(Candidate::disruption).sum();
            Totals t = totals.getOrDefault(e.getKey(), new Totals(0, 0));
            double score = score(poolSavings, disruption, t.cost(), t.disruption());
            if (score < 1.0 / K) {
                return String.format("Balanced: score %.3f is below the threshold %.2f (k=%d) for NodePool \"%s\"",
                        score, 1.0 / K, K, e.getKey());
            }
        }
        return null;
    }

    private static boolean balanced(NodePool pool) {
        return pool.disruption().consolidationPolicy() == NodePool.ConsolidationPolicy.Balanced;
    }
}
