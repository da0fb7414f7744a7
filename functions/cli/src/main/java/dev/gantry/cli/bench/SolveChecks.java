package dev.gantry.cli.bench;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants {@link SolveFuzz} checks on a result: every pending pod placed once or unschedulable once (and an
 * unconstrained pod unschedulable only when no type of a pool it tolerates holds it), each claim's pods and DaemonSets
 * within its expected type's allocatable and every option's, the pods' node requirements and the pool's taints honoured,
 * a pool's cpu limit, existing nodes' and in-flight claims' room, and on new claims only: zonal and hostname spread,
 * required anti-affinity and affinity, each where every pod its selector selects carries it (else Kubernetes bounds nothing).
 */
final class SolveChecks {
    private SolveChecks() {
    }

    /** The first invariant the result breaks, or null. */
    static String check(SchedulingInput input, SchedulingResult res) {
        Map<String, Integer> seen = new HashMap<>();
        Map<String, SchedulingResult.NodeClaimPlan> claimOf = new HashMap<>();
        Map<String, String> zoneOf = new HashMap<>();
        for (SchedulingResult.NodeClaimPlan c : res.newClaims()) {
            String zone = c.requirements().has(WellKnownLabels.ZONE) ? c.requirements().get(WellKnownLabels.ZONE).singleValue() : null;
            if (zone != null && !zone.equals(c.offering().zone())) {
                return "claim " + c.name() + " pinned to " + zone + " but its offering is in " + c.offering().zone();
            }
            SchedulingInput.PoolOffer pool = input.pools().stream().filter(o -> o.pool().name().equals(c.nodePool())).findFirst().orElseThrow();
            Resources used = overhead(input, pool, c.instanceType());
            for (Pod p : c.pods()) {
                used = used.plus(slot(p.requests()));
                seen.merge(p.key(), 1, Integer::sum);
                claimOf.put(p.key(), c);
                zoneOf.put(p.key(), zone != null ? zone : c.offering().zone());
                if (Toleration.firstUntolerated(p.tolerations(), pool.pool().template().taints()) != null) {
                    return "pod " + p.key() + " on claim " + c.name() + " of pool " + c.nodePool() + " does not tolerate its taints";
                }
                if (p.nodeRequirementTerms().stream().noneMatch(t -> t.compatible(c.instanceType().requirements()) && t.compatible(c.requirements())
                        && offeringMatches(t, c.offering()))) {
                    return "pod " + p.key() + " on claim " + c.name() + " (" + c.instanceType().name() + " " + c.offering() + ") breaks its node requirements";
                }
            }
            for (InstanceType o : c.instanceTypeOptions()) {
                Resources need = overhead(input, pool, o);
                for (Pod p : c.pods()) {
                    need = need.plus(slot(p.requests()));
                }
                if (!need.fitsIn(o.allocatable())) {
                    return "claim " + c.name() + " option " + o.name() + " (expected " + c.instanceType().name() + ") does not hold its pods: "
                            + need.firstExceeding(o.allocatable()) + " need " + need + " alloc " + o.allocatable();
                }
            }
            if (!used.fitsIn(c.instanceType().allocatable())) {
                return "claim " + c.name() + " " + c.instanceType().name() + " overfull: " + used.firstExceeding(c.instanceType().allocatable())
                        + " used " + used + " alloc " + c.instanceType().allocatable() + " pods " + c.pods().size();
            }
        }
        for (Map<String, List<Pod>> m : List.of(res.existingNodes(), res.inFlightClaims())) {
            for (var e : m.entrySet()) {
                for (Pod p : e.getValue()) {
                    seen.merge(p.key(), 1, Integer::sum);
                }
            }
        }
        for (SchedulingInput.PoolOffer o : input.pools()) {
            dev.gantry.core.model.Quantity limit = o.pool().limits().get("cpu");
            long cpu = res.newClaims().stream().filter(c -> c.nodePool().equals(o.pool().name())).mapToLong(c -> c.instanceType().capacity().cpuMillis()).sum();
            if (limit != null && cpu > limit.value().movePointRight(3).longValue()) {
                return "pool " + o.pool().name() + " cpu limit " + limit.value() + " exceeded: new claims' types have " + cpu + "m";
            }
        }
        String room = existingRoom(input, res);
        if (room != null) {
            return room;
        }
        for (SchedulingResult.Unschedulable u : res.unschedulable()) {
            seen.merge(u.pod().key(), 1, Integer::sum);
            String fits = freeFits(input, u.pod());
            if (fits != null) {
                return "unconstrained pod " + u.pod().key() + " " + u.pod().requests() + " unschedulable (" + u.reason() + ") though " + fits + " holds it";
            }
        }
        for (Pod p : input.pending()) {
            Integer k = seen.remove(p.key());
            if (k == null || k != 1) {
                return "pod " + p.key() + " appears " + (k == null ? 0 : k) + " times";
            }
        }
        if (!seen.isEmpty()) {
            return "result holds pods not pending: " + seen.keySet().stream().limit(3).toList();
        }
        // Existing pods count toward spread and affinity, and may break them already: the checks below know new claims only.
        return input.nodes().isEmpty() && input.inFlight().isEmpty() ? constraints(input, res, claimOf, zoneOf) : null;
    }

    /** Each existing node and in-flight claim holds its bound pods and the pending pods placed there. */
    private static String existingRoom(SchedulingInput input, SchedulingResult res) {
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            Resources used = Resources.ZERO;
            for (Pod p : n.pods()) {
                used = used.plus(slot(p.requests()));
            }
            for (Pod p : res.existingNodes().getOrDefault(n.node().name(), List.of())) {
                used = used.plus(slot(p.requests()));
            }
            if (!used.fitsIn(n.node().allocatable())) {
                return "existing node " + n.node().name() + " overfull: " + used.firstExceeding(n.node().allocatable());
            }
        }
        for (SchedulingInput.InFlightClaim c : input.inFlight()) {
            Resources used = Resources.ZERO;
            for (Pod p : c.pods()) {
                used = used.plus(slot(p.requests()));
            }
            for (Pod p : res.inFlightClaims().getOrDefault(c.name(), List.of())) {
                used = used.plus(slot(p.requests()));
            }
            if (!used.fitsIn(c.allocatable())) {
                return "in-flight claim " + c.name() + " overfull: " + used.firstExceeding(c.allocatable());
            }
        }
        return null;
    }

    private static boolean offeringMatches(Requirements t, Offering o) {
        return (!t.has(WellKnownLabels.ZONE) || t.get(WellKnownLabels.ZONE).has(o.zone()))
                && (!t.has(WellKnownLabels.CAPACITY_TYPE) || t.get(WellKnownLabels.CAPACITY_TYPE).has(o.capacityType()));
    }

    /** For a pod no spread, affinity or anti-affinity touches: a type of the pool that admits it and has room for it, or null. */
    private static String freeFits(SchedulingInput input, Pod p) {
        if (!p.topologySpread().isEmpty() || !p.podAffinity().isEmpty() || !p.podAntiAffinity().isEmpty()
                || input.pending().stream().anyMatch(q -> q.podAntiAffinity().stream().anyMatch(a -> a.selector().matches(p.labels())))) {
            return null;
        }
        for (SchedulingInput.PoolOffer offer : input.pools()) {
            if (!offer.pool().limits().isEmpty() || Toleration.firstUntolerated(p.tolerations(), offer.pool().template().taints()) != null) {
                continue;
            }
            for (Requirements term : p.nodeRequirementTerms()) {
                Requirements reqs = offer.requirements().intersect(term);
                for (InstanceType t : offer.instanceTypes()) {
                    if (reqs.compatible(t.requirements()) && t.offerings().stream().anyMatch(o -> o.available() && offeringMatches(reqs, o))
                            && overhead(input, offer, t).plus(slot(p.requests())).fitsIn(t.allocatable())) {
                        return offer.pool().name() + "/" + t.name();
                    }
                }
            }
        }
        return null;
    }

    /** The DaemonSets a node of {@code t} runs (their node affinity admits it), each with its pod slot. */
    private static Resources overhead(SchedulingInput input, SchedulingInput.PoolOffer pool, InstanceType t) {
        Resources out = Resources.ZERO;
        for (DaemonSet d : input.daemonSets()) {
            if (d.template().nodeRequirementTerms().stream().anyMatch(term -> term.compatible(t.requirements()))
                    && Toleration.firstUntolerated(d.template().tolerations(), pool.pool().template().taints()) == null) {
                out = out.plus(slot(d.template().requests()));
            }
        }
        return out;
    }

    private static Resources slot(Resources r) {
        return r.pods() > 0 ? r : new Resources(r.cpuMillis(), r.memoryBytes(), r.ephemeralBytes(), 1, r.extended());
    }

    /** Spread, anti-affinity and affinity over the new claims, each checked only where its Karpenter meaning is clear. */
    private static String constraints(SchedulingInput input, SchedulingResult res, Map<String, SchedulingResult.NodeClaimPlan> claimOf,
                                      Map<String, String> zoneOf) {
        List<Pod> placed = input.pending().stream().filter(p -> claimOf.containsKey(p.key())).toList();
        Map<Object, Map<Object, Integer>> counts = new HashMap<>(); // (selector, key) -> domain -> selected pods there
        Map<Object, Boolean> allBound = new HashMap<>();
        Map<Object, Set<String>> domains = new HashMap<>();
        for (Pod p : placed) {
            for (TopologySpread s : p.topologySpread()) {
                if (!s.doNotSchedule() || s.minDomains() != null) {
                    continue; // ScheduleAnyway bounds nothing; minDomains counts zero for missing domains: not checked here
                }
                Map<Object, Integer> count = counts(placed, s.selector(), s.topologyKey(), claimOf, zoneOf, counts);
                boolean bound = allBound.computeIfAbsent(s, k -> placed.stream().filter(q -> s.selector().matches(q.labels()))
                        .allMatch(q -> q.topologySpread().contains(s) && q.nodeRequirementTerms().equals(p.nodeRequirementTerms()))
                        && p.nodeRequirementTerms().size() == 1);
                if (!bound) {
                    // Pods the constraint does not bind count too, and pods of other node requirements (or several
                    // terms, which Karpenter relaxes one at a time) count other domains: the final skew is not bounded.
                    continue;
                }
                Object mine = domain(p, s.topologyKey(), claimOf, zoneOf);
                int here = count.getOrDefault(mine, 0);
                if (s.topologyKey().equals(WellKnownLabels.HOSTNAME)) {
                    if (here > s.maxSkew()) {
                        return "hostname spread maxSkew " + s.maxSkew() + " broken: " + here + " selected pods on claim " + mine;
                    }
                } else if (s.topologyKey().equals(WellKnownLabels.ZONE)) {
                    Set<String> ds = domains.computeIfAbsent(p.nodeRequirementTerms(), k -> zones(input, p));
                    int min = ds.stream().mapToInt(z -> count.getOrDefault(z, 0)).min().orElse(0);
                    if (here - min > s.maxSkew()) {
                        return "zonal spread maxSkew " + s.maxSkew() + " broken for " + p.key() + ": counts " + count + " over domains " + ds;
                    }
                }
            }
            for (PodAffinityTerm a : p.podAntiAffinity()) {
                Map<Object, Integer> count = counts(placed, a.selector(), a.topologyKey(), claimOf, zoneOf, counts);
                int here = count.getOrDefault(domain(p, a.topologyKey(), claimOf, zoneOf), 0) - (a.selector().matches(p.labels()) ? 1 : 0);
                if (here > 0) {
                    return "anti-affinity on " + a.topologyKey() + " broken: " + p.key() + " shares " + domain(p, a.topologyKey(), claimOf, zoneOf)
                            + " with " + here + " selected";
                }
            }
            for (PodAffinityTerm a : p.podAffinity()) {
                Map<Object, Integer> count = counts(placed, a.selector(), a.topologyKey(), claimOf, zoneOf, counts);
                int here = count.getOrDefault(domain(p, a.topologyKey(), claimOf, zoneOf), 0) - (a.selector().matches(p.labels()) ? 1 : 0);
                int matching = count.values().stream().mapToInt(Integer::intValue).sum();
                boolean bound = allBound.computeIfAbsent(a, k -> placed.stream().filter(q -> a.selector().matches(q.labels()))
                        .allMatch(q -> q.podAffinity().contains(a) && q.nodeRequirementTerms().equals(p.nodeRequirementTerms()))
                        && p.nodeRequirementTerms().size() == 1);
                // Karpenter lets a selected pod bootstrap anywhere when no selected pod is in a domain it may use, and a
                // pod the term does not bind go anywhere: only when the term binds every selected pod, all with the same
                // single node-affinity term, must they share one domain.
                if (bound && count.size() > 1) {
                    return "affinity on " + a.topologyKey() + " broken: " + p.key() + " not with the other " + (matching - 1) + " selected (the term binds all), counts " + count;
                }
            }
        }
        return null;
    }

    private static Object domain(Pod p, String key, Map<String, SchedulingResult.NodeClaimPlan> claimOf, Map<String, String> zoneOf) {
        return key.equals(WellKnownLabels.HOSTNAME) ? claimOf.get(p.key()).name() : zoneOf.get(p.key());
    }

    private static Map<Object, Integer> counts(List<Pod> placed, LabelSelector sel, String key, Map<String, SchedulingResult.NodeClaimPlan> claimOf,
                                               Map<String, String> zoneOf, Map<Object, Map<Object, Integer>> cache) {
        return cache.computeIfAbsent(List.of(sel, key), k -> {
            Map<Object, Integer> out = new HashMap<>();
            placed.stream().filter(q -> sel.matches(q.labels())).forEach(q -> out.merge(domain(q, key, claimOf, zoneOf), 1, Integer::sum));
            return out;
        });
    }

    /** The zones a pod's spread counts (nodeAffinityPolicy Honor): those of an offering the pool and the pod's requirements admit. */
    private static Set<String> zones(SchedulingInput input, Pod p) {
        Set<String> out = new HashSet<>();
        for (SchedulingInput.PoolOffer offer : input.pools()) {
          for (Requirements term : p.nodeRequirementTerms()) {
            Requirements reqs = offer.requirements().intersect(term);
            for (InstanceType t : offer.instanceTypes()) {
                if (reqs.compatible(t.requirements())) {
                    t.offerings().stream().filter(o -> o.available() && offeringMatches(reqs, o)).forEach(o -> out.add(o.zone()));
                }
            }
          }
        }
        return out;
    }
}
