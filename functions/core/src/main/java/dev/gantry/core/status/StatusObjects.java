package dev.gantry.core.status;

import java.util.List;

/**
 * The {@code status} of the cluster's NodePools and EC2NodeClasses: read in one list of each kind, written through
 * the {@code status} subresource (so a write never touches what users own, the spec). A write is guarded by the
 * object's resourceVersion: {@link NodeClaimObjects.Stale} when it moved on (the next sweep decides again); a write
 * to an object that is gone is a quiet success. Other failures are unchecked exceptions, retryable.
 */
public interface StatusObjects {

    /**
     * One object as listed.
     *
     * @param generation the object's {@code metadata.generation} (the API server moves it on each spec change; 0 when
     *                   not known)
     * @param status     the status as Gantry would write it, parsed from the object (null when it has none)
     */
    record Observed<T>(String name, String resourceVersion, long generation, T status) {
    }

    List<Observed<PoolStatus>> nodePools();

    List<Observed<NodeClassStatus>> nodeClasses();

    void writeNodePool(Observed<PoolStatus> observed, PoolStatus status);

    void writeNodeClass(Observed<NodeClassStatus> observed, NodeClassStatus status);
}
