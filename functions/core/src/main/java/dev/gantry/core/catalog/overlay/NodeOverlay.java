package dev.gantry.core.catalog.overlay;

import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A {@code karpenter.sh/v1alpha1} NodeOverlay as read: which instance types (and offerings) it selects, the price it
 * sets or adjusts there, the extended resources it adds, and its weight. What it changes is the scheduler's and
 * consolidation's view of an instance type ({@link OverlayResolution}), never what is billed, and never drift.
 *
 * @param requirements empty selects every instance type; keys may be instance labels, {@code karpenter.sh/nodepool},
 *                     a NodePool template label, {@code topology.kubernetes.io/zone} or {@code karpenter.sh/capacity-type}
 * @param price        an absolute price or an adjustment; null when the overlay changes only capacity
 * @param capacity     extended resources to add, by name (never cpu, memory, ephemeral-storage or pods)
 * @param weight       1–10000, or 0 when unset (Karpenter treats an unset weight as 0)
 */
public record NodeOverlay(String name, List<Requirement> requirements, PriceChange price, Map<String, Long> capacity, int weight) {
    public NodeOverlay {
        Objects.requireNonNull(name, "name");
        requirements = List.copyOf(requirements);
        capacity = java.util.Collections.unmodifiableMap(new TreeMap<>(capacity == null ? Map.of() : capacity));
    }

    /**
     * The instance types this overlay may bring in although the catalogue lacks them (Karpenter v1.14's preview types):
     * exactly one requirement, {@code node.kubernetes.io/instance-type In [...]}, and an absolute price. Empty otherwise.
     */
    public List<String> previewTypes() {
        if (requirements.size() != 1 || price == null || !price.absolute()) {
            return List.of();
        }
        Requirement r = requirements.getFirst();
        return r.key().equals(WellKnownLabels.INSTANCE_TYPE) && r.operator() == Operator.In ? List.copyOf(r.values()) : List.of();
    }
}
