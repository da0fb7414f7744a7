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

    /**
     * Present when the drain should wait for replacement capacity first (expiry, a rebalance with replace): written
     * once the claim is marked for deletion, at an instant a provisioning run must have read the store after
     * ({@link #REPLACEMENTS_PLANNED}) to have seen the claim leaving.
     */
    public static String waitForReplacement(String claim) {
        return "termination-wait-replacement/" + claim;
    }

    /**
     * When the last provisioning run that planned the pods of leaving nodes read the store: every such pod it read has
     * had its capacity recorded since (a claim naming it, or room on existing capacity), or has none to be had. One
     * marker for all drains, written by the provisioner.
     */
    public static final String REPLACEMENTS_PLANNED = "provisioning-replacements-planned";
}
