package dev.gantry.simulator.observe;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a spot storm did to pods, for rebalance on versus off (issue #28 §2): the pods moved off nodes that EC2 warned or
 * recommended for rebalance, how many of them moved before their node's interruption warning, and how many moved twice
 * (an evicted pod's successor evicted again).
 */
public final class RebalanceTally {
    private final Map<String, Instant> warnedAt = new HashMap<>();
    private final Set<String> recommended = new HashSet<>();
    private final Set<String> successors = new HashSet<>();
    private int moved;
    private int movedBeforeWarning;
    private int movedTwice;

    /** EC2 sent a rebalance recommendation for the instance behind {@code node}. */
    public void recommended(String node) {
        if (node != null) {
            recommended.add(node);
        }
    }

    /** EC2 sent the two-minute warning for the instance behind {@code node} (the first one counts). */
    public void warned(String node, Instant at) {
        if (node != null) {
            warnedAt.putIfAbsent(node, at);
        }
    }

    /** A pod was evicted from {@code node}; {@code uid} is its uid. */
    void evicted(String uid, String node, Instant at) {
        if (node == null || !(recommended.contains(node) || warnedAt.containsKey(node))) {
            return;
        }
        moved++;
        Instant w = warnedAt.get(node);
        if (w == null || at.isBefore(w)) {
            movedBeforeWarning++;
        }
        if (successors.contains(uid)) {
            movedTwice++;
        }
    }

    /** A pod was created as the successor of an evicted pod. */
    void successor(String uid) {
        successors.add(uid);
    }

    public int moved() {
        return moved;
    }

    public int movedBeforeWarning() {
        return movedBeforeWarning;
    }

    public int movedTwice() {
        return movedTwice;
    }

    public boolean any() {
        return !recommended.isEmpty() || !warnedAt.isEmpty();
    }
}
