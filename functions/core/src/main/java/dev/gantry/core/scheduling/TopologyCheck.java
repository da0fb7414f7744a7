package dev.gantry.core.scheduling;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Topology.Group;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One check of a pod's topology constraints against one slot, against the counts of a {@link Topology}: the domains
 * each key may still take in the slot, narrowed as each constraint pins one, and the pins chosen so far. Each
 * constraint's method returns null when the slot satisfies it, or the reason it does not.
 */
final class TopologyCheck {
    private final Topology topology;
    private final PodConstraints c;
    private final Slot slot;
    /** Per key, the domains the pod may still take in the slot (one, once pinned). */
    private final Map<String, Set<String>> open = new HashMap<>();
    private final Map<String, String> pins = new LinkedHashMap<>();

    TopologyCheck(Topology topology, PodConstraints c, Slot slot) {
        this.topology = topology;
        this.c = c;
        this.slot = slot;
    }

    /** The domains pinned so far, per key (a hostname is never pinned: the slot is the node). */
    Map<String, String> pins() {
        return pins;
    }

    /**
     * The domains of {@code key} the pod could take in this slot: the slot's own, less those the pod's node requirements
     * exclude (a pod pinned to one zone must not be pinned to another because it is least loaded).
     */
    Set<String> domains(String key) {
        return open.computeIfAbsent(key, k -> {
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

    private void pin(String key, String value) {
        open.put(key, Set.of(value));
        if (!key.equals(WellKnownLabels.HOSTNAME)) {
            pins.put(key, value);
        }
    }

    /**
     * The spread {@code s} (counted by {@code g}): the slot must offer an eligible domain whose count, with the pod,
     * stays within maxSkew of the least-loaded eligible domain (zero while fewer than minDomains are eligible); the
     * least-loaded such domain is pinned.
     */
    String spread(TopologySpread s, Group g) {
        String key = g.id.key();
        int self = topology.selects(g.id, c.pod()) ? 1 : 0;
        if (key.equals(WellKnownLabels.HOSTNAME)) {
            // A new node can always be added, so the smallest hostname domain holds zero pods.
            return g.count(slot.hostname()) + self > s.maxSkew()
                    ? "topology spread on hostname: every node would exceed maxSkew " + s.maxSkew() : null;
        }
        // Only required node affinity narrows the eligible domains; a preference must not shrink the spread.
        ValueSet allowed = s.honorNodeAffinity() ? c.terms().get(0).get(key) : ValueSet.ANY;
        List<String> eligible = new ArrayList<>();
        for (String d : topology.universe.of(key, g.id.filter())) {
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
        for (String d : domains(key)) {
            if (eligible.contains(d) && g.count(d) + self - min <= s.maxSkew()
                    && (best == null || g.count(d) < g.count(best) || (g.count(d) == g.count(best) && evenerThan(g, d, best)))) {
                best = d;
            }
        }
        if (best == null) {
            if (eligible.size() < minDomains) {
                return "topology spread on " + Topology.shortKey(key) + " cannot be satisfied: only " + eligible.size() + " "
                        + plural(Topology.shortKey(key)) + " allowed, minDomains " + minDomains;
            }
            return "topology spread on " + Topology.shortKey(key) + ": no allowed " + Topology.shortKey(key) + " keeps maxSkew " + s.maxSkew();
        }
        pin(key, best);
        return null;
    }

    /** Between domains with the same count: fewer matching pods on all nodes, then the name. */
    private static boolean evenerThan(Group g, String d, String best) {
        int a = g.everywhere.getOrDefault(d, 0);
        int b = g.everywhere.getOrDefault(best, 0);
        return a != b ? a < b : d.compareTo(best) < 0;
    }

    /** Required pod affinity (counted by {@code g}): the slot must offer a domain holding a matching pod; the fullest is pinned. */
    String affinity(Group g) {
        Pod pod = c.pod();
        String key = g.id.key();
        Set<String> opts = domains(key);
        boolean self = topology.selects(g.id, pod);
        if (g.total == 0 || (self && !anyCountIn(g, c.nodeRequirements().get(key)))) {
            if (self) {
                // The first pod of a self-affine group may go anywhere; the rest follow it. As in Karpenter, so may a
                // self-affine pod whose own node requirements rule out every domain the group's pods are in.
                if (opts.size() > 1) {
                    pin(key, opts.iterator().next());
                }
                return null;
            }
            return "pod affinity on " + Topology.shortKey(key) + ": no pod matches its selector";
        }
        String best = null;
        for (String d : opts) {
            if (g.count(d) > 0 && (best == null || g.count(d) > g.count(best))) {
                best = d;
            }
        }
        if (best == null) {
            return "pod affinity on " + Topology.shortKey(key) + ": the matching pods are elsewhere";
        }
        pin(key, best);
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

    /** Required pod anti-affinity (counted by {@code g}): the slot must offer a domain with no matching pod; the first is pinned. */
    String antiAffinity(Group g) {
        String key = g.id.key();
        String first = null;
        for (String d : domains(key)) {
            if (g.count(d) == 0) {
                first = d;
                break;
            }
        }
        if (first == null) {
            return "pod anti-affinity on " + Topology.shortKey(key) + ": a matching pod is already there";
        }
        if (open.get(key).size() > 1) {
            pin(key, first);
        }
        return null;
    }

    /**
     * The required anti-affinity of pods already placed that selects this pod: the slot must offer a domain of
     * {@code key} outside {@code blocked}, the domains those pods occupy; the first is pinned.
     */
    String notExcluded(String key, Set<String> blocked) {
        String first = null;
        for (String d : domains(key)) {
            if (!blocked.contains(d)) {
                first = d;
                break;
            }
        }
        if (first == null) {
            return "anti-affinity of a pod already on " + Topology.shortKey(key) + " excludes this pod";
        }
        if (open.get(key).size() > 1) {
            pin(key, first);
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


    /**
     * A pod that {@code g} counts must land in a known domain: an open key (not hostname, not pinned yet) is pinned to
     * its least-loaded domain. Fails when the slot has no domain of the key left for the pod.
     */
    String knownDomain(Group g) {
        String key = g.id.key();
        if (!key.equals(WellKnownLabels.HOSTNAME) && !pins.containsKey(key)) {
            Set<String> opts = domains(key);
            if (opts.size() > 1) {
                pin(key, leastLoaded(g, opts));
            } else if (opts.isEmpty()) {
                return "no " + Topology.shortKey(key) + " is left for the pod";
            }
        }
        return null;
    }

    private static String plural(String s) {
        return s.endsWith("s") ? s : s + "s";
    }
}
