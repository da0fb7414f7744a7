package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The back-offs the NodePools are under at one instant, as {@code gantry status} shows them: read from the markers
 * {@link PoolBackoff} keeps in the state table (one read per pool and kind), so an operator sees why a pool starts no
 * drift, rebalance or consolidation replacement for now. Read-only.
 */
public final class BackOffs {
    /**
     * One back-off in force.
     *
     * @param what  {@code drift}, {@code rebalance} or {@code consolidation launches}: what the pool holds back
     * @param until when it ends (the next failure within an hour of it doubles the next one)
     */
    public record Held(String pool, String what, Instant until) {
    }

    private BackOffs() {
    }

    /** The back-offs of {@code pools} still in force at {@code now}, pool by pool in the order given. */
    public static List<Held> of(NodeClaimStore store, Collection<String> pools, Instant now) {
        List<Held> out = new ArrayList<>();
        for (String pool : pools) {
            for (String kind : List.of(PoolBackoff.DRIFT, PoolBackoff.REBALANCE, PoolBackoff.CONSOLIDATION)) {
                new PoolBackoff(store, kind).until(pool).filter(now::isBefore).ifPresent(until -> out.add(new Held(pool,
                        kind.equals(PoolBackoff.CONSOLIDATION) ? "consolidation launches" : kind, until)));
            }
        }
        return out;
    }
}
