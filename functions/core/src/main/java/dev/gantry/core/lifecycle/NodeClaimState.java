package dev.gantry.core.lifecycle;

/**
 * Where a NodeClaim is in its life. States only move forward, in this order, except that a claim may go to
 * {@link #Draining}, {@link #Terminating} or {@link #Terminated} from any earlier state.
 */
public enum NodeClaimState {
    /** Recorded; CreateFleet may or may not have been called. */
    Launching,
    /** CreateFleet returned an instance. */
    Launched,
    /** A Node for the instance exists in the cluster. */
    Registered,
    /** The node is Ready, its startup taints are gone and its extended resources are advertised. */
    Initialized,
    /** Deletion began: the node is tainted and its pods are being evicted. */
    Draining,
    /** Pods are gone (or the grace period ran out): the instance is being terminated. */
    Terminating,
    /** The instance is gone and the Node deleted; the record expires after its ttl. */
    Terminated;

    public boolean isBefore(NodeClaimState other) {
        return ordinal() < other.ordinal();
    }

    /** Launched but not yet a node: capacity that is coming. */
    public boolean isInFlight() {
        return this == Launching || this == Launched;
    }

    /** Deletion has begun. */
    public boolean isDeleting() {
        return this == Draining || this == Terminating || this == Terminated;
    }
}
