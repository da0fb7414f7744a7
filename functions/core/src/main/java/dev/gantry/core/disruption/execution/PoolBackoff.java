package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Per-NodePool exponential back-off of one kind of replacement command, kept in the claim store's markers (the sweep
 * keeps nothing between runs): a pool whose replacement failed (launch
 * failed, out of capacity, or never initialized) starts no command of that kind for {@link #FIRST}, then twice its last
 * back-off for each failure that follows within {@link #FORGET_AFTER} of the last back-off's end, at most {@link #MAX};
 * other pools go on. Markers {@code <kind>-backoff-from/<pool>} and {@code <kind>-backoff-until/<pool>}, last write
 * wins. A failure is told once per command: the abort that tells it moves the command's leader to Aborted first, so a
 * second delivery of that step finds nothing to abort.
 *
 * <p>Three kinds: {@link #DRIFT} (Gantry's answer to Karpenter's {@code designs/drift-per-nodepool-backoff.md}, which keeps
 * it in memory: other pools keep rolling while one backs off), {@link #REBALANCE} (Gantry's own: Karpenter does not
 * handle rebalance recommendations, aws/karpenter-provider-aws#2813) and {@link #CONSOLIDATION} (Gantry's own: a pool
 * whose consolidation replacement failed launches no replacement for a while; consolidation that only deletes goes on).
 * Karpenter tries again on every pass, its ICE cache leaving out only the offerings that failed, so in a shortage across
 * a capacity type it taints a node and launches into the shortage once a pass, each time on offerings not yet tried.
 */
final class PoolBackoff {
    static final Duration FIRST = Duration.ofMinutes(1);
    static final Duration MAX = Duration.ofMinutes(30);
    static final Duration FORGET_AFTER = Duration.ofHours(1);
    /** The kind of drift commands' back-off. */
    static final String DRIFT = "drift";
    /** The kind of rebalance commands' back-off. */
    static final String REBALANCE = "rebalance";
    /** The kind of consolidation replacements' back-off: keyed by the pool the replacement was to launch in. */
    static final String CONSOLIDATION = "consolidation";

    /** The three kinds over one store, as the consolidation service's steps share them. */
    record Kinds(PoolBackoff drift, PoolBackoff rebalance, PoolBackoff consolidation) {
        static Kinds over(NodeClaimStore store) {
            return new Kinds(new PoolBackoff(store, DRIFT), new PoolBackoff(store, REBALANCE), new PoolBackoff(store, CONSOLIDATION));
        }
    }

    private final NodeClaimStore store;
    private final String kind;

    PoolBackoff(NodeClaimStore store, String kind) {
        this.store = store;
        this.kind = kind;
    }

    /** The pool's replacement failed at {@code now}: returns until when the pool backs off. */
    Instant failed(String pool, Instant now) {
        Optional<Instant> from = store.marker(fromKey(pool));
        Optional<Instant> until = store.marker(untilKey(pool));
        Duration last = from.isPresent() && until.isPresent() && now.isBefore(until.get().plus(FORGET_AFTER))
                ? Duration.between(from.get(), until.get()) : Duration.ZERO;
        Duration next = last.isZero() || last.isNegative() ? FIRST : last.multipliedBy(2);
        if (next.compareTo(MAX) > 0) {
            next = MAX;
        }
        Instant end = now.plus(next);
        store.setMarker(fromKey(pool), now);
        store.setMarker(untilKey(pool), end);
        return end;
    }

    /** A reader for one decision: whether a pool is backing off at {@code now}, each pool's marker read once. */
    Predicate<String> at(Instant now) {
        Map<String, Boolean> seen = new HashMap<>();
        return pool -> seen.computeIfAbsent(pool, p -> store.marker(untilKey(p)).map(now::isBefore).orElse(false));
    }

    /** Until when {@code pool} backs off, as last written (it may be past). */
    Optional<Instant> until(String pool) {
        return store.marker(untilKey(pool));
    }

    String kind() {
        return kind;
    }

    private String fromKey(String pool) {
        return kind + "-backoff-from/" + pool;
    }

    private String untilKey(String pool) {
        return kind + "-backoff-until/" + pool;
    }
}
