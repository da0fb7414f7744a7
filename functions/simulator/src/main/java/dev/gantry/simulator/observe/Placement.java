package dev.gantry.simulator.observe;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.simulator.world.aws.SimulatedCloud;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.simulator.world.kube.ApiServer;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.provisioning.GantryConfig;
import java.util.function.Supplier;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The invariant <b>podsNotPlacedInTime</b>: every pod is bound within its {@link Allowance} of its capacity becoming
 * available, that is one boot ({@link #BOOT}: EC2 start, kubelet registration, Ready) plus one provisioning batch
 * window plus one sweep interval plus {@link #SLACK}.
 *
 * <p>"Its capacity becoming available" is the latest of: the pod's creation; the end of an EC2 fault window
 * (insufficient capacity or throttling) or of an API-server outage; and, when a pool has limits, the end of one of its
 * instances (capacity under the limit came free). While EC2 is throttling or the API server is down, no capacity is
 * available. An offering EC2 answered insufficient capacity for (an injected ICE, or one inside a fault window) is
 * not available for {@link #ICE_CACHE_TTL} after that answer: that ICE is all the autoscaler learns, and Karpenter's
 * reference behaviour is to leave the offering out of its plans for that long (re-planning at once onto the pool's
 * other offerings, which stay available here, so a pod that fits one of them is still due). A pod still pending after
 * its time is up ({@link #late}: strictly after, since a pod bound at its deadline by a later step of the same instant
 * is in time) is checked once: if it fits somewhere now (an existing Ready node, or a new node of some pool from
 * offerings neither under an insufficient-capacity fault nor recently answered ICE, within the pool's limits,
 * as the core scheduler plans it with every overdue pod together) it is a violation; if it fits nowhere (too big,
 * limits, every offering unavailable, a constraint nothing satisfies) it is checked again every {@link #RECHECK},
 * and its time starts again at the first check that finds it placeable.
 */
public final class Placement {
    static final Duration BOOT = Duration.ofSeconds(60);
    static final Duration SLACK = Duration.ofSeconds(30);
    static final Duration RECHECK = Duration.ofSeconds(15);
    /**
     * How long an offering EC2 answered insufficient capacity for stays out of the capacity a pod may count on: the
     * TTL of Karpenter's unavailable-offerings cache ({@code UnavailableOfferingsTTL} in aws/karpenter-provider-aws
     * {@code pkg/cache/unavailableofferings.go}), a literal here rather than Gantry's own constant, so that a longer
     * mark in Gantry is still caught.
     */
    static final Duration ICE_CACHE_TTL = Duration.ofMinutes(3);

    /**
     * A pending pod and when it is next looked at; {@code from} null while it was last found to fit nowhere, else when
     * its capacity became available, {@code since} saying why then.
     */
    private record Watch(String key, String uid, Instant due, Instant from, String since) {
    }

    /** How long a pod may wait for its capacity: one boot, the provisioning {@code batch} window, one {@code sweep} and the slack. */
    public record Allowance(Duration batch, Duration sweep) {
        public Duration total() {
            return BOOT.plus(batch).plus(sweep).plus(SLACK);
        }
    }

    private final InMemoryCluster cluster;
    private final ApiServer api;
    private final SimulatedCloud cloud;
    private final Supplier<List<SimulatedInstance>> liveInstances;
    /** The configuration Gantry runs with now (it follows the cluster's NodePools). */
    private final Supplier<GantryConfig> config;
    private final Catalog catalog;
    private final Instant start;
    private final Allowance allowance;
    private final PriorityQueue<Watch> watches = new PriorityQueue<>((a, b) -> {
        int c = a.due().compareTo(b.due());
        return c != 0 ? c : a.key().compareTo(b.key());
    });
    private Instant capacityEvent = Instant.MIN;
    private String capacityCause = "";
    private boolean unavailable;

    /**
     * Judges the pods of {@code cluster} against the capacity EC2 ({@code cloud}, its {@code liveInstances}) and the
     * pools ({@code config}, priced from {@code catalog}) could give them; times in messages count from {@code start}.
     */
    public Placement(InMemoryCluster cluster, ApiServer api, SimulatedCloud cloud, Supplier<List<SimulatedInstance>> liveInstances,
              Supplier<GantryConfig> config, Catalog catalog, Instant start, Allowance allowance) {
        this.cluster = cluster;
        this.api = api;
        this.cloud = cloud;
        this.liveInstances = liveInstances;
        this.config = config;
        this.catalog = catalog;
        this.start = start;
        this.allowance = allowance;
    }

    private Duration allowed() {
        return allowance.total();
    }

    /** A pod was created pending. */
    public void created(Pod p, Instant now) {
        watches.add(new Watch(p.key(), p.uid(), now.plus(allowed()), now, "its creation"));
    }

    /** Capacity may have come free now (an instance of a pool with limits ended). */
    void capacityFreed(Instant now) {
        capacityEvent = now;
        capacityCause = "an instance of a pool with limits ended";
    }

    void check(Instant now, Checks.Episodes episodes) {
        boolean down = api.isDown() || cloud.faults().throttling(now);
        Instant faultEnded = cloud.faults().lastEnded(now);
        if (faultEnded.isAfter(capacityEvent)) {
            capacityEvent = faultEnded;
            capacityCause = "an EC2 fault window ended";
        }
        if (down) {
            unavailable = true;
            return; // nothing is due while no capacity can be had; when it returns, every clock starts from then
        }
        if (unavailable) {
            unavailable = false;
            capacityEvent = now;
            capacityCause = "EC2 and the API server answered again";
        }
        // Strictly after the deadline: a pod bound at its deadline, by a step later in the same instant, is in time.
        if (watches.isEmpty() || !late(watches.peek().due(), now)) {
            return;
        }
        List<Watch> overdue = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        while (!watches.isEmpty() && late(watches.peek().due(), now)) {
            Watch w = watches.poll();
            Pod p = cluster.pod(w.key());
            if (p == null || !p.uid().equals(w.uid()) || p.isBound() || p.status().isTerminal() || p.status().deletingSince() != null) {
                continue;
            }
            boolean later = w.from() != null && capacityEvent.isAfter(w.from());
            Instant from = w.from() == null ? null : later ? capacityEvent : w.from();
            if (from != null && !late(from.plus(allowed()), now)) {
                // capacity came later than it thought
                watches.add(new Watch(w.key(), w.uid(), from.plus(allowed()), from, later ? capacityCause : w.since()));
                continue;
            }
            overdue.add(w);
            pods.add(p);
        }
        if (pods.isEmpty()) {
            return;
        }
        Set<String> placeable = placeable(pods, now);
        for (int i = 0; i < overdue.size(); i++) {
            Watch w = overdue.get(i);
            Pod p = pods.get(i);
            if (placeable.contains(p.key()) && w.from() != null) {
                episodes.violated("podsNotPlacedInTime", message(p, w.from(), w.since(), start, now, allowance));
            } else if (placeable.contains(p.key())) {
                watches.add(new Watch(w.key(), w.uid(), now.plus(allowed()), now, "a check found it placeable")); // fits from now on
            } else {
                watches.add(new Watch(w.key(), w.uid(), now.plus(RECHECK), null, null));
            }
        }
    }

    /** Whether {@code now} is past {@code deadline}: a pod still pending at its deadline itself is not yet late. */
    public static boolean late(Instant deadline, Instant now) {
        return now.isAfter(deadline);
    }

    /**
     * The violation, with enough to check it by hand: how long the pod has waited to the millisecond (in whole
     * seconds a wait of 151.4 s would read "151 s ... (allowed 151 s)"), from when and why then, and what the allowance is made of.
     */
    public static String message(Pod p, Instant from, String since, Instant start, Instant now, Allowance allowance) {
        long waitedMs = Duration.between(from, now).toMillis();
        return String.format("pod %s fits (%s) but is still pending %.1f s after its capacity became available at %s "
                        + "(%s; now %s); allowed %d s: boot %d s + batch %d s + sweep %d s + slack %d s", p.key(), p.requests(),
                waitedMs / 1000.0, VirtualClock.format(Duration.between(start, from).toSeconds()), since,
                VirtualClock.format(Duration.between(start, now).toSeconds()), allowance.total().toSeconds(), BOOT.toSeconds(),
                allowance.batch().toSeconds(), allowance.sweep().toSeconds(), SLACK.toSeconds());
    }

    /** Which of these pods the core scheduler places now, on Ready nodes or new capacity the pools may launch. */
    private Set<String> placeable(List<Pod> pods, Instant now) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : cluster.pods()) {
            if (p.isBound()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            if (n.ready() && !n.deleting() && !n.unschedulable()) {
                nodes.add(new SchedulingInput.ExistingNode(n, byNode.getOrDefault(n.name(), List.of())));
            }
        }
        Map<String, Resources> usage = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (SimulatedInstance i : liveInstances.get()) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            usage.merge(pool, i.type().capacity(), Resources::plus);
            count.merge(pool, 1, Integer::sum);
        }
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        GantryConfig config = this.config.get();
        for (NodePool pool : config.nodePools()) {
            NodeClass nc = config.nodeClassOf(pool).orElse(null);
            if (nc != null) {
                List<InstanceType> types = new ArrayList<>();
                for (InstanceType t : new dev.gantry.core.provisioning.PriceView(config, catalog).types(pool)) {
                    types.add(t.withUnavailable(o -> cloud.faults().noCapacity(t.name(), o.zone(), o.capacityType(), now)
                            || cloud.answeredIceWithin(t.name(), o.zone(), o.capacityType(), ICE_CACHE_TTL, now)));
                }
                offers.add(new SchedulingInput.PoolOffer(pool, types, usage.getOrDefault(pool.name(), Resources.ZERO),
                        count.getOrDefault(pool.name(), 0)));
            }
        }
        SchedulingInput in = new SchedulingInput(pods, nodes, List.of(), cluster.daemonSets(), offers, cluster.namespaceLabels());
        // A pool's dollar limit holds pods back as the provisioner's does (core.capacity.CostLimit, one rule).
        SchedulingResult r = dev.gantry.core.capacity.CostLimit.apply(Scheduler.solve(in), in);
        Set<String> out = new HashSet<>();
        r.existingNodes().values().forEach(l -> l.forEach(p -> out.add(p.key())));
        r.newClaims().forEach(c -> c.pods().forEach(p -> out.add(p.key())));
        return out;
    }
}
