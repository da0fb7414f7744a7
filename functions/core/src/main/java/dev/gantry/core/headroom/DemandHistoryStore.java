package dev.gantry.core.headroom;

import dev.gantry.core.model.Resources;
import java.time.Instant;

/**
 * Durable pending-demand history for predicted buffers (see {@link DemandHistory}). Writes are single-item and
 * idempotent: recording keeps the hour's peak per resource, so a retried or duplicated observation changes nothing.
 * Samples older than {@link DemandHistory#WEEKS} weeks are never returned (the backing store may delete them lazily).
 * Failures are unchecked exceptions the caller treats as retryable; losing a sample costs a slightly smaller buffer.
 */
public interface DemandHistoryStore {
    /** Records that pods waiting for {@code nodePool} requested {@code pending} (cpu and memory) at {@code at}. */
    void record(String nodePool, Instant at, Resources pending);

    /** Every sample still consulted at {@code now}, all pools. */
    DemandHistory read(Instant now);
}
