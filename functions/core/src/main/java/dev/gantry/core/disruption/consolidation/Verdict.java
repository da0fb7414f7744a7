package dev.gantry.core.disruption.consolidation;

/**
 * Why a node stays, as Karpenter's events put it: {@code DisruptionBlocked} when something forbids disrupting it
 * (annotation, PDB, budget, not initialized), {@code Unconsolidatable} when it may be disrupted but no cheaper
 * arrangement exists (or its pool does not consolidate it). The shell turns these into events and metrics.
 */
public record Verdict(String node, Kind kind, String reason) {
    public enum Kind { DisruptionBlocked, Unconsolidatable }

    static Verdict blocked(String node, String reason) {
        return new Verdict(node, Kind.DisruptionBlocked, reason);
    }

    static Verdict unconsolidatable(String node, String reason) {
        return new Verdict(node, Kind.Unconsolidatable, reason);
    }
}
