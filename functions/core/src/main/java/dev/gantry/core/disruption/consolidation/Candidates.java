package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.DoNotDisrupt;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which nodes consolidation may consider (Karpenter v1.14's candidate rules), and a verdict for each one it may not.
 * A candidate is managed and initialized, not deleting or nominated, free of {@code karpenter.sh/do-not-disrupt} on
 * the node, in its pool's template annotations and on its active pods (mirror and daemon pods included; a duration
 * protects a pod while it is younger, see {@link DoNotDisrupt}), every pod the drain would evict allowed by its
 * PodDisruptionBudget (terminal, terminating and mirror pods, and pods tolerating {@code karpenter.sh/disrupted}, are
 * not evicted; a budget whose {@code unhealthyPodEvictionPolicy} is AlwaysAllow does not hold a pod that reports
 * itself not Ready), priced, in a dynamic pool (a static pool's nodes are kept by count) whose {@code consolidateAfter}
 * is not Never and has passed since the node's last pod event (or, with none, its initialization).
 */
final class Candidates {
    final List<Candidate> all = new ArrayList<>();
    final List<Verdict> verdicts = new ArrayList<>();

    private Candidates() {
    }

    static Candidates of(ConsolidationInput in, Map<String, PoolOffer> pools, boolean gantry) {
        Candidates out = new Candidates();
        for (int i = 0; i < in.nodes().size(); i++) {
            ClusterNode n = in.nodes().get(i);
            if (!n.managed()) {
                continue;
            }
            String why = blocked(n, pools, in.pdbs(), in.now());
            if (why != null) {
                out.verdicts.add(Verdict.blocked(n.name(), why));
                continue;
            }
            PoolOffer offer = pools.get(n.node().labels().get(WellKnownLabels.NODEPOOL));
            NodePool pool = offer.pool();
            if (pool.isStatic()) {
                // Karpenter keeps a static pool's nodes by count: consolidation never considers them (nor emptiness).
                out.verdicts.add(Verdict.unconsolidatable(n.name(), "NodePool \"" + pool.name() + "\" is static (replicas "
                        + pool.replicas() + "): its nodes are kept by count, never consolidated"));
                continue;
            }
            String unconsolidatable = unconsolidatable(n, pool, in.now(), gantry);
            if (unconsolidatable != null) {
                out.verdicts.add(Verdict.unconsolidatable(n.name(), unconsolidatable));
                continue;
            }
            Map<String, String> labels = n.node().labels();
            String typeName = labels.get(WellKnownLabels.INSTANCE_TYPE);
            InstanceType type = offer.instanceTypes().stream().filter(t -> t.name().equals(typeName)).findFirst().orElse(null);
            String ct = labels.get(WellKnownLabels.CAPACITY_TYPE);
            String zone = labels.get(WellKnownLabels.ZONE);
            List<Pod> reschedulable = n.pods().stream().filter(EvictionCost::reschedulable).toList();
            double disruption = EvictionCost.reschedule(reschedulable);
            boolean empty = Candidate.empty(disruption, reschedulable);
            // Karpenter's Emptiness needs no price: an empty node goes even when its type or labels cannot be priced.
            String unpriced = type == null ? "Instance Type \"" + typeName + "\" not found"
                    : ct == null || zone == null ? "Node does not have label \""
                    + (ct == null ? WellKnownLabels.CAPACITY_TYPE : WellKnownLabels.ZONE) + "\"" : null;
            if (unpriced != null && !empty) {
                out.verdicts.add(Verdict.unconsolidatable(n.name(), unpriced));
                continue;
            }
            double price = unpriced == null ? price(type, zone, ct) : 0;
            if (!empty && pool.disruption().consolidationPolicy() == NodePool.ConsolidationPolicy.WhenEmpty) {
                out.verdicts.add(Verdict.unconsolidatable(n.name(), "NodePool \"" + pool.name()
                        + "\" has consolidation policy WhenEmpty, but node is not empty"));
                continue;
            }
            out.all.add(new Candidate(n, pool, type, ct, price, reschedulable, disruption, i));
        }
        return out;
    }

    /** The offering's price (0 when the catalogue has none for the zone and capacity type, as Karpenter falls back). */
    static double price(InstanceType type, String zone, String capacityType) {
        for (Offering o : type.offerings()) {
            if (o.zone().equals(zone) && o.capacityType().equals(capacityType)) {
                return o.pricePerHour();
            }
        }
        return 0;
    }

    static String blocked(ClusterNode n, Map<String, PoolOffer> pools, List<PodDisruptionBudget> pdbs, Instant now) {
        return blocked(n, pools, pdbs, now, false);
    }

    /**
     * @param podBlocksIgnored an eventual disruption (drift) of a pool with a {@code terminationGracePeriod}: its pods'
     *                         {@code do-not-disrupt} and PodDisruptionBudgets do not block (the drain is bounded by the
     *                         grace period); the node's own {@code do-not-disrupt} still does (Karpenter's
     *                         {@code EventualDisruptionClass}, core {@code disruption/types.go})
     */
    static String blocked(ClusterNode n, Map<String, PoolOffer> pools, List<PodDisruptionBudget> pdbs, Instant now,
                          boolean podBlocksIgnored) {
        String poolName = n.node().labels().get(WellKnownLabels.NODEPOOL);
        if (!pools.containsKey(poolName)) {
            return "NodePool not found (NodePool=" + poolName + ")";
        }
        if (n.initializedAt() == null) {
            return "node isn't initialized";
        }
        if (n.node().deleting()) {
            return "node is deleting or marked for deletion";
        }
        if (n.nominated()) {
            return "node is nominated for a pending pod";
        }
        // Karpenter writes the template's annotations on the pool's nodes; Gantry reads the pool's instead.
        if ("true".equals(n.node().annotations().get(Pod.DO_NOT_DISRUPT))
                || "true".equals(pools.get(poolName).pool().template().annotations().get(Pod.DO_NOT_DISRUPT))) {
            return "disruption is blocked through the \"" + Pod.DO_NOT_DISRUPT + "\" annotation";
        }
        if (podBlocksIgnored) {
            return null;
        }
        for (Pod p : n.pods()) {
            if ("true".equals(p.annotations().get(Reserved.MARK))) {
                continue; // a reserved (headroom) pod is no real pod: nothing to evict, no budget to ask
            }
            // Karpenter's IsDisruptable: any active pod (mirror and daemon pods too) may block through the annotation.
            if (DoNotDisrupt.active(p, now)) {
                return "pod \"" + p.key() + "\" has \"" + Pod.DO_NOT_DISRUPT + "\" annotation";
            }
        }
        for (Pod p : n.pods()) {
            // Karpenter's IsEvictable: PDBs matter only for pods the drain would evict.
            if (p.status().isTerminal() || p.status().deletingSince() != null || p.isMirror()
                    || Toleration.anyTolerates(p.tolerations(), Taint.DISRUPTED) || "true".equals(p.annotations().get(Reserved.MARK))) {
                continue;
            }
            List<PodDisruptionBudget> covering = pdbs.stream().filter(b -> b.covers(p)).toList();
            if (covering.size() > 1) {
                return "pod \"" + p.key() + "\" has multiple PDBs (" + covering.stream()
                        .map(b -> b.namespace() + "/" + b.name()).toList() + ")";
            }
            if (covering.size() == 1 && covering.get(0).alwaysEvicts(p)) {
                continue; // AlwaysAllow: an unready pod may be evicted whatever the budget allows
            }
            if (covering.size() == 1 && covering.get(0).disruptionsAllowed() <= 0) {
                PodDisruptionBudget b = covering.get(0);
                return "pdb \"" + b.namespace() + "/" + b.name() + "\" prevents pod evictions";
            }
        }
        return null;
    }

    private static String unconsolidatable(ClusterNode n, NodePool pool, Instant now, boolean gantry) {
        Optional<Duration> after = pool.disruption().consolidateAfter();
        if (after.isEmpty()) {
            return "NodePool \"" + pool.name() + "\" has consolidation disabled";
        }
        Instant since = n.lastPodEventAt() != null ? n.lastPodEventAt() : n.initializedAt(); // as Karpenter's IsUnderConsolidateAfter
        if (now.isBefore(since.plus(after.get()))) {
            return "consolidateAfter (" + after.get() + ") has not passed since the last pod event";
        }
        if (gantry && n.fromConsolidation() && now.isBefore(n.initializedAt().plus(after.get()))) {
            return "replacement launched by consolidation is within consolidateAfter";
        }
        return null;
    }
}
