package dev.gantry.core.disruption.consolidation;

import java.util.List;

/**
 * Gantry's churn guard: a NodePool annotation {@value #ANNOTATION} asks each disrupted node to save at least an
 * amount, either in $/h ({@code "0.05"}) or as a percentage of the removed price ({@code "10%"}). Unset, empty or
 * unparsable means no minimum (0), as today; a move across pools must satisfy every pool's minimum.
 */
final class MinSavings {
    static final String ANNOTATION = "gantry.dev/consolidation-min-savings";

    private MinSavings() {
    }

    /** Null when the move saves enough per node, else why not. */
    static String reject(List<Candidate> candidates, double savings) {
        double before = candidates.stream().mapToDouble(Candidate::price).sum();
        double perNode = savings / candidates.size();
        for (Candidate c : candidates) {
            String v = c.pool().annotations().get(ANNOTATION);
            if (v == null || v.isBlank()) {
                continue;
            }
            try {
                String s = v.trim();
                if (s.endsWith("%")) {
                    double pct = Double.parseDouble(s.substring(0, s.length() - 1)) / 100;
                    if (savings < pct * before - 1e-12) {
                        return String.format("saves %.1f%% of its price, below NodePool \"%s\"'s %s", 100 * savings / before, c.pool().name(), s);
                    }
                } else if (perNode < Double.parseDouble(s) - 1e-12) {
                    return String.format("saves $%.4f/h per node, below NodePool \"%s\"'s %s", perNode, c.pool().name(), s);
                }
            } catch (NumberFormatException ignored) {
                // validation reports it; the guard is off
            }
        }
        return null;
    }
}
