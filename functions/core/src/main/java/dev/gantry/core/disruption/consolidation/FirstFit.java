package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler's existing-nodes-first pass does with simple pods ({@link Simulation}): the moved pods in its
 * order, the index of the node each went to (-1: left over), and the pods left over with their summed requests. The
 * pod-key map is built only when a trial needs it: the bounds run first-fit on large prefixes many times per decision
 * and never read it (at 5,000 nodes, hashing fresh key strings for it was the decision's largest cost).
 */
record FirstFit(List<Pod> moved, int[] at, List<ClusterNode> nodes, List<Pod> leftovers, Resources leftoverDemand) {
    /** The scheduler's order: CPU, then memory, descending, then key. */
    static final Comparator<Pod> ORDER = Comparator.comparingLong((Pod p) -> -p.requests().cpuMillis())
            .thenComparingLong(p -> -p.requests().memoryBytes()).thenComparing(Pod::key);

    /** Pod key to node name, for the pods placed, in the scheduler's order. */
    Map<String, String> destinations() {
        Map<String, String> d = new LinkedHashMap<>();
        for (int i = 0; i < at.length; i++) {
            if (at[i] >= 0) {
                d.put(moved.get(i).key(), nodes.get(at[i]).name());
            }
        }
        return d;
    }

    /**
     * Every pod of {@code nodes} ranked in {@link #ORDER}, each key built once: sorting moved pods by rank is the same
     * order without building two key strings per comparison.
     */
    static Map<Pod, Integer> rank(List<ClusterNode> nodes) {
        record Keyed(Pod pod, String key) {
        }
        List<Keyed> keyed = new ArrayList<>();
        for (ClusterNode c : nodes) {
            c.pods().forEach(p -> keyed.add(new Keyed(p, p.key())));
        }
        keyed.sort(Comparator.comparingLong((Keyed k) -> -k.pod().requests().cpuMillis())
                .thenComparingLong(k -> -k.pod().requests().memoryBytes()).thenComparing(Keyed::key));
        Map<Pod, Integer> rank = new IdentityHashMap<>(keyed.size() * 2);
        for (int i = 0; i < keyed.size(); i++) {
            rank.put(keyed.get(i).pod(), i);
        }
        return rank;
    }
}
