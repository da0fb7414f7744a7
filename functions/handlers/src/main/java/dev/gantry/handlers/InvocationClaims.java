package dev.gantry.handlers;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.lifecycle.PoolUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The claim store over another, where the whole list of claims is read at most once between two claim writes within
 * one invocation ({@link InvocationReads#during}, whose scope it shares). A sweep lists the store eight to ten times
 * (registration, housekeeping, drift, reservations, static capacity, disruption, consolidation and its replacement
 * offers, the status); at 5,000 claims each list is a DynamoDB query of several 1 MB pages, paid in read units,
 * latency and decoding on every one.
 *
 * <p>As safe as reading again, for the reasons {@link InvocationReads} gives: a claim write through this store
 * ({@link #create}, {@link #update}) drops the list, so a step after a write reads the store fresh; a list read while
 * a write happened is not kept; what others write meanwhile (the termination function finishing a drain) is seconds
 * old, and every claim write is conditional on the version read, so a stale claim loses its write and the next sweep
 * sees it. A later {@code now} filters the kept list again (a claim that expires between two calls is dropped, as a
 * fresh read would); an earlier one reads afresh. Each call returns its own copy. Outside the scope every call goes
 * straight through.
 */
public final class InvocationClaims implements NodeClaimStore {
    private final NodeClaimStore store;
    private final InvocationReads scope;
    private List<NodeClaim> claims;
    private Instant readAt;
    private long writes;

    InvocationClaims(NodeClaimStore store, InvocationReads scope) {
        this.store = store;
        this.scope = scope;
    }

    @Override
    public List<NodeClaim> list(Instant now) {
        long before;
        boolean open = scope.isOpen(); // never asked under this lock, so the two locks are never nested
        synchronized (this) {
            if (open && claims != null && !now.isBefore(readAt)) {
                List<NodeClaim> out = new ArrayList<>(claims.size());
                for (NodeClaim c : claims) {
                    if (!c.isExpired(now)) {
                        out.add(c);
                    }
                }
                return out;
            }
            before = writes;
        }
        List<NodeClaim> read = store.list(now);
        open = scope.isOpen();
        synchronized (this) {
            if (open && writes == before) { // a write during the read: the list may predate it
                claims = List.copyOf(read);
                readAt = now;
            }
        }
        return read;
    }

    @Override
    public NodeClaim create(NodeClaim claim) {
        try {
            return store.create(claim);
        } finally {
            written();
        }
    }

    @Override
    public NodeClaim update(NodeClaim claim) {
        try {
            return store.update(claim);
        } finally {
            written();
        }
    }

    /** Called when the scope closes: nothing is kept between invocations. */
    synchronized void close() {
        claims = null;
        readAt = null;
    }

    private synchronized void written() {
        writes++;
        claims = null;
    }

    @Override public Optional<NodeClaim> get(String name, Instant now) { return store.get(name, now); }
    @Override public Optional<NodeClaim> findByInstanceId(String instanceId, Instant now) { return store.findByInstanceId(instanceId, now); }
    @Override public void markUnavailable(OfferingKey offering, Instant until) { store.markUnavailable(offering, until); }
    @Override public Set<OfferingKey> unavailableOfferings(Instant now) { return store.unavailableOfferings(now); }
    @Override public void recordPoolUsage(PoolUsage usage) { store.recordPoolUsage(usage); }
    @Override public List<PoolUsage> poolUsage() { return store.poolUsage(); }
    @Override public void setMarker(String name, Instant at) { store.setMarker(name, at); }
    @Override public Optional<Instant> marker(String name) { return store.marker(name); }
}
