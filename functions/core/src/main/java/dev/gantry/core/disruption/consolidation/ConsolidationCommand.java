package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.model.NodePool;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.List;
import java.util.Map;

/**
 * One consolidation move, for the shell to carry out: taint the {@code nodes}, launch the {@code replacements} and wait
 * for them to initialize, then drain and terminate the nodes. A value; nothing has happened yet.
 *
 * @param method       which search produced it
 * @param reason       the budget reason it consumed (Empty, Underutilized, or Drifted); null for a rebalance, which
 *                     is none of Karpenter's reasons (only budgets without reasons limit it)
 * @param nodes        the nodes to remove, with {@code claims} their NodeClaims in the same order
 * @param replacements the NodeClaims to launch first (none for a delete); options already filtered by the price rule
 * @param destinations pod key to where the simulation put it: a node name, or a replacement's claim name
 * @param priceBefore  the removed nodes' $/h
 * @param priceAfter   the replacements' expected $/h (cheapest remaining option each)
 * @param decidedBy    "gantry" or "karpenter" (the reference, when it found the cheaper move)
 */
public record ConsolidationCommand(Method method, NodePool.Reason reason, List<String> nodes, List<String> claims,
                                   List<NodeClaimPlan> replacements, Map<String, String> destinations,
                                   double priceBefore, double priceAfter, String decidedBy) {
    public ConsolidationCommand {
        nodes = List.copyOf(nodes);
        claims = List.copyOf(claims);
        replacements = List.copyOf(replacements);
        destinations = Map.copyOf(destinations);
    }

    public enum Method {
        EMPTY, MULTI_NODE, SINGLE_NODE, REPACK,
        /** Drift: one drifted node replaced by what its pods need, whatever the price ({@link DriftReplacement}). */
        DRIFT,
        /**
         * Rebalance: one spot node with a rebalance recommendation replaced on another offering before its interruption
         * ({@link RebalanceReplacement}; Gantry's own, aws/karpenter-provider-aws#2813).
         */
        REBALANCE
    }

    /** $/h saved if the move goes as planned. */
    public double savings() {
        return priceBefore - priceAfter;
    }

    public boolean isDelete() {
        return replacements.isEmpty();
    }

    public int podsMoved() {
        return destinations.size();
    }

    ConsolidationCommand decidedBy(String who) {
        return new ConsolidationCommand(method, reason, nodes, claims, replacements, destinations, priceBefore, priceAfter, who);
    }
}
