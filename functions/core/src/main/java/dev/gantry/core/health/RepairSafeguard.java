package dev.gantry.core.health;

import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;

/**
 * No repair while too much of a pool is unhealthy: then the cause is wider than one node (a zone down, a bad AMI, a
 * broken CNI rollout) and replacing nodes would only churn. As Karpenter's (core
 * {@code pkg/controllers/node/health/controller.go}, {@code areNodesHealthy}): at most {@link #MAX_UNHEALTHY_PERCENT}%
 * of the pool's nodes may be unhealthy, rounded up as a PodDisruptionBudget's percentage rounds (so 1 of 3 is
 * allowed); a node launched for no pool is judged against every node of the cluster.
 */
public final class RepairSafeguard {
    public static final int MAX_UNHEALTHY_PERCENT = 20;

    /**
     * The judgement for one pool.
     *
     * @param scope     the pool's name, or null for the whole cluster
     * @param nodes     nodes in scope
     * @param unhealthy of which unhealthy
     * @param allowed   how many may be unhealthy ({@link #allowed})
     */
    public record Verdict(String scope, int nodes, int unhealthy, int allowed) {
        public boolean blocked() {
            return unhealthy > allowed;
        }

        /** The Event's message: why the repair waits. */
        public String message() {
            return (scope == null ? "more than " + MAX_UNHEALTHY_PERCENT + "% of the cluster's nodes are unhealthy"
                    : "more than " + MAX_UNHEALTHY_PERCENT + "% of NodePool " + scope + "'s nodes are unhealthy")
                    + " (" + unhealthy + " of " + nodes + ", " + allowed + " allowed); repair waits";
        }
    }

    private final RepairPolicies policies;

    public RepairSafeguard(RepairPolicies policies) {
        this.policies = policies;
    }

    /** How many of {@code nodes} may be unhealthy: {@link #MAX_UNHEALTHY_PERCENT}% rounded up (PDB rounding). */
    public static int allowed(int nodes) {
        return (nodes * MAX_UNHEALTHY_PERCENT + 99) / 100;
    }

    /** Judges {@code pool} (null or empty: the whole cluster) over every node listed, deleting ones included. */
    public Verdict judge(String pool, List<Node> nodes) {
        String scope = pool == null || pool.isEmpty() ? null : pool;
        int total = 0;
        int unhealthy = 0;
        for (Node n : nodes) {
            if (scope == null || scope.equals(n.labels().get(WellKnownLabels.NODEPOOL))) {
                total++;
                unhealthy += policies.unhealthy(n) ? 1 : 0;
            }
        }
        return new Verdict(scope, total, unhealthy, allowed(total));
    }
}
