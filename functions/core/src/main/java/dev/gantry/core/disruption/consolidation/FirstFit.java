package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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

    /**
     * Each node's free capacity ({@code vector}, null for a node that takes no moved pod) and its cpu and memory alone
     * (0 there): {@link #place} tests those two before the whole vector, since most nodes a scan passes over are refused
     * on one of them, and that scan, a thousand nodes per moved pod, was a quarter of a 1,000-node decision's time.
     */
    record Room(Resources[] vector, long[] cpu, long[] memory) {
        static Room of(Resources[] free) {
            long[] cpu = new long[free.length];
            long[] memory = new long[free.length];
            for (int i = 0; i < free.length; i++) {
                if (free[i] != null) {
                    cpu[i] = free[i].cpuMillis();
                    memory[i] = free[i].memoryBytes();
                }
            }
            return new Room(free, cpu, memory);
        }
    }

    /**
     * {@code moved}, already in the scheduler's order, each onto the first node {@code compatible} allows that is not
     * {@code gone} and has room left, in node order. {@code room} is not changed.
     */
    static FirstFit place(List<Pod> moved, Function<Pod, BitSet> compatible, BitSet gone, Room room, List<ClusterNode> nodes) {
        Resources[] vector = room.vector().clone();
        long[] cpu = room.cpu().clone();
        long[] memory = room.memory().clone();
        int[] at = new int[moved.size()];
        List<Pod> leftovers = new ArrayList<>();
        Resources left = Resources.ZERO;
        for (int k = 0; k < moved.size(); k++) {
            Pod p = moved.get(k);
            Resources need = p.requests();
            long needCpu = need.cpuMillis();
            long needMemory = need.memoryBytes();
            BitSet ok = compatible.apply(p);
            int placed = -1;
            for (int i = ok.nextSetBit(0); i >= 0; i = ok.nextSetBit(i + 1)) {
                if (needCpu <= cpu[i] && needMemory <= memory[i] && !gone.get(i) && need.fitsIn(vector[i])) {
                    placed = i;
                    break;
                }
            }
            at[k] = placed;
            if (placed < 0) {
                leftovers.add(p);
                left = left.plus(need);
            } else {
                vector[placed] = vector[placed].minus(need);
                cpu[placed] = vector[placed].cpuMillis();
                memory[placed] = vector[placed].memoryBytes();
            }
        }
        return new FirstFit(moved, at, nodes, leftovers, left);
    }

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
