package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.TemplatePlan;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drift of a static NodePool's nodes (Karpenter v1.14 core {@code pkg/controllers/disruption/staticdrift.go}): a drifted
 * node is replaced by a claim made from the pool's template (no pod planned: a static pool is kept by count), launched
 * and initialized before the drifted node is drained, through the same command machinery as drift. At most one
 * command; within the pool's {@code Drifted} budget; not while the pool has more nodes than {@code replicas} (a
 * scale-down is under way); and only when one more node stays within {@code limits.nodes} (Karpenter's
 * {@code ReserveNodeCount}). The candidates follow drift's rules ({@code Candidates.blocked}). Pure.
 */
final class StaticDrift {
    private StaticDrift() {
    }

    /** @param driftedClaims the drifted claims' names, oldest drifted first */
    static Optional<ConsolidationCommand> decide(ConsolidationInput in, List<String> driftedClaims) {
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Map<String, Integer> budget = Consolidation.budgets(in, pools, NodePool.Reason.Drifted);
        Map<String, Integer> running = new HashMap<>();
        Map<String, ClusterNode> byClaim = new HashMap<>();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < in.nodes().size(); i++) {
            ClusterNode n = in.nodes().get(i);
            String pool = n.node().labels().get(WellKnownLabels.NODEPOOL);
            if (n.managed() && pool != null && !n.node().deleting()) {
                running.merge(pool, 1, Integer::sum);
            }
            if (n.managed() && driftedClaims.contains(n.claim()) && (in.only() == null || in.only().contains(n.name()))) {
                byClaim.put(n.claim(), n);
                index.put(n.claim(), i);
            }
        }
        for (String claim : driftedClaims) {
            ClusterNode n = byClaim.get(claim);
            PoolOffer offer = n == null ? null : pools.get(n.node().labels().get(WellKnownLabels.NODEPOOL));
            if (offer == null || !offer.pool().isStatic() || budget.getOrDefault(offer.pool().name(), 0) <= 0) {
                continue;
            }
            NodePool pool = offer.pool();
            boolean eventual = pool.template().terminationGracePeriod().isPresent();
            long limit = pool.limit("nodes").map(Quantity::toUnits).orElse(Long.MAX_VALUE);
            if (Candidates.blocked(n, pools, in.pdbs(), in.now(), eventual) != null
                    || running.getOrDefault(pool.name(), 0) > pool.replicas() || offer.nodeCount() + 1 > limit) {
                continue;
            }
            Optional<NodeClaimPlan> replacement = TemplatePlan.of(offer, "static-" + pool.name());
            if (replacement.isEmpty()) {
                continue;
            }
            List<Pod> reschedulable = n.pods().stream().filter(EvictionCost::reschedulable).toList();
            String typeName = n.node().labels().get(WellKnownLabels.INSTANCE_TYPE);
            InstanceType type = offer.instanceTypes().stream().filter(t -> t.name().equals(typeName)).findFirst().orElse(null);
            String ct = n.node().labels().get(WellKnownLabels.CAPACITY_TYPE);
            String zone = n.node().labels().get(WellKnownLabels.ZONE);
            double price = type == null || ct == null || zone == null ? 0 : Candidates.price(type, zone, ct);
            Candidate c = new Candidate(n, pool, type, ct, price, reschedulable, EvictionCost.reschedule(reschedulable), index.get(claim));
            return Optional.of(Round.command(Method.DRIFT, List.of(c), List.of(replacement.get()), Map.of()).decidedBy("karpenter"));
        }
        return Optional.empty();
    }
}
