package dev.gantry.core.model;

import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.ValueSet;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector ({@code matchLabels} and {@code matchExpressions}). The empty selector matches every
 * object; {@link #NOTHING} (a null selector in a spec) matches none.
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions, boolean matchesNothing) {
    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of(), false);
    public static final LabelSelector NOTHING = new LabelSelector(Map.of(), List.of(), true);

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels == null ? Map.of() : matchLabels);
        matchExpressions = List.copyOf(matchExpressions == null ? List.of() : matchExpressions);
    }

    public static LabelSelector of(Map<String, String> matchLabels) {
        return new LabelSelector(matchLabels, List.of(), false);
    }

    /** Whether an object with these labels is selected. */
    public boolean matches(Map<String, String> labels) {
        if (matchesNothing) {
            return false;
        }
        for (var e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        // Each expression on its literal key: Requirements.of would rewrite node-label aliases (beta.kubernetes.io/arch),
        // which have no meaning for the pod labels a selector reads.
        for (Requirement r : matchExpressions) {
            if (!ValueSet.of(r).has(labels.get(r.key()))) {
                return false;
            }
        }
        return true;
    }

    /** This selector narrowed by extra exact labels (how {@code matchLabelKeys} takes the pod's own values). */
    public LabelSelector and(Map<String, String> extra) {
        if (extra.isEmpty() || matchesNothing) {
            return this;
        }
        Map<String, String> m = new java.util.TreeMap<>(matchLabels);
        m.putAll(extra);
        return new LabelSelector(m, matchExpressions, false);
    }
}
