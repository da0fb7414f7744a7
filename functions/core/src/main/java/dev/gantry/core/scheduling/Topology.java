package dev.gantry.core.scheduling;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Counts of matching pods per topology domain, and the spread, affinity and anti-affinity checks built on them (each
 * check of one pod against one slot is a {@link TopologyCheck}). Mutable: it belongs to one solve and is updated as
 * pods are placed.
 *
 * <p>A check returns the domains the slot must be pinned to (for a claim whose zone is still open, say) or a reason.
 * A pod counted by some group is always placed in a known domain: an open claim is pinned as the pod lands, so counts
 * stay exact.
 */
final class Topology {
    /** What a group counts: pods in some namespaces matching a selector, per value of a label key. */
    record GroupKey(String key, LabelSelector selector, String ownerNamespace, List<String> namespaces, LabelSelector namespaceSelector,
                    NodeFilter filter) {
    }

    /**
     * Which nodes a spread counts, by its {@code nodeAffinityPolicy} and {@code nodeTaintsPolicy}: with Honor, only
     * nodes that satisfy one of the pod's required node-selector terms ({@code terms}), and only nodes whose hard
     * taints the pod tolerates ({@code tolerations}). A null part is Ignore (or, for terms, a pod with no node
     * constraint). Pods on other nodes are not counted and their domains are not eligible, as kube-scheduler does.
     */
    record NodeFilter(List<Requirements> terms, List<Toleration> tolerations) {
        static NodeFilter of(Pod pod, TopologySpread s) {
            List<Requirements> terms = s.honorNodeAffinity() ? pod.nodeRequirementTerms() : null;
            if (terms != null && terms.stream().allMatch(Requirements::isEmpty)) {
                terms = null;
            }
            List<Toleration> tolerations = s.honorTaints() ? pod.tolerations() : null;
            return terms == null && tolerations == null ? null : new NodeFilter(terms, tolerations);
        }

        boolean matches(Slot slot) {
            return (tolerations == null || Toleration.firstUntolerated(tolerations, slot.taints()) == null)
                    && (terms == null || terms.stream().anyMatch(slot::couldMatch));
        }
    }

    /** The domains a spread may use: every value of the key, or (with a filter) those some eligible node could take. */
    interface Domains {
        Set<String> of(String key, NodeFilter filter);
    }

    static final class Group {
        final GroupKey id;
        final Map<String, Integer> counts = new HashMap<>();
        /** Matching pods per domain on every node, the filter aside: a tie-break that keeps the spread even overall. */
        final Map<String, Integer> everywhere = new HashMap<>();
        int total;
        /** Whether some pod's affinity or anti-affinity term counts by this group (not only spreads). */
        boolean term;

        Group(GroupKey id) {
            this.id = id;
        }

        int count(String domain) {
            return counts.getOrDefault(domain, 0);
        }
    }

    /**
     * The outcome of a check: pins to apply (key to value) or a failure reason. A {@code lasting} failure cannot turn
     * into a success later in the same solve for the same pod and slot (counts that only grow decided it).
     */
    record Outcome(Map<String, String> pins, String failure, boolean lasting) {
        static final Outcome OK = new Outcome(Map.of(), null, false);

        static Outcome pinned(Map<String, String> pins) {
            return new Outcome(Map.copyOf(pins), null, false);
        }

        static Outcome fail(String reason) {
            return new Outcome(Map.of(), reason, false);
        }

        static Outcome failLasting(String reason) {
            return new Outcome(Map.of(), reason, true);
        }

        boolean ok() {
            return failure == null;
        }
    }

    private final Map<GroupKey, Group> groups = new LinkedHashMap<>();
    final Domains universe;
    private final Map<String, Map<String, String>> namespaceLabels;
    /** Required anti-affinity terms of placed pods: (term, owner namespace) to occupied domains. */
    private final Map<GroupKey, Set<String>> inverse = new LinkedHashMap<>();
    private final Map<Pod, List<Group>> selectingCache = new java.util.IdentityHashMap<>();
    private final Map<Pod, List<GroupKey>> inverseCache = new java.util.IdentityHashMap<>();
    /** The groups each constraint refers to, resolved once per relaxation level rather than on every check. */
    private final Map<PodConstraints, Resolved> resolved = new java.util.IdentityHashMap<>();

    private record Resolved(List<Group> spreads, List<Group> affinity, List<Group> anti) {
    }

    /** The last constraint resolved, and the last pod looked up: a pod is checked against many slots in a row. */
    private PodConstraints lastResolved;
    private Resolved lastResolution;
    private Pod lastSelected;
    private List<Group> lastSelecting;
    private Pod lastBlocked;
    private List<GroupKey> lastBlocking;

    private Resolved resolve(PodConstraints c) {
        if (c == lastResolved) {
            return lastResolution;
        }
        lastResolution = resolveNew(c);
        lastResolved = c;
        return lastResolution;
    }

    private Resolved resolveNew(PodConstraints c) {
        return resolved.computeIfAbsent(c, k -> new Resolved(
                k.spreads().stream().map(s -> groups.get(spreadKey(k.pod(), s))).toList(),
                k.affinity().stream().map(t -> groups.get(termKey(k.pod(), t))).toList(),
                k.antiAffinity().stream().map(t -> groups.get(termKey(k.pod(), t))).toList()));
    }

    Topology(Domains universe, Map<String, Map<String, String>> namespaceLabels) {
        this.universe = universe;
        this.namespaceLabels = namespaceLabels;
    }

    static GroupKey spreadKey(Pod pod, TopologySpread s) {
        Map<String, String> extra = new java.util.TreeMap<>();
        for (String k : s.matchLabelKeys()) {
            String v = pod.labels().get(k);
            if (v != null) {
                extra.put(k, v);
            }
        }
        return new GroupKey(WellKnownLabels.normalize(s.topologyKey()), s.selector().and(extra), pod.namespace(),
                List.of(pod.namespace()), null, NodeFilter.of(pod, s));
    }

    static GroupKey termKey(Pod pod, PodAffinityTerm t) {
        return new GroupKey(WellKnownLabels.normalize(t.topologyKey()), t.selector(), pod.namespace(), t.namespaces(), t.namespaceSelector(), null);
    }

    /** Registers every group a pending pod's strictest constraints refer to. Call before counting. */
    void register(PodConstraints c) {
        for (TopologySpread s : c.spreads()) {
            groups.computeIfAbsent(spreadKey(c.pod(), s), Group::new);
        }
        for (PodAffinityTerm t : c.affinity()) {
            groups.computeIfAbsent(termKey(c.pod(), t), Group::new).term = true;
        }
        for (PodAffinityTerm t : c.antiAffinity()) {
            groups.computeIfAbsent(termKey(c.pod(), t), Group::new).term = true;
        }
    }

    boolean isEmpty() {
        return groups.isEmpty() && inverse.isEmpty();
    }

    /** Whether the group {@code g} counts (or its term selects) the pod {@code p}. */
    boolean selects(GroupKey g, Pod p) {
        PodAffinityTerm term = new PodAffinityTerm(g.selector(), g.key(), g.namespaces(), g.namespaceSelector(), 0);
        return term.selects(g.ownerNamespace(), p.namespace(), p.labels(), namespaceLabels.get(p.namespace()));
    }

    /** The groups that count {@code pod}. */
    List<Group> selecting(Pod pod) {
        if (pod == lastSelected) {
            return lastSelecting;
        }
        List<Group> cached = selectingCache.get(pod);
        if (cached == null) {
            cached = selectingNew(pod);
        }
        lastSelected = pod;
        lastSelecting = cached;
        return cached;
    }

    private List<Group> selectingNew(Pod pod) {
        List<Group> out = new ArrayList<>();
        for (Group g : groups.values()) {
            if (selects(g.id, pod)) {
                out.add(g);
            }
        }
        selectingCache.put(pod, out);
        return out;
    }

    /** Records a pod that sits in a slot (already bound, or just placed and pinned). */
    void record(Pod pod, Slot slot) {
        count(pod, slot, 1);
        for (PodAffinityTerm t : pod.podAntiAffinity()) {
            GroupKey k = termKey(pod, t);
            String d = domainOf(slot, k.key());
            if (d != null) {
                Set<String> occupied = inverse.get(k);
                if (occupied == null) {
                    occupied = new TreeSet<>();
                    inverse.put(k, occupied);
                    inverseCache.clear(); // which terms select a pod changes only with a new term
                    lastBlocked = null;
                }
                occupied.add(d);
            }
        }
    }

    /** Adds {@code delta} to the pod's count in the slot's domain of every group that counts it there. */
    private void count(Pod pod, Slot slot, int delta) {
        for (Group g : selecting(pod)) {
            String d = domainOf(slot, g.id.key());
            if (d != null) {
                g.everywhere.merge(d, delta, Integer::sum);
            }
            if (g.id.filter() != null && !g.id.filter().matches(slot)) {
                continue; // a node the spread does not count
            }
            if (d != null) {
                g.counts.merge(d, delta, Integer::sum);
                g.total += delta;
            }
        }
    }

    /**
     * Whether a placed pod may move from {@code from} to {@code to} with no count group it is in growing less even:
     * in every group that counts it, the domain it leaves keeps at least the least count, and the domain it joins
     * reaches at most the greatest, so no group's skew grows, whatever maxSkew and whichever of the group's pods it
     * is read for (the pod's own constraints still need {@link #check}). Refused where the move could matter otherwise:
     * a group on the hostname (the two slots are different nodes), a group some affinity or anti-affinity term counts
     * by, the pod's own anti-affinity or another pod's that selects it, and a domain not known in either slot.
     */
    boolean mayMove(Pod pod, Slot from, Slot to) {
        if (!mayMove(pod)) {
            return false;
        }
        for (Group g : selecting(pod)) {
            String key = g.id.key();
            String a = domainOf(from, key);
            String b = domainOf(to, key);
            if (a == null || b == null) {
                return false;
            }
            boolean countedA = g.id.filter() == null || g.id.filter().matches(from);
            boolean countedB = g.id.filter() == null || g.id.filter().matches(to);
            if (a.equals(b) && countedA == countedB) {
                continue;
            }
            if (a.equals(b) || !countedA || !countedB) {
                return false; // counted on one side only: the move changes the group's total
            }
            int min = Integer.MAX_VALUE;
            int max = 0;
            for (String d : universe.of(key, g.id.filter())) {
                min = Math.min(min, g.count(d));
                max = Math.max(max, g.count(d));
            }
            if (g.count(a) - 1 < min || g.count(b) + 1 > max) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the pod may move at all, wherever to (the part of {@link #mayMove(Pod, Slot, Slot)} that does not depend
     * on the slots): no anti-affinity of its own or of another pod selects it, and no group that counts it is on the
     * hostname or counts for an affinity or anti-affinity term.
     */
    boolean mayMove(Pod pod) {
        if (!pod.podAntiAffinity().isEmpty() || !inverseFor(pod).isEmpty()) {
            return false;
        }
        for (Group g : selecting(pod)) {
            if (g.term || g.id.key().equals(WellKnownLabels.HOSTNAME)) {
                return false;
            }
        }
        return true;
    }

    /** Moves a recorded pod's counts from one slot to another (see {@link #mayMove}; not for pods with anti-affinity). */
    void move(Pod pod, Slot from, Slot to) {
        count(pod, from, -1);
        count(pod, to, 1);
    }

    private static String domainOf(Slot slot, String key) {
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            return slot.hostname();
        }
        Set<String> d = slot.domains(key);
        return d.size() == 1 ? d.iterator().next() : null;
    }

    /**
     * Checks every topology constraint of {@code c} against {@code slot}: spreads, affinity, anti-affinity, the
     * anti-affinity of pods already placed, and last pins each open key some group counts the pod by.
     */
    Outcome check(PodConstraints c, Slot slot) {
        if (isEmpty()) {
            return Outcome.OK;
        }
        Pod pod = c.pod();
        List<Group> counted = selecting(pod);
        List<GroupKey> blocking = inverseFor(pod);
        if (c.spreads().isEmpty() && c.affinity().isEmpty() && c.antiAffinity().isEmpty() && counted.isEmpty() && blocking.isEmpty()) {
            return Outcome.OK;
        }
        Resolved r = resolve(c);
        TopologyCheck check = new TopologyCheck(this, c, slot);
        for (int i = 0; i < c.spreads().size(); i++) {
            String failure = check.spread(c.spreads().get(i), r.spreads().get(i));
            if (failure != null) {
                // On hostname the smallest domain is always an empty new node, so a full node stays full.
                return WellKnownLabels.HOSTNAME.equals(r.spreads().get(i).id.key()) ? Outcome.failLasting(failure) : Outcome.fail(failure);
            }
        }
        for (Group g : r.affinity()) {
            String failure = check.affinity(g);
            if (failure != null) {
                return Outcome.fail(failure);
            }
        }
        for (Group g : r.anti()) {
            String failure = check.antiAffinity(g);
            if (failure != null) {
                return check.domains(g.id.key()).size() <= 1 ? Outcome.failLasting(failure) : Outcome.fail(failure);
            }
        }
        for (GroupKey k : blocking) {
            String failure = check.notExcluded(k.key(), inverse.get(k));
            if (failure != null) {
                return Outcome.fail(failure);
            }
        }
        for (Group g : counted) {
            String failure = check.knownDomain(g);
            if (failure != null) {
                return Outcome.fail(failure);
            }
        }
        return check.pins().isEmpty() ? Outcome.OK : Outcome.pinned(check.pins());
    }

    private List<GroupKey> inverseFor(Pod pod) {
        if (inverse.isEmpty()) {
            return List.of();
        }
        if (pod == lastBlocked) {
            return lastBlocking;
        }
        lastBlocking = inverseNew(pod);
        lastBlocked = pod;
        return lastBlocking;
    }

    private List<GroupKey> inverseNew(Pod pod) {
        return inverseCache.computeIfAbsent(pod, p -> {
            List<GroupKey> out = new ArrayList<>();
            for (GroupKey k : inverse.keySet()) {
                if (selects(k, p)) {
                    out.add(k);
                }
            }
            return out;
        });
    }

    /** {@code zone}, {@code hostname}, {@code capacity-type}, or the key itself. */
    static String shortKey(String key) {
        return switch (key) {
            case WellKnownLabels.ZONE -> "zone";
            case WellKnownLabels.HOSTNAME -> "hostname";
            case WellKnownLabels.CAPACITY_TYPE -> "capacity-type";
            default -> key;
        };
    }
}
