package dev.gantry.core.disruption.execution;

import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.model.Pod;
import java.util.List;

/**
 * Karpenter's {@code lastPodEventTime}, as a sweep can see it: the sweep fingerprints each node's reschedulable pods
 * and, when the fingerprint differs from the one its claim recorded, records the new one and the time. A pod bound or
 * removed between two sweeps is seen at the second (so consolidation may wait up to one sweep longer than
 * {@code consolidateAfter}, never less).
 */
public final class PodEvents {
    /** The fingerprint of no pods (a claim with none recorded has this). */
    public static final String NONE = "0";

    private PodEvents() {
    }

    /** Order-independent: the sorted pod uids (keys when a pod has none), hashed. */
    public static String fingerprint(List<Pod> pods) {
        List<String> ids = pods.stream().filter(EvictionCost::reschedulable).map(p -> p.uid() != null ? p.uid() : p.key())
                .sorted().toList();
        if (ids.isEmpty()) {
            return NONE;
        }
        long h = 1125899906842597L;
        for (String id : ids) {
            for (int i = 0; i < id.length(); i++) {
                h = 31 * h + id.charAt(i);
            }
            h = 31 * h + ';';
        }
        return ids.size() + "-" + Long.toHexString(h);
    }

    /** Whether {@code recorded} (null: never recorded) differs from {@code now}. */
    public static boolean changed(String recorded, String now) {
        return !(recorded == null ? NONE : recorded).equals(now);
    }
}
