package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One NodePool during a solve: its requirements and taints, the instance types it may launch (already filtered by its
 * requirements), the DaemonSet overhead per type, and its limits with what is committed against them.
 */
final class PoolContext {
    final SchedulingInput.PoolOffer offer;
    final NodePool pool;
    final Requirements requirements;
    /** The requirements a DaemonSet sees on the pool's nodes: the pool's, plus the registered and initialized labels. */
    private final Requirements daemonView;
    final List<Taint> taints;
    /** Types compatible with the pool's requirements that have at least one available offering. */
    final List<InstanceType> types;
    private final Map<InstanceType, Resources> daemonOverhead = new IdentityHashMap<>();
    /** Host ports the DaemonSets bind on a node of each type (only types where some DaemonSet binds one). */
    private final Map<InstanceType, List<dev.gantry.core.model.HostPort>> daemonPorts = new IdentityHashMap<>();
    private final Map<InstanceType, Resources> room = new IdentityHashMap<>();
    /** Per requirement set, each pool type's place in {@link #typesFor} (-1 when excluded); kept by {@link ClaimFitting}. */
    final Map<Requirements, ClaimFitting.Ranks> typeRanks = new java.util.HashMap<>();
    /** Per label key and allowed set, the values the pool's types can take (kept by {@link Claim#domains}). */
    final Map<List<Object>, Set<String>> typeDomains = new java.util.HashMap<>();
    /** Options lists and fits the pool's claims share (kept by {@link ClaimFitting} and {@link Claim#rightSize}). */
    final SharedOptions sharedOptions = new SharedOptions();
    private Resources maxRoom;
    private Resources[] typeRooms;
    /**
     * Each limited resource's ceiling, by name, in {@link Resources} units. A map rather than a {@link Resources}, whose
     * {@code asMap()} leaves out zero amounts: a limit of 0 is a hard zero (Karpenter's way to turn a pool off), not "unset".
     */
    private final Map<String, Long> limits;
    private final Long nodeLimit;
    /** Usage of existing capacity plus the worst case of every claim opened this solve. */
    Resources committed;
    /** What the claims opened this solve are expected to launch (each its cheapest option's capacity). */
    Resources expectedNew = Resources.ZERO;
    int nodes;

    PoolContext(SchedulingInput.PoolOffer offer, List<DaemonSet> daemonSets) {
        this.offer = offer;
        this.pool = offer.pool();
        this.requirements = pool.requirements();
        this.taints = pool.template().taints();
        this.types = offer.types().pool();
        // Every node of the pool is registered and initialized while its DaemonSets run, so a DaemonSet that requires
        // those labels lands there too (Karpenter issue #2116, fixed in its NodeClaimTemplate the same way).
        this.daemonView = requirements.with(dev.gantry.core.model.Node.REGISTERED_LABEL, dev.gantry.core.requirements.ValueSet.in("true"))
                .with(dev.gantry.core.model.Node.INITIALIZED_LABEL, dev.gantry.core.requirements.ValueSet.in("true"));
        List<Pod> daemons = new ArrayList<>();
        for (DaemonSet ds : daemonSets) {
            Pod p = ds.template();
            if (Toleration.firstUntolerated(p.tolerations(), taints) == null && p.nodeRequirementTerms().stream().anyMatch(this::couldHold)) {
                daemons.add(p);
            }
        }
        for (InstanceType t : types) {
            Resources r = Resources.ZERO;
            List<dev.gantry.core.model.HostPort> ports = new ArrayList<>();
            for (Pod d : daemons) {
                if (d.nodeRequirementTerms().stream().anyMatch(term -> term.compatible(t.requirements()))) {
                    r = r.plus(d.requests());
                    ports.addAll(d.hostPorts());
                }
            }
            daemonOverhead.put(t, r);
            if (!ports.isEmpty()) {
                daemonPorts.put(t, List.copyOf(ports));
            }
        }
        Map<String, Quantity> l = new java.util.HashMap<>(pool.limits());
        Quantity n = l.remove("nodes");
        this.nodeLimit = n == null ? null : n.toUnits();
        Resources ceiling = Resources.fromQuantities(l);
        Map<String, Long> named = new java.util.LinkedHashMap<>();
        // Core resources first, then extended ones by name: the order a limit reason is looked for in.
        List<String> order = new ArrayList<>(List.of(Resources.CPU, Resources.MEMORY, Resources.EPHEMERAL_STORAGE, Resources.PODS));
        l.keySet().stream().filter(k -> !order.contains(k)).sorted().forEach(order::add);
        order.stream().filter(l::containsKey).forEach(k -> named.put(k, ceiling.get(k)));
        this.limits = named.isEmpty() ? null : named;
        this.committed = offer.usage();
        this.nodes = offer.nodeCount();
    }

    /**
     * Whether a node of this pool could satisfy a DaemonSet's node-affinity term: compatible with the pool, and every
     * label the term needs present is one the pool sets or every instance type carries (a custom label the pool does
     * not set will be absent from its nodes).
     */
    private boolean couldHold(Requirements term) {
        return couldMatch(daemonView, term);
    }

    /**
     * Whether a node launched under {@code have} could satisfy {@code term}: compatible, and every label the term needs
     * present is one {@code have} constrains or a well-known label every instance type carries (a custom label nothing
     * sets will be absent from the node).
     */
    static boolean couldMatch(Requirements have, Requirements term) {
        if (!have.compatible(term)) {
            return false;
        }
        for (String key : term.keys()) {
            if (!have.has(key) && !WellKnownLabels.WELL_KNOWN.contains(key) && !term.get(key).has(null)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #room} of each of the pool's {@link #types}, in their order (the claims' fit loop reads it by index). */
    Resources[] typeRooms() {
        if (typeRooms == null) {
            typeRooms = rooms(types);
        }
        return typeRooms;
    }

    /** {@link #room} of each of {@code list}, in its order. */
    Resources[] rooms(List<InstanceType> list) {
        Resources[] out = new Resources[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = room(list.get(i));
        }
        return out;
    }

    /** Component-wise the most room any of the pool's types has: a cheap first test for a pod. */
    Resources maxRoom() {
        if (maxRoom == null) {
            Resources r = Resources.ZERO;
            for (InstanceType t : types) {
                r = r.max(room(t));
            }
            maxRoom = r;
        }
        return maxRoom;
    }

    /** The pool's types compatible with {@code reqs} that have an allowed offering, cheapest first; shared across solves. */
    List<InstanceType> typesFor(Requirements reqs) {
        return offer.types().launchable(reqs);
    }

    /** The pool's types compatible with {@code reqs}, in the pool's order, offerings aside; shared across solves. */
    List<InstanceType> compatibleTypes(Requirements reqs) {
        return offer.types().compatible(reqs);
    }

    /** What pods may use on a node of this type once the DaemonSets are there. */
    Resources room(InstanceType t) {
        return room.computeIfAbsent(t, x -> x.allocatable().minus(daemonOverhead(x)));
    }

    Resources daemonOverhead(InstanceType t) {
        return daemonOverhead.getOrDefault(t, Resources.ZERO);
    }

    /** Whether a DaemonSet on a node of this type binds a host port one of {@code wanted} conflicts with. */
    boolean daemonPortConflict(InstanceType t, List<dev.gantry.core.model.HostPort> wanted) {
        List<dev.gantry.core.model.HostPort> bound = daemonPorts.get(t);
        if (bound == null) {
            return false;
        }
        for (dev.gantry.core.model.HostPort w : wanted) {
            for (dev.gantry.core.model.HostPort b : bound) {
                if (w.conflictsWith(b)) {
                    return true;
                }
            }
        }
        return false;
    }

    boolean hasLimits() {
        return limits != null;
    }

    boolean hasNodeLimit() {
        return nodeLimit != null;
    }

    /** Whether one more node is allowed by a {@code nodes} limit. */
    boolean nodeAllowed() {
        return nodeLimit == null || nodes < nodeLimit;
    }

    /** Whether a node of this capacity fits the limits, given {@code reservedByClaim} already counted for the same claim. */
    boolean withinLimits(Resources capacity, Resources reservedByClaim) {
        if (limits == null) {
            return true;
        }
        Resources after = committed.minus(reservedByClaim).plus(capacity);
        for (var e : limits.entrySet()) {
            if (after.get(e.getKey()) > e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code capacity} is at most {@code bound} in every resource the pool limits. */
    boolean noLargerInLimits(Resources capacity, Resources bound) {
        if (limits == null) {
            return true;
        }
        for (String r : limits.keySet()) {
            if (capacity.get(r) > bound.get(r)) {
                return false;
            }
        }
        return true;
    }

    /** The first limited resource a node of this capacity would push over its limit, or null. */
    String exceededResource(Resources capacity, Resources reservedByClaim) {
        if (limits == null) {
            return null;
        }
        Resources after = committed.minus(reservedByClaim).plus(capacity);
        for (var e : limits.entrySet()) {
            if (after.get(e.getKey()) > e.getValue()) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The pool's limit on {@code resource}, in {@link Resources} units (only for a limited resource). */
    long limit(String resource) {
        return limits.get(resource);
    }

    String name() {
        return pool.name();
    }
}
