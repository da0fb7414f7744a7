package dev.gantry.core.lifecycle;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A consolidation command in progress, as the claims it concerns record it. Every candidate claim and every
 * replacement claim carries the same command id; the <em>leader</em> (the first candidate) carries the authoritative
 * phase and step, the others only point to it. A follower whose leader no longer carries the id (written first, then
 * the leader: a crash in between) belongs to no command and is cleared by the sweep.
 *
 * @param command      the command's id (also the replacements' name prefix)
 * @param leader       the claim carrying the authoritative phase
 * @param phase        where the command is
 * @param step         counts the command's messages: a message for an earlier step is a duplicate and does nothing
 * @param candidates   the claims to remove, leader first
 * @param nodes        their nodes, in the same order
 * @param replacements the replacement claims' names (known once validation passed)
 * @param reason       the budget reason: {@code empty} or {@code underutilized}
 * @param priceBefore  the candidates' $/h when decided
 * @param plannedPrice the replacements' planned $/h (0 for a delete): validation aborts above it
 * @param validateAt   when validation is due (decision + Karpenter's 15 s {@code commandValidationDelay})
 * @param deadline     after this the command gives up (replacements not initialized in time)
 * @param updatedAt    when the leader last moved on: the sweep resumes a command stalled well past it
 */
public record ConsolidationMark(String command, String leader, Phase phase, int step, List<String> candidates,
                                List<String> nodes, List<String> replacements, String reason, double priceBefore,
                                double plannedPrice, Instant validateAt, Instant deadline, Instant updatedAt) {
    public ConsolidationMark {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(leader, "leader");
        Objects.requireNonNull(phase, "phase");
        candidates = List.copyOf(candidates == null ? List.of() : candidates);
        nodes = List.copyOf(nodes == null ? List.of() : nodes);
        replacements = List.copyOf(replacements == null ? List.of() : replacements);
    }

    public enum Phase {
        /** Decided; waiting for the validation message. */
        Validating,
        /** Validated: candidates tainted, replacements launching; waiting until they initialize. */
        Launching,
        /**
         * Every replacement is up and the candidates go to the termination flow: written before the first is handed
         * over, so a hand-off cut short is finished (by a redelivery or the sweep), never aborted.
         */
        Handed,
        /** Given up (validation failed, a replacement failed or timed out): candidates untainted. */
        Aborted;

        /** Still under way: its candidates count as disrupting, and no other command starts. */
        public boolean active() {
            return this == Validating || this == Launching;
        }
    }

    public boolean isLeader(String claim) {
        return leader.equals(claim);
    }

    /**
     * The first of this command's replacements that is gone or being deleted, each looked up by name in {@code claims}:
     * one that failed to launch (closed as out of capacity, say) or was deleted before it initialized. The command is
     * then lost whatever else happens: its next look aborts it ({@code ReplacementWait}), and its candidates stay.
     */
    public Optional<String> failedReplacement(Function<String, Optional<NodeClaim>> claims) {
        for (String name : replacements) {
            Optional<NodeClaim> r = claims.apply(name);
            if (r.isEmpty() || r.get().state().isDeleting()) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /** The leader's next phase, its step counted on. */
    public ConsolidationMark next(Phase p, List<String> replacementClaims, Instant until, Instant now) {
        return new ConsolidationMark(command, leader, p, step + 1, candidates, nodes, replacementClaims, reason, priceBefore,
                plannedPrice, validateAt, until, now);
    }
}
