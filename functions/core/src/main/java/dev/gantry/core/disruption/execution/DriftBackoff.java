package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Per-NodePool back-off of drift (Gantry's answer to Karpenter's {@code designs/drift-per-nodepool-backoff.md}, which
 * keeps it in memory): a pool whose drift replacement failed (launch failed, insufficient capacity, or never
 * initialized) starts no drift command for {@link #FIRST}, then twice its last back-off for each failure that follows
 * within {@link #FORGET_AFTER} of the last back-off's end, at most {@link #MAX}; other pools keep rolling. Kept in the
 * claim store's markers, since the sweep keeps nothing between runs: {@code drift-backoff-from/<pool>} and
 * {@code drift-backoff-until/<pool>} (last write wins; a failure told twice doubles one back-off more, which errs on
 * the careful side).
 */
final class DriftBackoff {
    static final Duration FIRST = Duration.ofMinutes(1);
    static final Duration MAX = Duration.ofMinutes(30);
    static final Duration FORGET_AFTER = Duration.ofHours(1);

    private final NodeClaimStore store;

    DriftBackoff(NodeClaimStore store) {
        this.store = store;
    }

    /** The pool's drift replacement failed at {@code now}: returns until when it backs off. */
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
    java.util.function.Predicate<String> at(Instant now) {
        Map<String, Boolean> seen = new HashMap<>();
        return pool -> seen.computeIfAbsent(pool, p -> store.marker(untilKey(p)).map(now::isBefore).orElse(false));
    }

    private static String fromKey(String pool) {
        return "drift-backoff-from/" + pool;
    }

    private static String untilKey(String pool) {
        return "drift-backoff-until/" + pool;
    }
}
