package dev.gantry.core.lifecycle;

import dev.gantry.core.catalog.OfferingKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@link NodeClaimStore} contract in memory, for the simulator and tests. Thread-safe: every method is
 * synchronized, which gives the same single-item atomicity a conditional write has in DynamoDB.
 */
public final class InMemoryNodeClaimStore implements NodeClaimStore {
    private final Map<String, NodeClaim> claims = new TreeMap<>();
    private final Map<OfferingKey, Instant> unavailable = new HashMap<>();
    private final Map<String, Instant> markers = new HashMap<>();
    private final Map<String, PoolUsage> usage = new TreeMap<>();

    @Override
    public synchronized NodeClaim create(NodeClaim claim) {
        if (claims.containsKey(claim.name())) {
            throw new Conflict("nodeclaim " + claim.name() + " exists");
        }
        NodeClaim stored = claim.withVersion(1);
        claims.put(claim.name(), stored);
        return stored;
    }

    @Override
    public synchronized NodeClaim update(NodeClaim claim) {
        NodeClaim current = claims.get(claim.name());
        if (current == null) {
            throw new Conflict("nodeclaim " + claim.name() + " does not exist");
        }
        if (current.version() != claim.version()) {
            throw new Conflict("nodeclaim " + claim.name() + " is at version " + current.version() + ", not " + claim.version());
        }
        NodeClaim stored = claim.withVersion(claim.version() + 1);
        claims.put(claim.name(), stored);
        return stored;
    }

    @Override
    public synchronized Optional<NodeClaim> get(String name, Instant now) {
        return Optional.ofNullable(claims.get(name)).filter(c -> !c.isExpired(now));
    }

    @Override
    public synchronized Optional<NodeClaim> findByInstanceId(String instanceId, Instant now) {
        return claims.values().stream().filter(c -> instanceId.equals(c.instanceId()) && !c.isExpired(now)).findFirst();
    }

    @Override
    public synchronized List<NodeClaim> list(Instant now) {
        List<NodeClaim> out = new ArrayList<>();
        for (NodeClaim c : claims.values()) {
            if (!c.isExpired(now)) {
                out.add(c);
            }
        }
        return out;
    }

    @Override
    public synchronized void markUnavailable(OfferingKey offering, Instant until) {
        unavailable.merge(offering, until, (stored, given) -> given.isAfter(stored) ? given : stored);
    }

    @Override
    public synchronized Set<OfferingKey> unavailableOfferings(Instant now) {
        Set<OfferingKey> out = new HashSet<>();
        unavailable.forEach((k, until) -> {
            if (now.isBefore(until)) {
                out.add(k);
            }
        });
        return out;
    }

    @Override
    public synchronized void recordPoolUsage(PoolUsage u) {
        PoolUsage stored = usage.get(u.nodePool());
        if (stored == null || !stored.at().isAfter(u.at())) {
            usage.put(u.nodePool(), u);
        }
    }

    @Override
    public synchronized List<PoolUsage> poolUsage() {
        return List.copyOf(usage.values());
    }

    @Override
    public synchronized void setMarker(String name, Instant at) {
        markers.put(name, at);
    }

    @Override
    public synchronized Optional<Instant> marker(String name) {
        return Optional.ofNullable(markers.get(name));
    }
}
