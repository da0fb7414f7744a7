package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.ConsolidationMark.Phase;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.work.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where consolidation commands live, shared by every step: their state on their claims ({@link ConsolidationMark}, the
 * leader's authoritative) and their pace in termination-queue messages ({@link ConsolidationRequest}). The leader moves
 * on only by {@link #moveOn}, a conditional write; the followers' marks are written and cleared best-effort, since the
 * sweep's upkeep looks again at any claim whose write lost.
 */
final class CommandStore {
    /** What a conditional write of the leader's next mark came to. */
    enum Write {
        /** Written (or our own write took effect and only its answer was lost). */
        DONE,
        /** Another delivery moved the command on: it carries the command. */
        MOVED_ON,
        /** A write that does not move the command got in first: decide the step again on what the leader is now. */
        AGAIN
    }

    private final NodeClaimStore store;
    private final WorkQueue queue;

    CommandStore(NodeClaimStore store, WorkQueue terminationQueue) {
        this.store = store;
        this.queue = terminationQueue;
    }

    List<NodeClaim> list(Instant now) {
        return store.list(now);
    }

    Optional<NodeClaim> get(String claim, Instant now) {
        return store.get(claim, now);
    }

    /** The mark the claim carries now, or null (no such claim, or no command). */
    ConsolidationMark markOf(String claim, Instant now) {
        return store.get(claim, now).map(NodeClaim::consolidation).orElse(null);
    }

    /** Sends the message for the leader's {@code step} after {@code delay}. */
    void send(String leader, String command, int step, Duration delay) {
        queue.send(new ConsolidationRequest(leader, command, step).toJson(), null, null, delay);
    }

    /**
     * Writes the leader's next mark. On a conflict it re-reads rather than assumes: the mark as written means our own
     * write took effect and only its answer was lost; another mark, that another delivery moved the command on; the
     * same mark, that a write which does not move the command (a pod event, NotReady, a flow starting) got in first.
     * A twin delivery that wrote the very same mark (same step, same instant: common in virtual time, not with a
     * microsecond clock) cannot be told from our own write: both carry on, which is safe, as every effect after the
     * write is idempotent.
     */
    Write moveOn(NodeClaim leader, ConsolidationMark m, ConsolidationMark next, Instant now) {
        try {
            store.update(leader.withConsolidation(next));
            return Write.DONE;
        } catch (NodeClaimStore.Conflict lost) {
            ConsolidationMark fresh = markOf(leader.name(), now);
            if (next.equals(fresh)) {
                return Write.DONE;
            }
            return m.equals(fresh) ? Write.AGAIN : Write.MOVED_ON;
        }
    }

    /**
     * What a step does when its leader write did not go through: null for {@link Write#AGAIN} (decide the step again),
     * else the outcome of a delivery that found the command moved on.
     */
    static ConsolidationOutcome lost(Write w, String command) {
        return w == Write.AGAIN ? null : ConsolidationOutcome.ignored(command, "the leader moved on meanwhile");
    }

    /** Writes {@code mark} on a follower or replacement. */
    void mark(String name, ConsolidationMark mark, Instant now) {
        store.get(name, now).ifPresent(c -> update(c.withConsolidation(mark)));
    }

    /** Clears the claim's mark if it is still the command's. */
    void unmark(String name, String command, Instant now) {
        store.get(name, now).filter(c -> c.consolidation() != null && c.consolidation().command().equals(command))
                .ifPresent(c -> update(c.withConsolidation(null)));
    }

    /** A conditional write that must hold: {@link NodeClaimStore.Conflict} reaches the caller. */
    void write(NodeClaim c) {
        store.update(c);
    }

    /** A best-effort write: one that loses is left to the sweep's upkeep, which looks again. */
    void update(NodeClaim c) {
        try {
            store.update(c);
        } catch (NodeClaimStore.Conflict lost) {
            // moved on meanwhile: the sweep's tidy-up looks again
        }
    }

    /** The commands under way, by id: those whose leader is not deleting and carries an active phase. */
    /** Whether every command under way among {@code active} is a drift or rebalance command (their leaders' marks say so). */
    static boolean onlyDrift(List<NodeClaim> claims, Set<String> active) {
        return claims.stream().map(NodeClaim::consolidation).filter(m -> m != null && active.contains(m.command()))
                .allMatch(m -> CommandStart.DRIFTED.equals(m.reason()) || CommandStart.REBALANCE.equals(m.reason()));
    }

    static Set<String> activeCommands(List<NodeClaim> claims) {
        Set<String> out = new HashSet<>();
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m != null && m.isLeader(c.name()) && m.phase().active() && !c.state().isDeleting()) {
                out.add(m.command());
            }
        }
        return out;
    }

    /** The commands handing over, by id: those whose leader carries phase Handed (its candidates are, or go, deleting). */
    static Set<String> handingCommands(List<NodeClaim> claims) {
        Set<String> out = new HashSet<>();
        for (NodeClaim c : claims) {
            ConsolidationMark m = c.consolidation();
            if (m != null && m.isLeader(c.name()) && m.phase() == Phase.Handed) {
                out.add(m.command());
            }
        }
        return out;
    }
}
