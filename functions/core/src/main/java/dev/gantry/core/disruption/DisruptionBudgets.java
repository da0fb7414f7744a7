package dev.gantry.core.disruption;

import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.time.Instant;

/**
 * How many more of a NodePool's nodes may be disrupted now for a reason, as Karpenter counts it: the minimum over the
 * budgets that are active and apply to the reason (a budget with no reasons applies to all) of its allowance on the
 * pool's node count, minus the nodes already disrupting or not Ready; never below zero. A budget whose schedule is
 * outside its window does not limit; a schedule that cannot be parsed fails closed (allows nothing). A null reason (a
 * rebalance, which is none of Karpenter's) is limited by the budgets that apply to all reasons only.
 */
public final class DisruptionBudgets {
    private DisruptionBudgets() {
    }

    /**
     * @param nodes      the pool's initialized nodes, not counting those whose instance is already being terminated
     * @param disrupting of those, the nodes being deleted or not Ready
     */
    public static int allowed(NodePool pool, NodePool.Reason reason, int nodes, int disrupting, Instant now) {
        long limit = Integer.MAX_VALUE;
        for (NodePool.Budget b : pool.disruption().budgets()) {
            if (!b.reasons().isEmpty() && (reason == null || !b.reasons().contains(reason))) {
                continue;
            }
            limit = Math.min(limit, allowance(b, nodes, now));
        }
        return (int) Math.max(0, limit - disrupting);
    }

    /**
     * Drift's allowance: as {@link #allowed} for {@link NodePool.Reason#Drifted}, except that nodes NotReady (and not
     * being deleted) count against the budget only up to one less than its allowance. Karpenter counts every NotReady
     * node as disrupting (core {@code pkg/controllers/disruption/helpers.go}, {@code BuildDisruptionBudgetMapping}), so
     * as many NotReady nodes as the budget allows stop drift for good, the NotReady drifted nodes included
     * (aws/karpenter-provider-aws#6472). Gantry's rule: with a budget of at least one, NotReady nodes slow a rollout to
     * one node at a time but never stop it; drift replaces before it drains, so that one node never lowers the Ready
     * capacity. Nodes being deleted still count in full, and a budget of zero (a schedule window) still allows nothing.
     *
     * @param nodes    the pool's initialized nodes, not counting those whose instance is already being terminated
     * @param deleting of those, the nodes being deleted
     * @param notReady of those, the nodes not Ready and not being deleted
     */
    public static int allowedForDrift(NodePool pool, int nodes, int deleting, int notReady, Instant now) {
        int allowance = allowed(pool, NodePool.Reason.Drifted, nodes, 0, now);
        int counted = deleting + Math.min(notReady, Math.max(0, allowance - 1 - deleting));
        return allowed(pool, NodePool.Reason.Drifted, nodes, counted, now);
    }

    private static long allowance(NodePool.Budget b, int nodes, Instant now) {
        if (b.schedule().isPresent() || b.duration().isPresent()) {
            try {
                CronSchedule schedule = CronSchedule.parse(b.schedule().orElse("* * * * *"));
                if (!schedule.isActive(now, b.duration().orElse(Duration.ZERO))) {
                    return Integer.MAX_VALUE;
                }
            } catch (IllegalArgumentException bad) {
                return 0;
            }
        }
        try {
            return b.allowedOf(nodes);
        } catch (NumberFormatException bad) {
            return 0;
        }
    }
}
