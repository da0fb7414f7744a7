package dev.gantry.core.model;

import java.util.List;

/**
 * A pod's {@code topologySpreadConstraints} entry.
 *
 * @param minDomains         null when unset (only meaningful with DoNotSchedule)
 * @param matchLabelKeys     pod label keys whose values are added to the selector
 * @param honorNodeAffinity  {@code nodeAffinityPolicy: Honor} (the default): only nodes that fit the pod's node affinity count
 * @param honorTaints        {@code nodeTaintsPolicy: Honor}: only nodes whose taints the pod tolerates count (default Ignore)
 */
public record TopologySpread(int maxSkew, String topologyKey, boolean doNotSchedule, LabelSelector selector,
                             Integer minDomains, List<String> matchLabelKeys, boolean honorNodeAffinity, boolean honorTaints) {
    public TopologySpread {
        matchLabelKeys = List.copyOf(matchLabelKeys == null ? List.of() : matchLabelKeys);
        selector = selector == null ? LabelSelector.NOTHING : selector;
    }

    public static TopologySpread of(int maxSkew, String key, boolean doNotSchedule, LabelSelector selector) {
        return new TopologySpread(maxSkew, key, doNotSchedule, selector, null, List.of(), true, false);
    }
}
