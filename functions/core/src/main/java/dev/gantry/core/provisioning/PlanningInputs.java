package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.ClaimsByNode;
import dev.gantry.core.lifecycle.LostCommands;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a cluster view, the store's claims and unavailable offerings, and the configuration into the scheduler's
 * input: the pending pods and the pods of the nodes that are leaving ({@link LeavingNodes}), planned onto the nodes that
 * stay, the claims in flight and new claims. Pure: no port is called except the instance type provider, which is a
 * cache.
 */
final class PlanningInputs {
    private final GantryConfig config;
    private final PriceView prices;

    PlanningInputs(GantryConfig config, InstanceTypeProvider provider) {
        this.config = config;
        this.prices = new PriceView(config, provider);
    }

    /** @param now when the plan is made (a {@code do-not-disrupt} duration is counted up to it) */
    SchedulingInput build(ClusterView view, List<NodeClaim> claims, Set<OfferingKey> unavailable, Instant now) {
        List<SchedulingInput.InFlightClaim> inFlight = new ArrayList<>();
        Map<String, Resources> usage = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (Node n : view.nodes()) {
            String pool = n.labels().get(WellKnownLabels.NODEPOOL);
            if (pool != null) {
                // Limits are on capacity, as Karpenter counts them; allocatable only when the type is unknown.
                usage.merge(pool, capacityOf(pool, n.labels().get(WellKnownLabels.INSTANCE_TYPE)).orElse(n.allocatable()), Resources::plus);
                count.merge(pool, 1, Integer::sum);
            }
        }
        Map<String, NodeClaim> claimsByNode = claimsByNode(claims, view.nodes());
        LostCommands lost = LostCommands.among(claims);
        Set<String> leaving = LeavingNodes.of(view.nodes(), claimsByNode, lost);
        Map<String, Pod> leavingPods = new java.util.LinkedHashMap<>();
        Set<String> drainWaits = new HashSet<>();
        for (LeavingNodes.Leaving l : LeavingNodes.pods(view, leaving, claimsByNode, now)) {
            leavingPods.put(l.pod().key(), l.pod());
            if (l.drainWaits()) {
                drainWaits.add(l.pod().key());
            }
        }
        for (NodeClaim c : view.inFlight(claims)) {
            Optional<NodePool> pool = config.nodePool(c.nodePool());
            if (pool.isEmpty() || (lost.contains(c) && c.state() == NodeClaimState.Launching)) {
                continue; // its pool is gone, or it is never launched (its command is lost): nothing to count or plan on
            }
            // What the pool owns counts against its limits, also a claim whose type its types no longer list.
            usage.merge(c.nodePool(), capacityOf(c.nodePool(), c.instanceType()).orElse(Resources.ZERO), Resources::plus);
            count.merge(c.nodePool(), 1, Integer::sum);
            Optional<InstanceType> type = typeOf(pool.get(), c.instanceType(), Set.of());
            // Nothing is planned onto a claim whose type is gone from the pool's types, nor onto a replacement of a lost
            // command (it is terminated when the command is aborted).
            if (type.isPresent() && !lost.contains(c)) {
                inFlight.add(inFlightClaim(c, pool.get(), type.get(), view.daemonSets(), leavingPods));
            }
        }
        List<SchedulingInput.PoolOffer> pools = new ArrayList<>();
        for (NodePool p : config.nodePools()) {
            Optional<NodeClass> nc = config.nodeClassOf(p);
            if (nc.isPresent()) {
                pools.add(new SchedulingInput.PoolOffer(p, types(p, unavailable),
                        usage.getOrDefault(p.name(), Resources.ZERO), count.getOrDefault(p.name(), 0)));
            }
        }
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (SchedulingInput.ExistingNode e : view.existingNodes(leaving)) {
            Node n = withInstanceLabels(e.node(), claimsByNode);
            if (lost.contains(claimsByNode.get(n.name()))) {
                n = n.undisrupted(); // a lost command's candidate: untainted when the command is aborted
            }
            nodes.add(new SchedulingInput.ExistingNode(n, withKept(n, e.pods(), claimsByNode.get(n.name()), view.daemonSets(),
                    leavingPods)));
        }
        List<Pod> pods = new ArrayList<>(view.pending());
        // Those no claim was recorded for: planned as pending pods are, except that a waiting drain's pods never go into
        // another claim's spare room in flight, which the drain would not know to wait for (LeavingNodes).
        List<String> inFlightNames = inFlight.stream().map(SchedulingInput.InFlightClaim::name).toList();
        leavingPods.values().forEach(p -> pods.add(drainWaits.contains(p.key()) ? p.avoiding(inFlightNames) : p));
        return new SchedulingInput(pods, nodes, inFlight, view.daemonSets(), pools, view.namespaceLabels());
    }

    /** The names of the nodes that are leaving ({@link LeavingNodes#of}), as {@link #build} plans them. */
    static Set<String> leaving(ClusterView view, List<NodeClaim> claims) {
        return LeavingNodes.of(view.nodes(), claimsByNode(claims, view.nodes()), LostCommands.among(claims));
    }

    /**
     * A node of ours as it will be labelled ({@link ClaimLabels#node}, its own labels winning): the cloud controller
     * sets its instance type at registration, and the sweep adds the type's {@code karpenter.k8s.aws/instance-*}
     * labels within a minute. Planning with the labels it will carry keeps a just-registered node from looking
     * unsuitable (and more capacity from being launched).
     */
    private Node withInstanceLabels(Node n, Map<String, NodeClaim> claimsByNode) {
        String poolName = n.labels().get(WellKnownLabels.NODEPOOL);
        String typeName = n.labels().get(WellKnownLabels.INSTANCE_TYPE);
        if (poolName == null || typeName == null) {
            return n;
        }
        Optional<NodePool> pool = config.nodePool(poolName);
        Optional<InstanceType> type = pool.flatMap(p -> typeOf(p, typeName, Set.of()));
        if (type.isEmpty()) {
            return n;
        }
        NodeClaim claim = claimsByNode.get(n.name());
        Requirements reqs = claim == null ? pool.get().requirements() : Requirements.of(claim.requirements());
        Map<String, String> labels = ClaimLabels.node(pool.get(), reqs, type.get(), n.labels().get(WellKnownLabels.ZONE),
                n.labels().get(WellKnownLabels.CAPACITY_TYPE), n.name());
        labels.putAll(n.labels());
        if (labels.equals(n.labels())) {
            return n;
        }
        return new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), n.ready(),
                n.unschedulable(), n.deleting(), n.createdAt(), n.finalizers(), n.deletionTimestamp(), n.conditions());
    }

    /** Each node's claim, by node name: {@link ClaimsByNode}'s rule. */
    static Map<String, NodeClaim> claimsByNode(List<NodeClaim> claims, List<Node> nodes) {
        return new ClaimsByNode(claims).byNode(nodes);
    }

    /** The pool's instance types with the given offerings marked unavailable; empty without a NodeClass. */
    List<InstanceType> types(NodePool pool, Set<OfferingKey> unavailable) {
        List<InstanceType> all = prices.types(pool);
        if (unavailable.isEmpty()) {
            return all;
        }
        Set<String> touched = new HashSet<>();
        unavailable.forEach(k -> touched.add(k.instanceType()));
        List<InstanceType> out = new ArrayList<>(all.size());
        for (InstanceType t : all) {
            out.add(touched.contains(t.name()) ? markUnavailable(t, unavailable) : t);
        }
        return out;
    }

    private static InstanceType markUnavailable(InstanceType t, Set<OfferingKey> unavailable) {
        return t.withUnavailable(o -> unavailable.contains(new OfferingKey(t.name(), o.zone(), o.capacityType())));
    }

    private Optional<InstanceType> typeOf(NodePool pool, String name, Set<OfferingKey> unavailable) {
        return types(pool, unavailable).stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /**
     * The capacity a pool's node or claim of this type counts against the pool's limits: the type's in the pool's types,
     * else in another pool's (its NodeClass no longer lists it, say); empty if no pool knows the type.
     */
    private Optional<Resources> capacityOf(String pool, String type) {
        Optional<InstanceType> own = config.nodePool(pool).flatMap(p -> typeOf(p, type, Set.of()));
        if (own.isPresent() || type == null) {
            return own.map(InstanceType::capacity);
        }
        return config.nodePools().stream().flatMap(p -> typeOf(p, type, Set.of()).stream()).findFirst().map(InstanceType::capacity);
    }

    /**
     * An in-flight claim as the scheduler sees it: the labels its node will carry ({@link ClaimLabels#node}, from the
     * requirements it was recorded with), the room left after the DaemonSet pods that will land there, and the pods of
     * leaving nodes it was recorded for ({@link #kept}). Pending pods nominated earlier are planned again
     * (kube-scheduler binds whichever pod is pending when the node is Ready), so none of them is bound to it here.
     */
    private static SchedulingInput.InFlightClaim inFlightClaim(NodeClaim c, NodePool pool, InstanceType type,
                                                               List<DaemonSet> daemonSets, Map<String, Pod> leavingPods) {
        Map<String, String> labels = ClaimLabels.node(pool, Requirements.of(c.requirements()), type, c.zone(),
                c.capacityType(), c.name());
        Resources free = type.allocatable().minus(daemonOverhead(pool, labels, daemonSets));
        return new SchedulingInput.InFlightClaim(c.name(), pool.name(), labels, pool.template().taints(), free,
                kept(c, free, leavingPods));
    }

    /**
     * A node that stays, with the pods of leaving nodes its claim was recorded for added to its pods ({@link #kept}),
     * in the room its pods, and its DaemonSets' pods while they have not landed yet, leave.
     */
    private List<Pod> withKept(Node n, List<Pod> pods, NodeClaim claim, List<DaemonSet> daemonSets,
                               Map<String, Pod> leavingPods) {
        if (claim == null || leavingPods.isEmpty() || claim.pods().stream().noneMatch(leavingPods::containsKey)) {
            return pods;
        }
        Optional<NodePool> pool = config.nodePool(claim.nodePool());
        Resources room = n.allocatable();
        if (room.cpuMillis() == 0 && pool.isPresent()) {
            room = typeOf(pool.get(), n.labels().get(WellKnownLabels.INSTANCE_TYPE), Set.of()).map(InstanceType::allocatable)
                    .orElse(room); // not reported yet: the type's, as the scheduler fills it
        }
        if (pool.isPresent() && pods.stream().noneMatch(Pod::isDaemon)) {
            room = room.minus(daemonOverhead(pool.get(), n.labels(), daemonSets)); // its DaemonSets' pods are still to come
        }
        for (Pod p : pods) {
            room = room.minus(p.requests());
        }
        List<Pod> kept = kept(claim, room, leavingPods);
        if (kept.isEmpty()) {
            return pods;
        }
        List<Pod> out = new ArrayList<>(pods);
        out.addAll(kept);
        return out;
    }

    /**
     * The pods of leaving nodes that {@code claim} was recorded for (its pods, by key), as many as fit in {@code free},
     * taken out of {@code leavingPods}: they stay with the capacity launched for them rather than being planned again,
     * so a later plan does not move them onto another claim, and their drain waits for the claim that carries them.
     */
    private static List<Pod> kept(NodeClaim claim, Resources free, Map<String, Pod> leavingPods) {
        List<Pod> kept = new ArrayList<>();
        for (String key : claim.pods()) {
            Pod p = leavingPods.get(key);
            if (p != null && p.requests().fitsIn(free)) {
                kept.add(leavingPods.remove(key));
                free = free.minus(p.requests());
            }
        }
        return kept;
    }

    /** What the pool's DaemonSets' pods request on a node of these labels (those that tolerate its taints). */
    private static Resources daemonOverhead(NodePool pool, Map<String, String> labels, List<DaemonSet> daemonSets) {
        Resources daemons = Resources.ZERO;
        for (DaemonSet ds : daemonSets) {
            Pod d = ds.template();
            if (Toleration.firstUntolerated(d.tolerations(), pool.template().taints()) == null
                    && d.nodeRequirementTerms().stream().anyMatch(term -> term.matches(labels))) {
                daemons = daemons.plus(d.requests());
            }
        }
        return daemons;
    }
}
