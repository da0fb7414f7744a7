package dev.gantry.core.termination;

/**
 * Names of the store markers the termination flow keeps beside a claim (the NodeClaim record has no field for them).
 * Markers are last-write-wins instants, which is all these need.
 */
public final class TerminationMarkers {
    private TerminationMarkers() {
    }

    /** The hard end of a claim's grace period (an interruption's two minutes). */
    public static String deadline(String claim) {
        return "termination-deadline/" + claim;
    }

    /** Present when the drain should wait for replacement capacity first (rebalance with replace). */
    public static String waitForReplacement(String claim) {
        return "termination-wait-replacement/" + claim;
    }
}
