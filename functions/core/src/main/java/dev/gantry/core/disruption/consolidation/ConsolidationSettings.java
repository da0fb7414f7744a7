package dev.gantry.core.disruption.consolidation;

/**
 * Operator settings for consolidation.
 *
 * @param spotToSpot Karpenter's {@code SpotToSpotConsolidation} feature gate (off by default): a spot node may be
 *                   replaced by a cheaper spot node, single-node only with at least 15 cheaper types
 * @param strategy   Gantry's engine, or the Karpenter reference alone
 */
public record ConsolidationSettings(boolean spotToSpot, Strategy strategy) {
    public static final ConsolidationSettings DEFAULT = new ConsolidationSettings(false, Strategy.GANTRY);

    public ConsolidationSettings {
        strategy = strategy == null ? Strategy.GANTRY : strategy;
    }

    public enum Strategy {
        /** Gantry's search (m-to-n re-packs over every candidate, the best of several single-node moves, cost-aware placement), never worse than the reference. */
        GANTRY,
        /** Karpenter's consolidation, faithfully: multi-node (at most 100, m-to-1) then single-node, greedy placement. */
        KARPENTER
    }

    public ConsolidationSettings withStrategy(Strategy s) {
        return new ConsolidationSettings(spotToSpot, s);
    }
}
