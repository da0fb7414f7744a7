package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Karpenter's underutilized consolidation, faithfully, without its timeouts: multi-node first (a binary search for the
 * longest prefix of at most 100 budget-admitted candidates, at least 2, that can go for at most one strictly cheaper
 * node, none of the candidates' own types), then single-node (candidates round-robin across pools, each deleted or
 * replaced by one strictly cheaper node). Candidates are in savings-ratio order. Placement is Karpenter's greedy.
 */
final class KarpenterReference {
    static final int MAX_MULTI = 100;

    private KarpenterReference() {
    }

    static ConsolidationCommand run(Round round, List<Candidate> ordered) {
        ConsolidationCommand cmd = multi(round, ordered);
        return cmd != null ? cmd : single(round, ordered);
    }

    static ConsolidationCommand multi(Round round, List<Candidate> ordered) {
        List<Candidate> cs = round.withinBudget(ordered);
        if (cs.size() < 2) {
            return null;
        }
        int min = 1;
        int max = Math.min(cs.size(), MAX_MULTI);
        if (cs.size() <= max) {
            max = cs.size() - 1;
        }
        ConsolidationCommand last = null;
        while (min <= max) {
            int mid = (min + max) / 2;
            ConsolidationCommand cmd = round.evaluate(cs.subList(0, mid + 1), Method.MULTI_NODE);
            if (cmd != null) {
                last = cmd;
                min = mid + 1;
            } else {
                max = mid - 1;
            }
        }
        return last;
    }

    static ConsolidationCommand single(Round round, List<Candidate> ordered) {
        for (Candidate c : roundRobin(ordered)) {
            if (round.budget.getOrDefault(c.pool().name(), 0) == 0) {
                continue;
            }
            if (!round.balanced.canPass(c)) {
                round.reasons.put(c.name(), "Balanced: removing it could not reach the score threshold");
                continue;
            }
            ConsolidationCommand cmd = round.evaluate(List.of(c), Method.SINGLE_NODE);
            if (cmd != null) {
                return cmd;
            }
        }
        return null;
    }

    /** Karpenter's shuffle: the i-th candidate of every pool before the (i+1)-th of any; pools by name. */
    static List<Candidate> roundRobin(List<Candidate> ordered) {
        Map<String, List<Candidate>> byPool = new TreeMap<>();
        ordered.forEach(c -> byPool.computeIfAbsent(c.pool().name(), k -> new ArrayList<>()).add(c));
        List<Candidate> out = new ArrayList<>(ordered.size());
        int longest = byPool.values().stream().mapToInt(List::size).max().orElse(0);
        for (int i = 0; i < longest; i++) {
            for (List<Candidate> l : byPool.values()) {
                if (i < l.size()) {
                    out.add(l.get(i));
                }
            }
        }
        return out;
    }

    static Map<String, Integer> copy(Map<String, Integer> m) {
        return new LinkedHashMap<>(m);
    }
}
