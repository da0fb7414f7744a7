package dev.gantry.cli.consolidate;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.provisioning.ClusterView;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.LowerBound;
import dev.gantry.core.scheduling.PackingBound;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How cheap the pods on each pool's nodes could be at best, per pool and summed: the LP bound (a fractional cover of
 * their cpu, memory and pod slots by the pool's types) and the packing bound (pods are whole, nodes are whole), both on
 * the room a type leaves after the DaemonSets certain to run on every node of the pool (those with no node requirement
 * that tolerate the pool's taints). No placement of those pods on that pool's types costs less; the pods' own zone and
 * affinity constraints are left out, which only lowers the bounds.
 *
 * @param lp        $/h
 * @param packing   $/h
 * @param poolNodes the $/h of the pools' nodes now, which the bounds are for
 */
record Bounds(double lp, double packing, double poolNodes) {

    /** How far the pools' nodes are from the packing bound (1 is optimal), or 0 without pods. */
    double ratio() {
        return packing > 0 ? poolNodes / packing : 0;
    }

    static Bounds of(ClusterView view, List<PoolOffer> pools) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : view.pods()) {
            if (p.isBound() && EvictionCost.reschedulable(p)) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        double lp = 0;
        double packing = 0;
        double price = 0;
        for (Node n : view.nodes()) {
            String pool = n.labels().get(WellKnownLabels.NODEPOOL);
            if (pool != null && pools.stream().anyMatch(o -> o.pool().name().equals(pool))) {
                price += Prices.of(n, pools);
            }
        }
        for (PoolOffer o : pools) {
            NodePool pool = o.pool();
            Resources demand = Resources.ZERO;
            Map<Resources, Integer> shapes = new HashMap<>();
            for (Node n : view.nodes()) {
                if (pool.name().equals(n.labels().get(WellKnownLabels.NODEPOOL))) {
                    for (Pod p : byNode.getOrDefault(n.name(), List.of())) {
                        demand = demand.plus(p.requests());
                        shapes.merge(p.requests(), 1, Integer::sum);
                    }
                }
            }
            if (shapes.isEmpty()) {
                continue;
            }
            Resources overhead = everywhere(view.daemonSets(), pool);
            Requirements reqs = pool.requirements();
            List<InstanceType> types = o.instanceTypes().stream()
                    .filter(t -> reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null).toList();
            lp += LowerBound.of(demand, types, reqs, t -> overhead);
            List<PackingBound.Column> columns = new ArrayList<>();
            for (InstanceType t : types) {
                Offering cheapest = t.cheapestOffering(reqs);
                columns.add(new PackingBound.Column(t.allocatable().minus(overhead), cheapest.pricePerHour()));
            }
            packing += PackingBound.of(shapes, columns);
        }
        return new Bounds(lp, packing, price);
    }

    private static Resources everywhere(List<DaemonSet> daemonSets, NodePool pool) {
        Resources r = Resources.ZERO;
        for (DaemonSet ds : daemonSets) {
            Pod t = ds.template();
            boolean unconditional = t.nodeSelector().isEmpty() && t.requiredNodeAffinity().isEmpty();
            if (unconditional && Toleration.firstUntolerated(t.tolerations(), pool.template().taints()) == null) {
                r = r.plus(t.requests());
            }
        }
        return r;
    }
}
