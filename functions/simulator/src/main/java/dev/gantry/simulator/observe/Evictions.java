package dev.gantry.simulator.observe;

import dev.gantry.core.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Evicted pods and the pods their controllers create in their place. A Deployment or StatefulSet replaces an evicted
 * pod with a new one (a new name and uid): the controller's next new pod after an eviction is that eviction's
 * <em>successor</em>, first come first matched. An eviction <em>waited for capacity</em> when its successor was
 * marked unschedulable by kube-scheduler (no Ready node had room for it), the figure
 * {@code evictionsWaitedForCapacity}.
 *
 * <p>The invariant <b>evictedBeforeReplacementReady</b>: a drain that may wait for its replacement (expiry,
 * consolidation, a rebalance recommendation; not a reclaim with a hard deadline) must not evict a pod while the
 * capacity launched for it is still booting. Judged when the successor waits for capacity: the eviction had a
 * replacement (another claim launched for the evicted pod, or its consolidation command's replacement) whose node was
 * not Ready when the pod was evicted, and the drain had begun less than {@link #WAIT_LIMIT} before (after that the
 * drain gives up waiting, as Gantry's does). Pods of standalone workloads have no successor and are not judged.
 */
final class Evictions {
    /** The reasons whose drain waits for its replacement (the others have a deadline, or nothing to wait for). */
    static final Set<String> REPLACE_FIRST = Set.of("expired", "underutilized", "empty", "rebalance");
    /** Gantry's {@code TerminationDecision.REPLACEMENT_WAIT_LIMIT}, as a literal: a longer wait in Gantry is still judged. */
    static final Duration WAIT_LIMIT = Duration.ofMinutes(10);
    private static final Set<String> CONTROLLED = Set.of("ReplicaSet", "StatefulSet");

    /**
     * One eviction.
     *
     * @param reason   the deletion reason of the evicted pod's node's claim, or null
     * @param drainFor how long the node's drain had been under way when the pod was evicted
     * @param booting  replacements launched for the pod whose node was not Ready at the eviction
     */
    record Eviction(String pod, String node, Instant at, String reason, Duration drainFor, List<String> booting) {
        boolean judged() {
            return reason != null && REPLACE_FIRST.contains(reason) && drainFor.compareTo(WAIT_LIMIT) < 0 && !booting.isEmpty();
        }
    }

    private final Map<String, ArrayDeque<Eviction>> unmatched = new HashMap<>();
    private final Map<String, Eviction> successors = new HashMap<>();
    /** Evictions whose successor waited for capacity. */
    int waited;
    /** The same, by the evicted pod's node's claim's deletion reason ("none" without one): which path drained early. */
    final Map<String, Integer> waitedByReason = new java.util.TreeMap<>();
    /** Pods moved by a spot storm, before or after their node's warning, and moved twice ({@link RebalanceTally}). */
    final RebalanceTally tally = new RebalanceTally();

    private static Optional<String> owner(Pod p) {
        return CONTROLLED.contains(p.ownerKind()) && p.ownerName() != null
                ? Optional.of(p.namespace() + "/" + p.ownerName()) : Optional.empty();
    }

    void evicted(Pod pod, Eviction e) {
        owner(pod).ifPresent(o -> unmatched.computeIfAbsent(o, k -> new ArrayDeque<>()).add(e));
        tally.evicted(pod.uid(), e.node(), e.at());
    }

    /** A pod was created: the successor of its controller's oldest unmatched eviction, if any. */
    void created(Pod p) {
        owner(p).map(unmatched::get).map(ArrayDeque::poll).ifPresent(e -> {
            successors.put(p.uid(), e);
            tally.successor(p.uid());
        });
    }

    /**
     * kube-scheduler found no room for a pod: if it is an eviction's successor (counted once), that eviction, which
     * waited for capacity.
     */
    Optional<Eviction> unschedulable(Pod p) {
        Eviction e = successors.remove(p.uid());
        if (e != null) {
            waited++;
            waitedByReason.merge(e.reason() == null ? "none" : e.reason(), 1, Integer::sum);
        }
        return Optional.ofNullable(e);
    }

    /** The successor was bound or deleted: it no longer waits. */
    void gone(Pod p) {
        successors.remove(p.uid());
    }
}
