package dev.gantry.core.scheduling;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Counts of matching pods per topology domain, and the spread, affinity and anti-affinity checks built on them.
 * Mutable: it belongs to one solve and is updated as pods are placed.
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
    private final Domains universe;
    private final Map<String, Map<String, String>> namespaceLabels;
    /** Required anti-affinity terms of placed pods: (term, owner namespace) to occupied domains. */
    private final Map<GroupKey, Set<String>> inverse = new LinkedHashMap<>();
    private final Map<Pod, List<Group>> selectingCache = new java.util.IdentityHashMap<>();
    private final Map<Pod, List<GroupKey>> inverseCache = new java.util.IdentityHashMap<>();
    /** The groups each constraint refers to, resolved once per relaxation level rather than on every check. */
    private final Map<PodConstraints, Resolved> resolved = new java.util.IdentityHashMap<>();

    private record Resolved(List<Group> spreads, List<Group> affinity, List<Group> anti) {
    }

    private Resolved resolve(PodConstraints c) {
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
            groups.computeIfAbsent(termKey(c.pod(), t), Group::new);
        }
        for (PodAffinityTerm t : c.antiAffinity()) {
            groups.computeIfAbsent(termKey(c.pod(), t), Group::new);
        }
    }

    boolean isEmpty() {
        return groups.isEmpty() && inverse.isEmpty();
    }

    private boolean selects(GroupKey g, Pod p) {
        PodAffinityTerm term = new PodAffinityTerm(g.selector(), g.key(), g.namespaces(), g.namespaceSelector(), 0);
        return term.selects(g.ownerNamespace(), p.namespace(), p.labels(), namespaceLabels.get(p.namespace()));
    }

    /** The groups that count {@code pod}. */
    List<Group> selecting(Pod pod) {
        List<Group> cached = selectingCache.get(pod);
        if (cached != null) {
            return cached;
        }
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
        for (Group g : selecting(pod)) {
            String d = domainOf(slot, g.id.key());
            if (d != null) {
                g.everywhere.merge(d, 1, Integer::sum);
            }
            if (g.id.filter() != null && !g.id.filter().matches(slot)) {
                continue; // a node the spread does not count
            }
            if (d != null) {
                g.counts.merge(d, 1, Integer::sum);
                g.total++;
            }
        }
        for (PodAffinityTerm t : pod.podAntiAffinity()) {
            GroupKey k = termKey(pod, t);
            String d = domainOf(slot, k.key());
            if (d != null) {
                inverse.computeIfAbsent(k, x -> new TreeSet<>()).add(d);
                inverseCache.clear();
            }
        }
    }

    private static String domainOf(Slot slot, String key) {
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            return slot.hostname();
        }
        Set<String> d = slot.domains(key);
        return d.size() == 1 ? d.iterator().next() : null;
    }

    /** Checks every topology constraint of {@code c} against {@code slot}. */
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
        Map<String, Set<String>> options = new HashMap<>();
        Map<String, String> pins = new LinkedHashMap<>();
        for (int i = 0; i < c.spreads().size(); i++) {
            TopologySpread s = c.spreads().get(i);
            String failure = checkSpread(c, s, r.spreads().get(i), slot, options, pins);
            if (failure != null) {
                // On hostname the smallest domain is always an empty new node, so a full node stays full.
                return WellKnownLabels.HOSTNAME.equals(r.spreads().get(i).id.key()) ? Outcome.failLasting(failure) : Outcome.fail(failure);
            }
        }
        for (Group g : r.affinity()) {
            String failure = checkAffinity(c, g, slot, options, pins);
            if (failure != null) {
                return Outcome.fail(failure);
            }
        }
        for (Group g : r.anti()) {
            String failure = checkAnti(c, g, slot, options, pins, "pod anti-affinity");
            if (failure != null) {
                return options.get(g.id.key()).size() <= 1 ? Outcome.failLasting(failure) : Outcome.fail(failure);
            }
        }
        for (GroupKey k : blocking) {
            String failure = checkBlocked(c, k.key(), inverse.get(k), slot, options, pins);
            if (failure != null) {
                return Outcome.fail(failure);
            }
        }
        // A pod that some group counts must land in a known domain, so pin open keys to the least-loaded value.
        for (Group g : counted) {
            String key = g.id.key();
            if (!key.equals(WellKnownLabels.HOSTNAME) && !pins.containsKey(key)) {
                Set<String> opts = options(c, slot, key, options);
                if (opts.size() > 1) {
                    pin(key, leastLoaded(g, opts), options, pins);
                } else if (opts.isEmpty()) {
                    return Outcome.fail("no " + shortKey(key) + " is left for the pod");
                }
            }
        }
        return pins.isEmpty() ? Outcome.OK : new Outcome(Map.copyOf(pins), null, false);
    }

    private List<GroupKey> inverseFor(Pod pod) {
        if (inverse.isEmpty()) {
            return List.of();
        }
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

    /**
     * The domains of {@code key} the pod could take in this slot: the slot's own, less those the pod's node requirements
     * exclude (a pod pinned to one zone must not be pinned to another because it is least loaded).
     */
    private static Set<String> options(PodConstraints c, Slot slot, String key, Map<String, Set<String>> options) {
        return options.computeIfAbsent(key, k -> {
            if (k.equals(WellKnownLabels.HOSTNAME)) {
                return Set.of(slot.hostname());
            }
            Set<String> domains = slot.domains(k);
            ValueSet allowed = c.nodeRequirements().get(k);
            if (domains.size() <= 1 || allowed.equals(ValueSet.ANY)) {
                return domains;
            }
            Set<String> kept = new TreeSet<>();
            for (String d : domains) {
                if (allowed.has(d)) {
                    kept.add(d);
                }
            }
            return kept;
        });
    }

    private static void pin(String key, String value, Map<String, Set<String>> options, Map<String, String> pins) {
        options.put(key, Set.of(value));
        if (!key.equals(WellKnownLabels.HOSTNAME)) {
            pins.put(key, value);
        }
    }

    private String checkSpread(PodConstraints c, TopologySpread s, Group g, Slot slot, Map<String, Set<String>> options,
                               Map<String, String> pins) {
        String key = g.id.key();
        int self = selects(g.id, c.pod()) ? 1 : 0;
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            // A new node can always be added, so the smallest hostname domain holds zero pods.
            return g.count(slot.hostname()) + self > s.maxSkew()
                    ? "topology spread on hostname: every node would exceed maxSkew " + s.maxSkew() : null;
        }
        // Only required node affinity narrows the eligible domains; a preference must not shrink the spread.
        ValueSet allowed = s.honorNodeAffinity() ? c.terms().get(0).get(key) : ValueSet.ANY;
        List<String> eligible = new ArrayList<>();
        for (String d : universe.of(key, g.id.filter())) {
            if (allowed.has(d)) {
                eligible.add(d);
            }
        }
        int minDomains = s.minDomains() == null ? 1 : s.minDomains();
        int min = 0;
        if (eligible.size() >= minDomains && !eligible.isEmpty()) {
            min = Integer.MAX_VALUE;
            for (String d : eligible) {
                min = Math.min(min, g.count(d));
            }
        }
        String best = null;
        for (String d : options(c, slot, key, options)) {
            if (eligible.contains(d) && g.count(d) + self - min <= s.maxSkew()
                    && (best == null || g.count(d) < g.count(best) || (g.count(d) == g.count(best) && evenerThan(g, d, best)))) {
                best = d;
            }
        }
        if (best == null) {
            if (eligible.size() < minDomains) {
                return "topology spread on " + shortKey(key) + " cannot be satisfied: only " + eligible.size() + " "
                        + plural(shortKey(key)) + " allowed, minDomains " + minDomains;
            }
            return "topology spread on " + shortKey(key) + ": no allowed " + shortKey(key) + " keeps maxSkew " + s.maxSkew();
        }
        pin(key, best, options, pins);
        return null;
    }

    /** Between domains with the same count: fewer matching pods on all nodes, then the name. */
    private static boolean evenerThan(Group g, String d, String best) {
        int a = g.everywhere.getOrDefault(d, 0);
        int b = g.everywhere.getOrDefault(best, 0);
        return a != b ? a < b : d.compareTo(best) < 0;
    }

    private String checkAffinity(PodConstraints c, Group g, Slot slot, Map<String, Set<String>> options, Map<String, String> pins) {
        Pod pod = c.pod();
        String key = g.id.key();
        Set<String> opts = options(c, slot, key, options);
        boolean self = selects(g.id, pod);
        if (g.total == 0 || (self && !anyCountIn(g, c.nodeRequirements().get(key)))) {
            if (self) {
                // The first pod of a self-affine group may go anywhere; the rest follow it. As in Karpenter, so may a
                // self-affine pod whose own node requirements rule out every domain the group's pods are in.
                if (opts.size() > 1) {
                    pin(key, opts.iterator().next(), options, pins);
                }
                return null;
            }
            return "pod affinity on " + shortKey(key) + ": no pod matches its selector";
        }
        String best = null;
        for (String d : opts) {
            if (g.count(d) > 0 && (best == null || g.count(d) > g.count(best))) {
                best = d;
            }
        }
        if (best == null) {
            return "pod affinity on " + shortKey(key) + ": the matching pods are elsewhere";
        }
        pin(key, best, options, pins);
        return null;
    }

    private static boolean anyCountIn(Group g, ValueSet allowed) {
        for (var e : g.counts.entrySet()) {
            if (e.getValue() > 0 && allowed.has(e.getKey())) {
                return true;
            }
        }
        return false;
    }

    private String checkAnti(PodConstraints c, Group g, Slot slot, Map<String, Set<String>> options, Map<String, String> pins, String what) {
        String key = g.id.key();
        String first = null;
        for (String d : options(c, slot, key, options)) {
            if (g.count(d) == 0) {
                first = d;
                break;
            }
        }
        if (first == null) {
            return what + " on " + shortKey(key) + ": a matching pod is already there";
        }
        if (options.get(key).size() > 1) {
            pin(key, first, options, pins);
        }
        return null;
    }

    private String checkBlocked(PodConstraints c, String key, Set<String> blocked, Slot slot, Map<String, Set<String>> options,
                                Map<String, String> pins) {
        String first = null;
        for (String d : options(c, slot, key, options)) {
            if (!blocked.contains(d)) {
                first = d;
                break;
            }
        }
        if (first == null) {
            return "anti-affinity of a pod already on " + shortKey(key) + " excludes this pod";
        }
        if (options.get(key).size() > 1) {
            pin(key, first, options, pins);
        }
        return null;
    }

    private static String leastLoaded(Group g, Set<String> opts) {
        String best = null;
        for (String d : new TreeSet<>(opts)) {
            if (best == null || g.count(d) < g.count(best)) {
                best = d;
            }
        }
        return best;
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

    private static String plural(String s) {
        return s.endsWith("s") ? s : s + "s";
    }
}
