package dev.gantry.core.disruption;

import dev.gantry.core.model.Pod;
import java.util.Collection;

/**
 * What evicting a pod costs, as Karpenter weighs it: 1, plus the {@code controller.kubernetes.io/pod-deletion-cost}
 * annotation / 2^27, plus the priority / 2^25, clamped to [-10, 10]. A node's reschedule cost is 1 (the node itself)
 * plus the positive costs of its reschedulable pods; a node at exactly 1 counts as empty.
 */
public final class EvictionCost {
    public static final String POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
    /** Karpenter's PerNodeBaseDisruptionCost. */
    public static final double PER_NODE = 1.0;

    private EvictionCost() {
    }

    public static double of(Pod p) {
        double cost = 1.0;
        String v = p.annotations().get(POD_DELETION_COST);
        if (v != null) {
            try {
                cost += Double.parseDouble(v.trim()) / Math.pow(2, 27);
            } catch (NumberFormatException ignored) {
                // Karpenter logs and ignores an unparsable annotation
            }
        }
        cost += p.priority() / Math.pow(2, 25);
        return Math.max(-10.0, Math.min(10.0, cost));
    }

    /** 1 plus the positive eviction costs of {@code reschedulable}. */
    public static double reschedule(Collection<Pod> reschedulable) {
        double cost = PER_NODE;
        for (Pod p : reschedulable) {
            cost += Math.max(0, of(p));
        }
        return cost;
    }

    /**
     * A pod that must find a new home when its node goes (Karpenter's IsReschedulable): not a daemon or mirror pod, and
     * active (not finished, not being deleted), or a StatefulSet pod being deleted (its replacement is created only
     * once it is gone, with the same identity, so it needs the room).
     */
    public static boolean reschedulable(Pod p) {
        boolean terminating = p.status().deletingSince() != null;
        boolean active = !p.status().isTerminal() && !terminating;
        return (active || (terminating && "StatefulSet".equals(p.ownerKind()))) && !p.isDaemon() && !p.isMirror();
    }
}
