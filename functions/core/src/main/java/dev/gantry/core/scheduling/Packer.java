package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.ValueSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Karpenter's placement loop. Pods go in order of CPU, then memory, descending; each tries existing nodes, then
 * in-flight claims, then claims opened earlier in this solve, then a new claim from each NodePool by weight. A claim
 * keeps taking pods while some instance type still fits them all. A pod that fits nowhere is retried with its
 * preferences relaxed one at a time. One instance per solve; not thread-safe.
 */
final class Packer {
    final List<PoolContext> pools = new ArrayList<>();
    final List<NodeSlot> slots = new ArrayList<>();
    final List<Claim> claims = new ArrayList<>();
    final Map<Pod, String> unschedulable = new LinkedHashMap<>();
    final Topology topology;
    /** Per pod signature, how many leading slots and claims are known to reject it for good. */
    private final Map<Signature, int[]> cursors = new HashMap<>();
    /** The last constraint looked up and its signature's cursors ({@link #SLOTS}, {@link #CLAIMS}): slots, then claims. */
    private PodConstraints lastLookedUp;
    private int[] lastCursor;
    private static final int SLOTS = 0;
    private static final int CLAIMS = 1;
    private final SchedulingInput input;
    /** Set when this packer's state is Karpenter's loop over every pod in this order, none free and none failed:
     *  {@link CostAwarePacking} then starts from it rather than placing the same pods again. Null otherwise. */
    List<PodConstraints> placedInOrder;
    /** The next claim's index, which names its hostname: never reused when claims are replaced ({@link ZoneRepack}), only
     *  when claims were opened and dropped unseen ({@link JointRepack}). */
    int claimIndex;

    /**
     * The pods kube-scheduler binds (a launch's pending pods): existing nodes' and in-flight claims' room takes them
     * wherever their required constraints allow before a claim is opened for a preference. See
     * {@link Scheduler#solveAsBound}.
     */
    private final java.util.function.Predicate<Pod> bound;

    Packer(SchedulingInput input) {
        this(input, p -> false);
    }

    Packer(SchedulingInput input, java.util.function.Predicate<Pod> bound) {
        this.input = input;
        this.bound = bound;
        for (SchedulingInput.PoolOffer offer : input.pools()) {
            if (offer.pool().isStatic()) {
                continue; // its claims are made by count, never for pods (Karpenter's provisioner.go skips static pools)
            }
            pools.add(new PoolContext(offer, input.daemonSets()));
        }
        pools.sort(Comparator.comparingInt((PoolContext p) -> -p.pool.effectiveWeight()).thenComparing(PoolContext::name));
        slots.addAll(NodeSlots.of(input, pools));
        Map<String, Set<String>> memo = new HashMap<>();
        Map<List<Object>, Set<String>> filtered = new HashMap<>();
        this.topology = new Topology((key, filter) -> filter == null ? memo.computeIfAbsent(key, this::universe)
                : filtered.computeIfAbsent(java.util.Arrays.asList(key, filter), k -> eligible(key, filter)), input.namespaceLabels());
    }

    /** Every value a topology key can take: from NodePools and their instance types, and from node labels. */
    private Set<String> universe(String key) {
        TreeSet<String> values = new TreeSet<>();
        for (PoolContext p : pools) {
            values.addAll(poolDomains(p, key));
        }
        for (NodeSlot s : slots) {
            String v = s.labels.get(key);
            if (v != null) {
                values.add(v);
            }
        }
        return values;
    }

    /**
     * The values of {@code key} a spread with this filter measures skew over, as Karpenter builds them: from each pool
     * whose taints pass the filter (its domain group), and from each node that passes it (taints and node affinity).
     * A pool's domains are not narrowed by the pod's terms here; the spread check narrows them by the pod's rule on the
     * key itself.
     */
    private Set<String> eligible(String key, Topology.NodeFilter filter) {
        TreeSet<String> values = new TreeSet<>();
        for (PoolContext p : pools) {
            if (filter.tolerations() != null && dev.gantry.core.model.Toleration.firstUntolerated(filter.tolerations(), p.taints) != null) {
                continue;
            }
            values.addAll(poolDomains(p, key));
        }
        for (NodeSlot s : slots) {
            String v = s.labels.get(key);
            if (v != null && filter.matches(s)) {
                values.add(v);
            }
        }
        return values;
    }

    private static Set<String> poolDomains(PoolContext p, String key) {
        TreeSet<String> values = new TreeSet<>();
        ValueSet allowed = p.requirements.get(key);
        boolean typesDefineKey = false;
        for (InstanceType t : p.types) {
            ValueSet offered = t.requirements().get(key);
            if (offered.isFinite()) {
                typesDefineKey = true;
                for (String v : offered.values()) {
                    if (allowed.has(v)) {
                        values.add(v);
                    }
                }
            }
        }
        if (!typesDefineKey && allowed.isFinite()) {
            values.addAll(allowed.values()); // a template label: every node of the pool carries one of these
        }
        return values;
    }

    /**
     * Sorts pods as Karpenter does (CPU, then memory, descending); among equal pods the oldest first, as the
     * kube-scheduler's queue takes them, then the pod key for determinism. By key alone, a pod whose name sorts late
     * lost every free slot to newer equal pods for as long as they kept coming: in the simulator's spot storm, the
     * first 1,000 pods of a ten-minute build-up waited 620 s while the nodes launched for them ran newer pods.
     */
    static List<Pod> ordered(List<Pod> pods) {
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparingLong((Pod p) -> -p.requests().cpuMillis())
                .thenComparingLong(p -> -p.requests().memoryBytes())
                .thenComparing(p -> p.status() == null || p.status().createdAt() == null ? java.time.Instant.MAX
                        : p.status().createdAt())
                .thenComparing(Pod::key));
        return sorted;
    }

    /** Karpenter's greedy: every pod, in order, through {@link #place}. */
    void run(List<Pod> pending) {
        for (PodConstraints c : prepare(pending)) {
            place(c);
        }
        retryUnschedulable();
    }

    /**
     * Tries the pods that failed again, in order, for as long as a pass places at least one: a pod whose affinity
     * target was placed after it (being smaller) fits on the second pass, as it does in Karpenter's queue.
     */
    void retryUnschedulable() {
        boolean progress = !unschedulable.isEmpty();
        while (progress) {
            progress = false;
            List<Pod> failed = new ArrayList<>(unschedulable.keySet());
            for (Pod p : failed) {
                unschedulable.remove(p);
                place(PodConstraints.strict(p));
                if (!unschedulable.containsKey(p)) {
                    progress = true;
                }
            }
        }
    }

    /** Registers the pods' topology groups and counts the pods already bound; returns their strict constraints in order. */
    List<PodConstraints> prepare(List<Pod> pending) {
        List<PodConstraints> strict = new ArrayList<>(pending.size());
        for (Pod p : ordered(pending)) {
            PodConstraints c = PodConstraints.strict(p);
            topology.register(c);
            strict.add(c);
        }
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            NodeSlot slot = slotNamed(n.node().name());
            for (Pod p : n.pods()) {
                topology.record(p, slot != null ? slot : fixed(n.node().name(), n.node().labels()));
            }
        }
        for (SchedulingInput.InFlightClaim f : input.inFlight()) {
            NodeSlot slot = slotNamed(f.name());
            for (Pod p : f.pods()) {
                topology.record(p, slot);
            }
        }
        return strict;
    }

    private NodeSlot slotNamed(String name) {
        for (NodeSlot s : slots) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static NodeSlot fixed(String name, Map<String, String> labels) {
        return NodeSlot.node(name, labels, List.of(), Resources.ZERO, List.of());
    }

    void place(PodConstraints c) {
        boolean bound = this.bound.test(c.pod());
        if (bound && placeOnReadyRoom(c)) {
            return;
        }
        String reason = null;
        for (PodConstraints level = c; level != null; level = level.relax()) {
            reason = tryPlace(level, !bound);
            if (reason == null) {
                return;
            }
        }
        unschedulable.put(c.pod(), reason);
    }

    /**
     * Places a pod kube-scheduler binds on an existing node or in-flight claim, at the strictest level that has room,
     * down to its required constraints alone ({@link PodConstraints#hard}). That room is Ready before anything this
     * plan launches, and kube-scheduler only scores preferences: it binds the pod there, and a claim opened elsewhere
     * to keep a preference (a ScheduleAnyway spread's other zone) would launch for nothing.
     */
    private boolean placeOnReadyRoom(PodConstraints c) {
        for (PodConstraints level = c; level != null; level = level.relax()) {
            if (placeOnSlots(level)) {
                return true;
            }
        }
        for (PodConstraints hard : c.hard()) {
            if (placeOnSlots(hard)) {
                return true;
            }
        }
        return false;
    }

    /** Places the pod somewhere and returns null, or returns why it fits nowhere at this level. */
    private String tryPlace(PodConstraints c, boolean slotsToo) {
        if ((slotsToo && placeOnSlots(c)) || placeInClaims(c, claims, Upsize.ALLOWED)) {
            return null;
        }
        List<String> reasons = new ArrayList<>();
        for (PoolContext pool : pools) {
            String why = openClaim(c, pool, pool.types);
            if (why == null) {
                return null;
            }
            reasons.add(why);
        }
        if (reasons.isEmpty()) {
            return "no NodePool can launch capacity";
        }
        return String.join("; ", new java.util.LinkedHashSet<>(reasons));
    }

    /** Places the pod on an existing node or in-flight claim, if one takes it. */
    boolean placeOnSlots(PodConstraints c) {
        int[] cursor = cursor(c);
        int start = cursor[SLOTS];
        for (int i = start; i < slots.size(); i++) {
            NodeSlot slot = slots.get(i);
            Topology.Outcome t = slot.misfit(c) == null ? topology.check(c, slot) : null;
            if (t != null && t.ok()) {
                slot.place(c.pod());
                topology.record(c.pod(), slot);
                return true;
            }
            if (i == start && (t == null || t.lasting())) {
                cursor[SLOTS] = ++start; // a node only fills up: this pod's twins need not look here again
            }
        }
        return false;
    }

    /** Whether placing a pod in a claim may raise the claim's expected price. */
    enum Upsize {
        ALLOWED,
        /** Only where the claim's expected price does not rise: filling slack that is paid for already. */
        FORBIDDEN
    }

    /** Places the pod in the first of {@code candidates} that takes it, within {@code upsize}. */
    boolean placeInClaims(PodConstraints c, List<Claim> candidates, Upsize upsize) {
        boolean useCursor = candidates == claims;
        int[] cursor = useCursor ? cursor(c) : null;
        int start = useCursor ? cursor[CLAIMS] : 0;
        for (int i = start; i < candidates.size(); i++) {
            Claim claim = candidates.get(i);
            Topology.Outcome t = topology.check(c, claim);
            boolean lasting;
            if (t.ok()) {
                ClaimFit fit = claim.fit(c, t.pins(), upsize);
                if (fit.ok() && (upsize == Upsize.ALLOWED || Claim.priceOf(fit) <= claim.price())) {
                    claim.commit(c.pod(), fit);
                    topology.record(c.pod(), claim);
                    return true;
                }
                lasting = !fit.ok() && fit.lasting();
            } else {
                lasting = t.lasting();
            }
            if (useCursor && i == start && lasting) {
                cursor[CLAIMS] = ++start; // claims only fill up and narrow: identical pods skip this one from now on
            }
        }
        return false;
    }

    /** The cursors of the constraint's signature (how many leading slots and claims are known to reject it for good). */
    private int[] cursor(PodConstraints c) {
        if (c != lastLookedUp) {
            lastCursor = cursors.computeIfAbsent(Signature.of(c), s -> new int[2]);
            lastLookedUp = c;
        }
        return lastCursor;
    }

    /**
     * Near a pool's limits, before a pod is refused for them: every claim of the pool opened in this solve keeps only
     * the options no larger than its cheapest ({@link Claim#tighten}), which frees what the conservative accounting
     * held for types it is not expected to launch. Returns whether anything was freed.
     */
    private boolean tighten(PoolContext pool) {
        boolean freed = false;
        for (Claim claim : claims) {
            if (claim.pool == pool) {
                freed |= claim.tighten();
            }
        }
        return freed;
    }

    int nextClaimIndex() {
        return claimIndex++;
    }

    /** Opens a claim on the pool restricted to {@code options} for the pod; null on success, else the reason. */
    String openClaim(PodConstraints c, PoolContext pool, List<InstanceType> options) {
        if (!pool.nodeAllowed()) {
            return "NodePool " + pool.name() + " would exceed its nodes limit";
        }
        Claim claim = Claim.open(pool, nextClaimIndex(), options);
        Topology.Outcome t = topology.check(c, claim);
        if (!t.ok()) {
            return t.failure();
        }
        ClaimFit fit = claim.fit(c, t.pins());
        if (!fit.ok() && !fit.lasting() && tighten(pool)) {
            fit = claim.fit(c, t.pins()); // the pool's other claims now count what they are expected to launch
        }
        if (!fit.ok()) {
            return fit.failure();
        }
        claim.commit(c.pod(), fit);
        pool.nodes++;
        claims.add(claim);
        topology.record(c.pod(), claim);
        return null;
    }
}
