package dev.gantry.simulator.observe;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The invariants of static NodePools ({@code spec.replicas}):
 * <ul>
 *   <li>{@code staticCountOffTarget}: the pool's nodes (its claims with a node, not deleting, and not a candidate of a
 *       command under way) differ from its target ({@code replicas}, at most {@code limits.nodes}) for longer than one
 *       sweep plus one boot ({@link #BOOT}): a sweep notices the change, and a launch registers within a boot.</li>
 *   <li>{@code staticNodeConsolidated}: a static pool's node deleted as empty or underutilized. Karpenter never
 *       consolidates them (core {@code pkg/controllers/disruption/consolidation.go}, {@code emptiness.go}); a scale-down
 *       ({@code overprovisioned}), drift, expiry or an interruption may remove one.</li>
 * </ul>
 * Judged against the pools as configured now, so a change of {@code replicas} starts a new episode.
 */
final class StaticPoolChecks {
    /** One EC2 boot to a registered node, generously: the simulator's take 20–50 s, EC2's usually 30–90 s. */
    static final Duration BOOT = Duration.ofMinutes(2);

    private final Map<String, NodePool> pools;
    private final Duration sweep;
    private final Map<String, Instant> offSince = new HashMap<>();
    private final Map<String, Integer> offFrom = new HashMap<>();

    StaticPoolChecks(Map<String, NodePool> pools, Duration sweep) {
        this.pools = pools;
        this.sweep = sweep;
    }

    void check(List<NodeClaim> claims, Instant now, Checks.Episodes episodes) {
        Map<String, Integer> nodes = new HashMap<>();
        for (NodeClaim c : claims) {
            NodePool pool = pools.get(c.nodePool());
            if (pool == null || !pool.isStatic()) {
                continue;
            }
            if (c.state().isDeleting()) {
                NodePool.Reason r = LifecycleChecks.reason(c.deletionReason());
                episodes.episode(r == NodePool.Reason.Empty || r == NodePool.Reason.Underutilized, "staticNodeConsolidated",
                        c.name(), () -> "nodeclaim/" + c.name() + " of static NodePool " + pool.name() + " deleted as "
                                + c.deletionReason());
                continue;
            }
            var mark = c.consolidation();
            boolean pendingDisruption = mark != null && mark.phase() != dev.gantry.core.lifecycle.ConsolidationMark.Phase.Aborted
                    && mark.candidates().contains(c.name());
            if (c.nodeName() != null && !pendingDisruption) {
                nodes.merge(c.nodePool(), 1, Integer::sum);
            }
        }
        for (NodePool pool : pools.values()) {
            if (!pool.isStatic()) {
                continue;
            }
            long limit = pool.limit("nodes").map(Quantity::toUnits).orElse(Long.MAX_VALUE);
            int target = (int) Math.min(pool.replicas(), limit);
            int have = nodes.getOrDefault(pool.name(), 0);
            String key = pool.name() + "/" + target;
            if (have == target) {
                offSince.remove(key);
                offFrom.remove(key);
            } else {
                offSince.putIfAbsent(key, now);
                offFrom.putIfAbsent(key, have);
            }
            Instant since = offSince.get(key);
            Duration allowed = sweep.plus(BOOT);
            episodes.episode(since != null && now.isAfter(since.plus(allowed)), "staticCountOffTarget", key,
                    () -> "static NodePool " + pool.name() + " has " + have + " nodes, not " + target + ", for longer than "
                            + allowed.toSeconds() + " s (one sweep plus one boot)");
        }
    }
}
