package dev.gantry.core.cluster;

import dev.gantry.core.model.Pod;

/**
 * Changes the cluster. Every method is idempotent: patching what is already so, deleting what is gone, and evicting a
 * pod that no longer exists all succeed quietly. Writes use JSON-merge or JSON patches, never strategic merge.
 * Failures are unchecked {@link ClusterException}s.
 */
public interface ClusterWriter {
    /** Applies the patch to the node; a node that does not exist is {@link ClusterException#notFound()}. */
    void patchNode(String name, NodePatch patch);

    /** Asks the Eviction API to evict the pod; see {@link EvictionResult} for what can come back. */
    EvictionResult evict(Pod pod);

    /** Deletes the pod outright (after the grace period ran out). */
    void deletePod(Pod pod);

    void deleteNode(String name);

    /**
     * Records a Kubernetes Event on an object ({@code kind} Pod, Node or NodeClaim). Best effort: failures are swallowed
     * and logged, and an adapter may drop or fold repeats (the same event again soon, a burst of one reason).
     */
    void event(String kind, String namespace, String name, String type, String reason, String message);
}
