package dev.gantry.simulator;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.LowerBound;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What is checked and measured after every step: the invariants, the cost rates (actual and the fractional lower
 * bound), recoveries after an outage, and the chart samples.
 */
final class Checks {
    private final Simulation sim;
    private Resources boundDemand;
    private double lowerBound;
    private Instant recoveringSince;
    private final java.util.Set<String> open = new java.util.HashSet<>();

    Checks(Simulation sim) {
        this.sim = sim;
    }

    void outage(Instant at) {
        recoveringSince = at;
    }

    void step(long step) {
        Instant now = sim.clock.instant();
        sim.invariants.at(step, sim.t());
        List<SimInstance> live = sim.liveInstances();
        sim.recorder.rates(now, live.stream().mapToDouble(SimInstance::pricePerHour).sum(), lowerBound(), live.size());
        limits(live);
        duplicates(live);
        if (sim.observers.clusterChanged) {
            sim.observers.clusterChanged = false;
            compatibility();
        }
        // Every step while recovering: the binding that completes a recovery does not mark the cluster changed, and
        // waiting for the next change measured recoveries by whatever happened next (found when fewer spare nodes
        // were launched and nothing else changed for 20 minutes).
        if (recoveringSince != null) {
            recovery(now);
        }
    }

    /** Each pool's launched capacity (every live instance's, registered or not) within its limits. */
    private void limits(List<SimInstance> live) {
        Map<String, Resources> used = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (SimInstance i : live) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            used.merge(pool, i.type().capacity(), Resources::plus);
            count.merge(pool, 1, Integer::sum);
        }
        used.forEach((pool, r) -> {
            NodePool p = sim.pools.get(pool);
            if (p == null) {
                return;
            }
            p.limits().forEach((resource, limit) -> {
                long have;
                long max;
                switch (resource) {
                    case "nodes" -> { have = count.get(pool); max = limit.toUnits(); }
                    case Resources.CPU -> { have = r.cpuMillis(); max = limit.toMillis(); }
                    default -> { have = r.get(resource); max = limit.toUnits(); }
                }
                episode(have > max, "limitExceeded", pool + "/" + resource, () -> "NodePool " + pool + " has "
                        + format(resource, have) + " of " + resource + " launched, over its limit of " + limit);
            });
        });
    }

    /**
     * Counts a violation once per episode: when {@code bad} first holds for {@code key}, not on every step it lasts.
     */
    private void episode(boolean bad, String kind, String key, java.util.function.Supplier<String> message) {
        String k = kind + " " + key;
        if (bad && open.add(k)) {
            sim.invariants.violated(kind, message.get());
        } else if (!bad) {
            open.remove(k);
        }
    }

    private static String format(String resource, long v) {
        return resource.equals(Resources.CPU) ? Quantity.ofMillis(v) + "" : Long.toString(v);
    }

    private void duplicates(List<SimInstance> live) {
        Map<String, Integer> perClaim = new HashMap<>();
        live.forEach(i -> perClaim.merge(i.tags().get(CloudInstance.TAG_NODECLAIM), 1, Integer::sum));
        perClaim.forEach((claim, n) -> episode(n > 1, "duplicateLaunches", claim,
                () -> n + " live instances for nodeclaim/" + claim));
    }

    /** Every bound pod's node still satisfies its node selector and required affinity. */
    private void compatibility() {
        Map<String, Node> nodes = new HashMap<>();
        sim.cluster.nodes().forEach(n -> nodes.put(n.name(), n));
        for (Pod p : sim.cluster.pods()) {
            Node n = p.isBound() ? nodes.get(p.nodeName()) : null;
            boolean bad = n != null && !p.isDaemon() && p.nodeRequirementTerms().stream().noneMatch(t -> t.matches(n.labels()));
            episode(bad, "podsOnIncompatibleNodes", p.uid(), () -> "pod " + p.key() + " runs on " + n.name()
                    + ", whose labels do not satisfy its node affinity");
        }
    }

    /**
     * After an outage: the first step at which every replica of every Deployment runs on a Ready node whose instance is
     * alive (pods still bound to dead nodes do not count).
     */
    private void recovery(Instant now) {
        if (recoveringSince == null || sim.pendingPods() > 0) {
            return;
        }
        java.util.Set<String> healthyNodes = new java.util.HashSet<>();
        for (SimInstance i : sim.liveInstances()) {
            Node n = sim.cluster.node(i.dnsName());
            if (n != null && n.ready() && !n.deleting()) {
                healthyNodes.add(n.name());
            }
        }
        for (Workloads.Deployment d : sim.workloads.deployments().values()) {
            long have = sim.cluster.pods().stream().filter(p -> p.namespace().equals(d.namespace) && d.name.equals(p.ownerName())
                    && p.isBound() && healthyNodes.contains(p.nodeName())).count();
            if (have < d.replicas) {
                return;
            }
        }
        sim.recorder.recoveries.add(new long[] {sim.recorder.secondsSinceStart(recoveringSince),
                Duration.between(recoveringSince, now).toSeconds()});
        sim.recorder.log(now, "recovered", "every pod is scheduled again, "
                + Duration.between(recoveringSince, now).toSeconds() + " s after the outage");
        recoveringSince = null;
    }

    /** The fractional lower bound on $/h for the pods that exist now, in the cheapest pool (recomputed when they change). */
    private double lowerBound() {
        Resources demand = Resources.ZERO;
        for (Pod p : sim.cluster.pods()) {
            if (!p.isDaemon() && !p.status().isTerminal()) {
                demand = demand.plus(p.requests());
            }
        }
        if (demand.equals(boundDemand)) {
            return lowerBound;
        }
        boundDemand = demand;
        double best = Double.POSITIVE_INFINITY;
        for (NodePool pool : sim.config.nodePools()) {
            NodeClass nc = sim.config.nodeClassOf(pool).orElse(null);
            if (nc == null) {
                continue;
            }
            List<InstanceType> types = sim.catalog.instanceTypes(nc).stream()
                    .filter(t -> pool.requirements().compatible(t.requirements())).toList();
            double b = LowerBound.of(demand, types, pool.requirements(), t -> Resources.ZERO);
            if (b > 0) {
                best = Math.min(best, b);
            }
        }
        lowerBound = best == Double.POSITIVE_INFINITY ? 0 : best;
        return lowerBound;
    }

    void sample() {
        Map<String, Integer> byType = new TreeMap<>();
        for (SimInstance i : sim.liveInstances()) {
            byType.merge(i.type().name(), 1, Integer::sum);
        }
        sim.recorder.sample(sim.clock.instant(), byType, sim.pendingPods());
    }

    /** The end-of-run invariant: no instance of this cluster is left running without a live claim. */
    void atEnd() {
        Instant now = sim.clock.instant();
        sim.invariants.at(sim.loop.steps(), sim.t());
        step(sim.loop.steps());
        for (SimInstance i : sim.liveInstances()) {
            NodeClaim c = sim.store.findByInstanceId(i.id(), now).orElse(null);
            boolean young = now.isBefore(i.launchTime().plus(Duration.ofSeconds(30)));
            if (!young && (c == null || c.state() == NodeClaimState.Terminated)) {
                sim.invariants.violated("orphanInstancesAtEnd", i.id() + " (" + i.type().name() + ") runs without a live nodeclaim");
            }
        }
    }
}
