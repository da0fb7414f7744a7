package dev.gantry.core.status;

import java.util.List;

/**
 * The {@code karpenter.sh/v1} NodeClaim objects in the cluster: Gantry's projection of its claims (DynamoDB stays the
 * lifecycle's source of truth; these objects are what {@code kubectl get nodeclaims} reads and what
 * {@code kubectl delete nodeclaim} acts on).
 *
 * <p>Every write is idempotent and guarded: {@link #create} of an existing object and a write whose
 * {@code resourceVersion} is stale both throw {@link Stale}, and the caller leaves the object for the next sweep,
 * which reads it afresh. Writes to an object that no longer exists are quiet successes. Any other failure is an
 * unchecked exception (the adapter's {@code ClusterException}), retryable.
 */
public interface NodeClaimObjects {

    /** The object changed (or appeared) since it was read: decide again from a fresh read. */
    final class Stale extends RuntimeException {
        public Stale(String message) {
            super(message);
        }
    }

    /** Every NodeClaim object, whoever wrote it (one paged list). */
    List<ObservedNodeClaim> list();

    /**
     * Creates the object with {@link NodeClaimObject#FINALIZER}, its labels, its spec and its digest, then writes its
     * status (two requests): a crash in between leaves an object without a status
     * ({@link ObservedNodeClaim#hasStatus()}), which the next sweep writes.
     */
    void create(NodeClaimObject object);

    /**
     * Brings an existing object's labels, finalizer and status to {@code object} (never its spec, which the CRD makes
     * immutable): status first, then labels and the digest annotation (two requests; a crash in between leaves the old
     * digest, so the next sweep writes both again). The status write is guarded by {@code observed.resourceVersion()}.
     */
    void update(ObservedNodeClaim observed, NodeClaimObject object);

    /** Removes {@link NodeClaimObject#FINALIZER}, guarded by the observed resourceVersion; a deleting object then goes. */
    void removeFinalizer(ObservedNodeClaim observed);

    /** Deletes the object (it stays while a finalizer holds it). */
    void delete(String name);
}
