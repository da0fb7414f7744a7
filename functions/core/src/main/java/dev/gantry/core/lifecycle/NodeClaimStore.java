package dev.gantry.core.lifecycle;

import dev.gantry.core.catalog.OfferingKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Durable state for one cluster: NodeClaims, offerings recently found unavailable, per-pool usage snapshots, and small
 * named markers (the time of the last provisioning hint, say). Every write is a single-item conditional write: there are no transactions.
 *
 * <p>Readers never see records whose {@code expiresAt} is past, whether or not the backing store has deleted them yet
 * (DynamoDB deletes expired items lazily, sometimes days later).
 *
 * <p>Errors: {@link Conflict} when a conditional write loses (the caller re-reads and decides again); any other
 * failure is an unchecked exception the caller treats as retryable.
 */
public interface NodeClaimStore {

    /** A conditional write lost: the record exists already (create) or changed since it was read (update). */
    final class Conflict extends RuntimeException {
        public Conflict(String message) {
            super(message);
        }
    }

    /**
     * Stores a new claim with version 1 and returns it. Throws {@link Conflict} if a claim with that name exists,
     * expired or not: the name is the launch's idempotency key and is never reused.
     */
    NodeClaim create(NodeClaim claim);

    /**
     * Replaces the stored claim if its version still equals {@code claim.version()}; returns the stored value with the
     * version incremented. Throws {@link Conflict} if the version moved on or the claim does not exist.
     */
    NodeClaim update(NodeClaim claim);

    Optional<NodeClaim> get(String name, Instant now);

    /** The claim for an EC2 instance (a secondary index by instance id). */
    Optional<NodeClaim> findByInstanceId(String instanceId, Instant now);

    /** Every claim that has not expired, ordered by name. */
    List<NodeClaim> list(Instant now);

    /**
     * Records that an offering failed with insufficient capacity (or similar) until {@code until}. The later mark wins,
     * whatever the order of the writes: a mark decided earlier but written later (a slow invocation, an SDK retry)
     * never shortens one a later failure set, since writers run concurrently (provisioning, interruptions).
     */
    void markUnavailable(OfferingKey offering, Instant until);

    /** Offerings marked unavailable whose mark has not yet run out. */
    Set<OfferingKey> unavailableOfferings(Instant now);

    /**
     * Records a pool's usage snapshot, unless the stored one is newer (runs may finish out of order). Derived data: the
     * provisioner never plans from it, so a lost or stale snapshot costs nothing but a stale status line.
     */
    void recordPoolUsage(PoolUsage usage);

    /** The latest usage snapshot of every pool that has one, ordered by pool name. */
    List<PoolUsage> poolUsage();

    /** Sets a named marker to an instant. Last write wins. */
    void setMarker(String name, Instant at);

    Optional<Instant> marker(String name);
}
