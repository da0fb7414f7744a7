package dev.gantry.core.disruption.execution;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.DisruptionBudgets;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.DoNotDisrupt;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Everything a consolidation decision depends on, folded into one value: two inputs with the same key get the same
 * decision. The nodes (name, readiness, deletion, taints, labels, claim facts), their pods (each one's labels,
 * annotations, requests, and whether its {@code karpenter.sh/do-not-disrupt} protects it at {@code now}, so a duration
 * that lapses changes the key) and the reserved pods, the claims in flight (their offerings count against the dollar
 * limit), each candidate's {@code consolidateAfter} state at {@code now}, the budgets in force at {@code now}, and the
 * prices. The sweep does not decide again while the key is the one that last found nothing to do, for
 * {@link ConsolidationService#QUIET_FOR} at most (a quiet cluster costs one fingerprint a minute, not a search).
 */
final class DecisionKey {
    private DecisionKey() {
    }

    static String of(ConsolidationInput in) {
        long h = 17;
        Map<String, PoolOffer> pools = new java.util.HashMap<>();
        for (PoolOffer p : in.pools()) {
            pools.put(p.pool().name(), p);
            h = mix(h, p.pool().name().hashCode());
            for (NodePool.Reason r : NodePool.Reason.values()) {
                // The allowance for a full pool of 100 nodes: changes exactly when a schedule opens or closes.
                h = mix(h, DisruptionBudgets.allowed(p.pool(), r, 100, 0, in.now()));
            }
            for (InstanceType t : p.instanceTypes()) {
                for (Offering o : t.offerings()) {
                    h = mix(h, Double.hashCode(o.pricePerHour()) + (o.available() ? 1 : 0));
                }
            }
        }
        for (ClusterNode n : in.nodes()) {
            h = mix(h, n.name().hashCode());
            h = mix(h, (n.node().ready() ? 1 : 0) + (n.node().deleting() ? 2 : 0) + (n.fromConsolidation() ? 4 : 0)
                    + (n.nominated() ? 8 : 0) + (n.initializedAt() == null ? 16 : 0));
            h = mix(h, n.node().labels().hashCode());
            h = mix(h, n.node().annotations().hashCode());
            h = mix(h, n.node().taints().hashCode());
            h = mix(h, n.claim() == null ? 0 : n.claim().hashCode());
            h = mix(h, PodEvents.fingerprint(n.pods()).hashCode());
            h = mix(h, pods(n.pods(), in.now()));
            h = mix(h, eligible(n, pools.get(n.node().labels().get(WellKnownLabels.NODEPOOL)), in.now()) ? 1 : 0);
        }
        for (Pod p : in.reserved()) {
            h = mix(h, p.key().hashCode());
            h = mix(h, p.requests().hashCode());
        }
        long launching = 0;
        for (ConsolidationInput.LaunchingClaim c : in.inFlight()) {
            launching += mix(17, c.hashCode()); // independent of the store's order
        }
        h = mix(h, launching);
        h = mix(h, in.pdbs().hashCode());
        return Long.toHexString(h);
    }

    /** The pods' decision-relevant facts, independent of their order. */
    private static long pods(java.util.List<Pod> pods, Instant now) {
        long sum = 0;
        for (Pod p : pods) {
            long h = mix(p.key().hashCode(), p.labels().hashCode());
            h = mix(h, p.annotations().hashCode());
            h = mix(h, p.requests().hashCode());
            sum += mix(h, DoNotDisrupt.active(p, now) ? 1 : 0);
        }
        return sum;
    }

    /** Whether {@code consolidateAfter} (and the replacement guard) has passed for the node. */
    private static boolean eligible(ClusterNode n, PoolOffer pool, Instant now) {
        if (pool == null || n.initializedAt() == null) {
            return false;
        }
        Optional<Duration> after = pool.pool().disruption().consolidateAfter();
        if (after.isEmpty()) {
            return false;
        }
        Instant since = n.lastPodEventAt() != null && n.lastPodEventAt().isAfter(n.initializedAt()) ? n.lastPodEventAt() : n.initializedAt();
        return !now.isBefore(since.plus(after.get())) && !now.isBefore(n.initializedAt().plus(after.get()));
    }

    private static long mix(long h, long v) {
        h ^= v + 0x9E3779B97F4A7C15L + (h << 6) + (h >>> 2);
        return h * 0xBF58476D1CE4E5B9L;
    }
}
