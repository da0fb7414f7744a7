package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.disruption.consolidation.Simulation.Outcome;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A move's pods as kube-scheduler places them when a buffer keeps room on the nodes that stay. A buffer's virtual pods
 * ({@link ConsolidationInput#reserved}) hold no room in the cluster: kube-scheduler sees that room as free, and the
 * emptiest node (where the buffer's room usually is) scores highest under its default LeastAllocated strategy. So the
 * pods a trial sends to a replacement take the buffer's room first; the buffer's pods they push out are planned again,
 * on what room remains or on the replacements, as the provisioner will do when it sees the buffer short.
 * <p>
 * Without this, a node whose one pod fits the buffer's room was replaced by a small node for that pod; at the drain the
 * pod went into the buffer's room, the small node stood empty until consolidation removed it, and the buffer was
 * launched again: the same loop every half hour (headroom-predicted, seed 1: 5 wasted launches). Modelled, the
 * replacement is sized for the buffer's pods it pushes out, and a move that saves nothing that way is not made.
 * <p>
 * Only trials that launch are re-placed this way (a delete's pods have room outside the buffers), and only when a node
 * that stays holds a buffer's pod. Buffer pods that fit nowhere are dropped, as {@link Reserved} drops them.
 */
final class BufferRoomTaken {
    private BufferRoomTaken() {
    }

    /**
     * The trial {@code planned} as kube-scheduler would carry it out; {@code planned} itself when no pod it sends to a
     * new claim fits the room the buffers hold on the nodes that stay.
     *
     * @param free  per node index, the room left by its pods; null where no moved pod goes (a node deleting, starting or
     *              within its consolidateAfter, which keeps its pods for topology but offers no room)
     * @param gone  the indexes of the removed nodes
     * @param moved the removed nodes' reschedulable pods
     */
    static Outcome of(ConsolidationInput in, Resources[] free, BitSet gone, List<Pod> moved, Outcome planned,
                      Scheduler.Strategy strategy) {
        Launching l = Launching.of(planned, moved);
        if (l.real().isEmpty()) {
            return planned;
        }
        Map<String, Pod> byKey = l.byKey();
        Set<String> toClaims = l.toClaims();
        List<Pod> launched = l.real().stream().map(p -> p.withNodeName(null)).toList();
        // Where the trial put the other moved pods on nodes that stay: bound there for both solves.
        Map<String, List<Pod>> placed = new HashMap<>();
        planned.destinations().forEach((key, node) -> {
            Pod p = byKey.get(key);
            if (p != null && !toClaims.contains(key)) {
                placed.computeIfAbsent(node, k -> new ArrayList<>()).add(p.withNodeName(node));
            }
        });

        // 1. The pods bound for new claims, onto the nodes that stay with the buffers' room free.
        Map<String, List<Pod>> buffers = new HashMap<>();
        List<SchedulingInput.ExistingNode> withoutBuffers = new ArrayList<>();
        for (int i = 0; i < in.nodes().size(); i++) {
            if (gone.get(i)) {
                continue;
            }
            ClusterNode c = in.nodes().get(i);
            List<Pod> pods = new ArrayList<>(placed.getOrDefault(c.name(), List.of()));
            for (Pod p : c.pods()) {
                if (p.status().isTerminal()) {
                    continue;
                }
                if (Reserved.marked(p)) {
                    buffers.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(p);
                } else {
                    pods.add(p);
                }
            }
            withoutBuffers.add(new SchedulingInput.ExistingNode(free[i] != null ? c.node() : ConsolidationInput.withoutRoom(c.node(), pods),
                    pods));
        }
        SchedulingResult first = Scheduler.solve(new SchedulingInput(launched, withoutBuffers, List.of(), in.daemonSets(),
                List.of(), in.namespaceLabels()), strategy);
        if (first.existingNodes().isEmpty()) {
            return planned;
        }

        // 2. The buffer pods that no longer fit where they were, and the pods that found no room, onto what remains
        //    and new claims.
        List<Pod> pending = new ArrayList<>(first.unschedulable().stream().map(SchedulingResult.Unschedulable::pod).toList());
        l.pushed().forEach(p -> pending.add(p.withNodeName(null)));
        List<SchedulingInput.ExistingNode> remaining = new ArrayList<>();
        for (SchedulingInput.ExistingNode e : withoutBuffers) {
            String name = e.node().name();
            List<Pod> pods = new ArrayList<>(e.pods());
            pods.addAll(first.existingNodes().getOrDefault(name, List.of()).stream().map(p -> p.withNodeName(name)).toList());
            Resources room = e.node().allocatable();
            for (Pod p : pods) {
                room = room.minus(p.requests());
            }
            for (Pod b : buffers.getOrDefault(name, List.of())) {
                if (b.requests().fitsIn(room)) {
                    room = room.minus(b.requests());
                    pods.add(b);
                } else {
                    pending.add(b.withNodeName(null));
                }
            }
            remaining.add(new SchedulingInput.ExistingNode(e.node(), pods));
        }
        SchedulingResult second = Scheduler.solve(new SchedulingInput(pending, remaining, List.of(), in.daemonSets(), in.pools(),
                in.namespaceLabels()), strategy);
        for (SchedulingResult.Unschedulable u : second.unschedulable()) {
            if (!Reserved.marked(u.pod())) {
                return planned;
            }
        }
        Map<String, String> destinations = new LinkedHashMap<>(planned.destinations());
        toClaims.forEach(destinations::remove);
        first.existingNodes().forEach((node, pods) -> pods.forEach(p -> destinations.put(p.key(), node)));
        second.existingNodes().forEach((node, pods) -> pods.forEach(p -> destinations.put(p.key(), node)));
        for (SchedulingResult.NodeClaimPlan plan : second.newClaims()) {
            plan.pods().forEach(p -> destinations.put(p.key(), plan.name()));
        }
        return new Outcome(true, null, destinations, second.newClaims());
    }

    /**
     * {@link #of} without a solve over the cluster, for pods without topology (a chunk never has any): first-fit in the
     * scheduler's order, as {@link Simulation}'s own fast path places simple pods, and only the pods no node takes go to
     * {@link Scheduler#solve} for new claims. At 1,652 nodes with 16 chunks the full re-placement made the slowest
     * decision's CPU time 3.7 times that of the same cluster without buffers; this, 2.2 times (ConsolidationBenchmark
     * {@code --buffers}).
     *
     * @param free       per node index, the room left by its pods (bound chunks included); null where no moved pod goes
     * @param holders    the nodes that stay and hold a chunk
     * @param compatible the nodes whose labels and taints admit a pod (Simulation's cache)
     * @param index      node name to index
     */
    static Outcome firstFit(ConsolidationInput in, Resources[] free, BitSet holders, BitSet gone,
                            java.util.function.Function<Pod, BitSet> compatible, Map<String, Integer> index, List<Pod> moved,
                            Outcome planned, Scheduler.Strategy strategy) {
        Launching l = Launching.of(planned, moved);
        if (l.real().isEmpty()) {
            return planned;
        }
        Map<String, Pod> byKey = l.byKey();
        Set<String> toClaims = l.toClaims();
        List<Pod> launched = new ArrayList<>(l.real());
        List<Pod> pending = new ArrayList<>(l.pushed());
        Resources[] room = free.clone();
        planned.destinations().forEach((key, node) -> {
            Integer i = index.get(node);
            Pod p = byKey.get(key);
            if (i != null && p != null && room[i] != null && !toClaims.contains(key)) {
                room[i] = room[i].minus(p.requests());
            }
        });
        // 1. The pods bound for new claims, onto the chunks' nodes with the chunks' room free.
        Resources[] withChunks = room.clone();
        for (int h = holders.nextSetBit(0); h >= 0; h = holders.nextSetBit(h + 1)) {
            for (Pod b : chunks(in, h)) {
                withChunks[h] = withChunks[h].plus(b.requests());
            }
        }
        launched.sort(FirstFit.ORDER);
        Map<String, String> destinations = new LinkedHashMap<>(planned.destinations());
        toClaims.forEach(destinations::remove);
        BitSet touched = new BitSet();
        for (Pod p : launched) {
            BitSet ok = (BitSet) compatible.apply(p).clone();
            ok.and(holders);
            int at = -1;
            for (int h = ok.nextSetBit(0); h >= 0; h = ok.nextSetBit(h + 1)) {
                if (p.requests().fitsIn(withChunks[h])) {
                    at = h;
                    break;
                }
            }
            if (at < 0) {
                pending.add(p);
            } else {
                withChunks[at] = withChunks[at].minus(p.requests());
                touched.set(at);
                destinations.put(p.key(), in.nodes().get(at).name());
            }
        }
        if (touched.isEmpty()) {
            return planned;
        }
        // 2. The chunks that no longer fit where they were, and what found no room, first-fit, then on new claims.
        for (int h = touched.nextSetBit(0); h >= 0; h = touched.nextSetBit(h + 1)) {
            Resources r = withChunks[h];
            for (Pod b : chunks(in, h)) {
                if (b.requests().fitsIn(r)) {
                    r = r.minus(b.requests());
                } else {
                    pending.add(b);
                }
            }
            room[h] = r;
        }
        pending.sort(FirstFit.ORDER);
        List<Pod> left = new ArrayList<>();
        for (Pod p : pending) {
            BitSet ok = compatible.apply(p);
            int at = -1;
            for (int i = ok.nextSetBit(0); i >= 0; i = ok.nextSetBit(i + 1)) {
                if (!gone.get(i) && room[i] != null && p.requests().fitsIn(room[i])) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                left.add(p.withNodeName(null));
            } else {
                room[at] = room[at].minus(p.requests());
                destinations.put(p.key(), in.nodes().get(at).name());
            }
        }
        List<SchedulingResult.NodeClaimPlan> claims = List.of();
        if (!left.isEmpty()) {
            SchedulingResult r = Scheduler.solve(new SchedulingInput(left, List.of(), List.of(), in.daemonSets(), in.pools(),
                    in.namespaceLabels()), strategy);
            for (SchedulingResult.Unschedulable u : r.unschedulable()) {
                if (!Reserved.marked(u.pod())) {
                    return planned;
                }
            }
            claims = r.newClaims();
            for (SchedulingResult.NodeClaimPlan plan : claims) {
                plan.pods().forEach(p -> destinations.put(p.key(), plan.name()));
            }
        }
        return new Outcome(true, null, destinations, claims);
    }

    /**
     * What a trial sends to new claims: the real pods ({@code real}) and the chunks of removed nodes ({@code pushed}),
     * each as the removed node held it when it is one of {@code moved}; {@code toClaims} their keys.
     */
    private record Launching(Map<String, Pod> byKey, Set<String> toClaims, List<Pod> real, List<Pod> pushed) {
        static Launching of(Outcome planned, List<Pod> moved) {
            Map<String, Pod> byKey = new HashMap<>();
            moved.forEach(p -> byKey.put(p.key(), p));
            Set<String> toClaims = new HashSet<>();
            List<Pod> real = new ArrayList<>();
            List<Pod> pushed = new ArrayList<>();
            for (SchedulingResult.NodeClaimPlan plan : planned.newClaims()) {
                for (Pod p : plan.pods()) {
                    toClaims.add(p.key());
                    (Reserved.marked(p) ? pushed : real).add(byKey.getOrDefault(p.key(), p));
                }
            }
            return new Launching(byKey, toClaims, real, pushed);
        }
    }

    /** Whether {@link #firstFit} holds: no moved pod and no chunk on {@code holders} has topology ({@code complex}). */
    static boolean simple(ConsolidationInput in, BitSet holders, List<Pod> moved, java.util.function.Predicate<Pod> complex) {
        if (moved.stream().anyMatch(complex)) {
            return false;
        }
        for (int h = holders.nextSetBit(0); h >= 0; h = holders.nextSetBit(h + 1)) {
            if (chunks(in, h).stream().anyMatch(complex)) {
                return false;
            }
        }
        return true;
    }

    private static List<Pod> chunks(ConsolidationInput in, int node) {
        return in.nodes().get(node).pods().stream().filter(Reserved::marked).toList();
    }
}
