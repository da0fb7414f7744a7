package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * "If these nodes went, where would their pods go?", answered many times per decision against one snapshot. The
 * scheduler's own answer is the truth; this class gets it faster without changing it:
 * <ul>
 *   <li>The per-node free capacity, labels and taints are computed once; each trial copies an array of references.</li>
 *   <li>Pods without topology (no spread, pod (anti-)affinity, host ports, preferences, a single node-selector term)
 *       and not selected by anyone's topology are "simple". The scheduler places simple pods on existing nodes
 *       first-fit in its own order (CPU, then memory, descending) before it opens any claim, so for them the trial
 *       does exactly that itself, with node compatibility cached per (node requirements, tolerations).</li>
 *   <li>Only the pods left over go to {@link Scheduler#solve} (with no existing nodes), which plans the new claims.</li>
 *   <li>A trial that has a non-simple pod, or whose leftovers the scheduler cannot place, is simulated in full by
 *       {@link Scheduler#solve} with every remaining node.</li>
 *   <li>{@link #cannotBeCheaper}: before any solve, a move whose leftovers no single type under the price holds is
 *       refused outright (a necessary condition: allocatable ≥ their sum, cheapest offering below the price).</li>
 * </ul>
 * Not thread-safe; one per decision.
 */
final class Simulation {
    private final ConsolidationInput in;
    private final Resources[] free;
    private final FirstFit.Room room;
    private final Map<String, String>[] labels;
    private final List<Taint>[] taints;
    private final Set<Pod> complex = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<List<Object>, BitSet> compat = new HashMap<>();
    private final Map<Pod, BitSet> podCompat = new IdentityHashMap<>();
    private final Map<List<String>, Outcome> forOne = new HashMap<>();
    private final Map<String, List<InstanceType>> typesByPrice = new HashMap<>();
    private final Map<String, Requirements> poolRequirements = new HashMap<>();
    private Map<Pod, Integer> rank;
    /** The nodes moved pods may go to ({@code free} not null) that hold a buffer's room ({@link Reserved}). */
    private final BitSet holdsBuffer = new BitSet();
    private Map<String, Integer> index;
    int runs;
    int fullSolves;

    @SuppressWarnings("unchecked")
    /** When false every trial goes through the full solve (tests compare the two paths). */
    private final boolean fastPath;

    Simulation(ConsolidationInput in) {
        this(in, true);
    }

    Simulation(ConsolidationInput in, boolean fastPath) {
        this.in = in;
        this.fastPath = fastPath;
        int n = in.nodes().size();
        free = new Resources[n];
        labels = new Map[n];
        taints = new List[n];
        List<Pod> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ClusterNode c = in.nodes().get(i);
            Resources used = Resources.ZERO;
            for (Pod p : c.pods()) {
                if (!p.status().isTerminal()) {
                    used = used.plus(p.requests());
                    all.add(p);
                }
            }
            // Karpenter refuses a move that relies on a managed node not yet initialized; other nodes' taints decide.
            boolean starting = c.node().managed() ? !c.node().initialized()
                    : !c.node().ready() && !"true".equals(c.node().labels().get("karpenter.sh/initialized"));
            // Karpenter v1.14: no moved pod goes onto a node still within its consolidateAfter.
            if (!c.node().deleting() && !starting && !in.underConsolidateAfter(c)) {
                free[i] = c.node().allocatable().minus(used);
                Map<String, String> l = new HashMap<>(c.node().labels());
                l.putIfAbsent(WellKnownLabels.HOSTNAME, c.name());
                labels[i] = l;
                taints[i] = c.node().effectiveTaints();
                if (c.pods().stream().anyMatch(Reserved::marked)) {
                    holdsBuffer.set(i);
                }
            }
        }
        room = FirstFit.Room.of(free);
        complex.addAll(ComplexPods.of(all));
        for (SchedulingInput.PoolOffer o : in.pools()) {
            typesByPrice.put(o.pool().name(), o.launchableTypes());
            poolRequirements.put(o.pool().name(), o.pool().requirements());
        }
    }

    /** Where the pods of the removed nodes went, or why they could not all be placed. */
    record Outcome(boolean ok, String failure, Map<String, String> destinations, List<SchedulingResult.NodeClaimPlan> newClaims) {
        static Outcome fail(String why) {
            return new Outcome(false, why, Map.of(), List.of());
        }
    }

    /**
     * "Can these go for at most one new node?": Karpenter's greedy answers it (it fills one claim while any type holds
     * the pods, and the claim's cheapest option is what Gantry's right-sizing would pick), and the answer is kept, so
     * the reference and Gantry's search never simulate the same set twice.
     */
    Outcome trialForOne(List<Candidate> removed) {
        List<String> key = removed.stream().map(Candidate::name).toList();
        Outcome known = forOne.get(key);
        if (known == null) {
            known = trial(removed, Scheduler.Strategy.KARPENTER_GREEDY);
            forOne.put(key, known);
        }
        return known;
    }

    /**
     * Simulates removing {@code removed}: their reschedulable pods are placed on the other nodes and, for what is
     * left, on new claims. When the move launches and a node that stays holds a buffer's room, the pods
     * take that room first, as kube-scheduler will ({@link BufferRoomTaken}).
     */
    Outcome trial(List<Candidate> removed, Scheduler.Strategy strategy) {
        Outcome planned = planned(removed, strategy);
        BitSet gone = gone(removed);
        BitSet holders = (BitSet) holdsBuffer.clone();
        holders.andNot(gone);
        if (holders.isEmpty() || !planned.ok() || planned.newClaims().isEmpty()) {
            return planned;
        }
        List<Pod> originals = new ArrayList<>();
        removed.forEach(c -> originals.addAll(c.reschedulable()));
        if (fastPath && BufferRoomTaken.simple(in, holders, originals, complex::contains)) {
            return BufferRoomTaken.firstFit(in, free, holders, gone, this::compatible, index(), originals, planned, strategy);
        }
        return BufferRoomTaken.of(in, free, gone, originals, planned, strategy);
    }

    /** Whether a node that stays has room for one of {@code c}'s pods now ({@link InPlace}: it could take them). */
    boolean roomElsewhere(Candidate c) {
        for (Pod p : c.reschedulable()) {
            BitSet ok = compatible(p);
            for (int i = ok.nextSetBit(0); i >= 0; i = ok.nextSetBit(i + 1)) {
                if (i != c.index() && free[i] != null && p.requests().fitsIn(free[i])) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code moved} (the pods of {@code c}, as {@link InPlace} keeps them) on new nodes only: the other nodes keep their
     * pods, for the required constraints, but take none. Not tried when another node holds a buffer's room, which the
     * pods would take first ({@link #trial}).
     */
    Outcome onNewNodes(Candidate c, List<Pod> moved) {
        BitSet holders = (BitSet) holdsBuffer.clone();
        holders.clear(c.index());
        if (!holders.isEmpty()) {
            return Outcome.fail("not tried");
        }
        runs++;
        return full(gone(List.of(c)), moved, Scheduler.Strategy.KARPENTER_GREEDY, true);
    }

    private Map<String, Integer> index() {
        if (index == null) {
            index = new HashMap<>();
            for (int i = 0; i < in.nodes().size(); i++) {
                index.put(in.nodes().get(i).name(), i);
            }
        }
        return index;
    }

    private Outcome planned(List<Candidate> removed, Scheduler.Strategy strategy) {
        runs++;
        FirstFit ff = fastPath ? firstFit(removed) : null;
        if (ff == null) {
            return full(gone(removed), moved(removed), strategy);
        }
        Map<String, String> destinations = ff.destinations();
        if (ff.leftovers().isEmpty()) {
            return new Outcome(true, null, destinations, List.of());
        }
        List<Pod> pending = ff.leftovers().stream().map(p -> p.withNodeName(null)).toList();
        SchedulingResult r = Scheduler.solve(new SchedulingInput(pending, List.of(), List.of(), in.daemonSets(),
                limitsWithCandidates(), in.namespaceLabels()), strategy);
        if (!r.unschedulable().isEmpty()) {
            return full(gone(removed), moved(removed), strategy);
        }
        for (SchedulingResult.NodeClaimPlan plan : r.newClaims()) {
            plan.pods().forEach(p -> destinations.put(p.key(), plan.name()));
        }
        return new Outcome(true, null, destinations, r.newClaims());
    }

    /** The scheduler's order of pods, as a rank per pod, computed once per decision ({@link FirstFit#rank}). */
    private Map<Pod, Integer> rank() {
        if (rank == null) {
            rank = FirstFit.rank(in.nodes());
        }
        return rank;
    }

    /** First-fit of the removed nodes' pods onto the other nodes in the scheduler's order; null when a pod is not simple. */
    private FirstFit firstFit(List<Candidate> removed) {
        BitSet gone = gone(removed);
        List<Pod> moved = new ArrayList<>();
        for (Candidate c : removed) {
            for (Pod p : c.reschedulable()) {
                if (complex.contains(p)) {
                    return null;
                }
                moved.add(p);
            }
        }
        Map<Pod, Integer> order = rank();
        if (moved.stream().allMatch(order::containsKey)) {
            moved.sort(Comparator.comparingInt(order::get));
        } else {
            moved.sort(FirstFit.ORDER);
        }
        return FirstFit.place(moved, this::compatible, gone, room, in.nodes());
    }

    private static BitSet gone(List<Candidate> removed) {
        BitSet gone = new BitSet();
        removed.forEach(c -> gone.set(c.index()));
        return gone;
    }

    private static List<Pod> moved(List<Candidate> removed) {
        List<Pod> moved = new ArrayList<>();
        removed.forEach(c -> c.reschedulable().forEach(p -> moved.add(p.withNodeName(null))));
        return moved;
    }

    /** The whole cluster through the scheduler: every remaining node, the moved pods pending. */
    private Outcome full(BitSet gone, List<Pod> moved, Scheduler.Strategy strategy) {
        return full(gone, moved, strategy, false);
    }

    /** As above; {@code roomless}: the remaining nodes take no moved pod, as a node with no room to give. */
    private Outcome full(BitSet gone, List<Pod> moved, Scheduler.Strategy strategy, boolean roomless) {
        fullSolves++;
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (int i = 0; i < in.nodes().size(); i++) {
            ClusterNode c = in.nodes().get(i);
            if (!gone.get(i)) {
                List<Pod> pods = c.pods().stream().filter(p -> !p.status().isTerminal()).toList();
                // A node that takes no moved pod (deleting, not initialized, within consolidateAfter) keeps its pods
                // for topology but has no room.
                nodes.add(new SchedulingInput.ExistingNode(free[i] == null || roomless ? ConsolidationInput.withoutRoom(c.node(), pods) : c.node(), pods));
            }
        }
        List<SchedulingInput.PoolOffer> pools = limitsWithCandidates();
        SchedulingResult r = Scheduler.solve(new SchedulingInput(moved, nodes, List.of(), in.daemonSets(), pools,
                in.namespaceLabels()), strategy);
        if (!r.unschedulable().isEmpty()) {
            SchedulingResult.Unschedulable u = r.unschedulable().get(0);
            return Outcome.fail("pod \"" + u.pod().key() + "\" cannot be placed: " + u.reason()
                    + (r.unschedulable().size() > 1 ? " (and " + (r.unschedulable().size() - 1) + " more)" : ""));
        }
        Map<String, String> destinations = new LinkedHashMap<>();
        r.existingNodes().forEach((node, pods) -> pods.forEach(p -> destinations.put(p.key(), node)));
        for (SchedulingResult.NodeClaimPlan plan : r.newClaims()) {
            plan.pods().forEach(p -> destinations.put(p.key(), plan.name()));
        }
        return new Outcome(true, null, destinations, r.newClaims());
    }

    /**
     * True when no single instance type any pool offers could hold what {@code removed}'s pods leave over for less
     * than {@code price}; a trial without leftovers (a delete) is never refused here.
     */
    boolean cannotBeCheaper(List<Candidate> removed, double price) {
        FirstFit ff = firstFit(removed);
        if (ff == null || ff.leftovers().isEmpty()) {
            return false;
        }
        Resources left = ff.leftoverDemand();
        for (var e : typesByPrice.entrySet()) {
            Requirements reqs = poolRequirements.get(e.getKey());
            for (InstanceType t : e.getValue()) {
                if (cheapest(t, reqs) >= price) {
                    break;
                }
                if (left.fitsIn(t.allocatable())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A lower bound on what new nodes for {@code removed}'s pods must cost: the LP bound of what first-fit leaves
     * over, on the one pool's types; 0 when that is not a bound (several pools, or pods with topology).
     */
    double leftoverBound(List<Candidate> removed) {
        FirstFit ff = in.pools().size() == 1 ? firstFit(removed) : null;
        if (ff == null) {
            return 0;
        }
        Resources left = ff.leftoverDemand();
        SchedulingInput.PoolOffer o = in.pools().get(0);
        return dev.gantry.core.scheduling.LowerBound.of(left, o.instanceTypes(), o.pool().requirements(), t -> Resources.ZERO);
    }

    private BitSet compatible(Pod p) {
        BitSet known = podCompat.get(p);
        if (known == null) {
            known = compatibleBySignature(p);
            podCompat.put(p, known);
        }
        return known;
    }

    private BitSet compatibleBySignature(Pod p) {
        Requirements reqs = p.nodeRequirementTerms().get(0);
        return compat.computeIfAbsent(List.of(reqs, p.tolerations()), k -> {
            BitSet b = new BitSet();
            for (int i = 0; i < free.length; i++) {
                if (free[i] != null && untolerated(p.tolerations(), taints[i]) == null && reqs.matches(labels[i])) {
                    b.set(i);
                }
            }
            return b;
        });
    }

    /** As the scheduler's strict level sees taints: PreferNoSchedule counts too (relaxing it is the full solve's job). */
    private static Taint untolerated(List<Toleration> tolerations, List<Taint> taints) {
        for (Taint t : taints) {
            if (!Toleration.anyTolerates(tolerations, t)) {
                return t;
            }
        }
        return null;
    }

     /**
     * The pools with the candidates' resources and count still counted against their limits. A replacement launches,
     * and must initialize, before the nodes it replaces are drained and terminated, so for that window both are up and
     * both count (Karpenter's scheduler likewise counts every node in its cluster state, candidates included). Taking
     * the candidates off let a replacement push a pool at its limit over it (chaos sweep, spot-storm seeds 2 and 6: 21
     * of a 20 cpu limit after each replace). A pool at its limit still consolidates by deletion, which launches nothing.
     */
    private List<SchedulingInput.PoolOffer> limitsWithCandidates() {
        return in.pools();
    }

   /** The cheapest offering the pool may launch: a lower bound on any replacement's worst launch price. */
    private static double cheapest(InstanceType t, Requirements poolRequirements) {
        Offering o = t.cheapestOffering(poolRequirements);
        return o == null ? Double.MAX_VALUE : o.pricePerHour();
    }
}
