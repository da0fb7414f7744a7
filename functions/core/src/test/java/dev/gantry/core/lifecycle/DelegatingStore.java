package dev.gantry.core.lifecycle;

import dev.gantry.core.catalog.OfferingKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A store that forwards everything; tests override one method to inject a failure. */
public class DelegatingStore implements NodeClaimStore {
    private final NodeClaimStore delegate;

    public DelegatingStore(NodeClaimStore delegate) {
        this.delegate = delegate;
    }

    @Override public NodeClaim create(NodeClaim claim) { return delegate.create(claim); }
    @Override public NodeClaim update(NodeClaim claim) { return delegate.update(claim); }
    @Override public Optional<NodeClaim> get(String name, Instant now) { return delegate.get(name, now); }
    @Override public Optional<NodeClaim> findByInstanceId(String id, Instant now) { return delegate.findByInstanceId(id, now); }
    @Override public List<NodeClaim> list(Instant now) { return delegate.list(now); }
    @Override public void markUnavailable(OfferingKey o, Instant until) { delegate.markUnavailable(o, until); }
    @Override public Set<OfferingKey> unavailableOfferings(Instant now) { return delegate.unavailableOfferings(now); }
    @Override public void recordPoolUsage(dev.gantry.core.lifecycle.PoolUsage u) { delegate.recordPoolUsage(u); }
    @Override public List<dev.gantry.core.lifecycle.PoolUsage> poolUsage() { return delegate.poolUsage(); }
    @Override public void setMarker(String name, Instant at) { delegate.setMarker(name, at); }
    @Override public Optional<Instant> marker(String name) { return delegate.marker(name); }
}
