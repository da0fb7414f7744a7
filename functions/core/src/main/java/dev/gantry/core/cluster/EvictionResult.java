package dev.gantry.core.cluster;

/** What the Eviction API answered. */
public enum EvictionResult {
    /** Accepted: the pod is being deleted. */
    EVICTED,
    /** 429: a PodDisruptionBudget does not allow it now. Retry later. */
    BLOCKED_BY_PDB,
    /** 404: the pod is already gone. */
    NOT_FOUND
}
