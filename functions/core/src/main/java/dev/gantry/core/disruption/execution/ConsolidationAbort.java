package dev.gantry.core.disruption.execution;

import dev.gantry.core.lifecycle.NodeClaim;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a consolidation command was given up, with the detail its line names. {@link #text()} is the line written to the
 * journal, the log and the message's outcome.
 *
 * @param reason what went wrong
 * @param detail what it concerns: a claim's name, the nodes that would go instead, an error's class; null when the
 *               reason says it all
 */
public record ConsolidationAbort(Reason reason, String detail) {
    public enum Reason {
        /** The leader is being deleted by another flow. Detail: the leader's name. */
        CANDIDATE_DELETING,
        /** At validation, a candidate is gone, deleting, or no longer carries the command. Detail: its name. */
        CANDIDATE_CHANGED,
        /** The command was not over within {@link ConsolidationService#COMMAND_TIMEOUT} of its validation. */
        COMMAND_TIMED_OUT,
        /** At validation, the buffers could not be read. Detail: the error's class. */
        BUFFERS_UNREADABLE,
        /** At validation, deciding again on the command's nodes finds nothing worth doing. */
        NO_LONGER_WORTH_IT,
        /**
         * At validation of a drift command, its node is no longer drifted, no longer within the Drifted budget, or its
         * pods no longer fit anywhere.
         */
        NO_LONGER_DRIFTED,
        /** At validation, other nodes would go now. Detail: those nodes. */
        OTHER_NODES,
        /** At validation, the replacement costs more than planned. Detail: the new and the planned $/h. */
        COSTLIER_REPLACEMENT,
        /** A replacement is gone or deleting. Detail: its name, then (when deleting) why, in parentheses. */
        REPLACEMENT_FAILED,
        /** The replacements did not initialize within {@link ConsolidationService#LAUNCH_TIMEOUT}. */
        REPLACEMENTS_LATE
    }

    public ConsolidationAbort {
        Objects.requireNonNull(reason, "reason");
    }

    static ConsolidationAbort candidateDeleting(String claim) {
        return new ConsolidationAbort(Reason.CANDIDATE_DELETING, claim);
    }

    static ConsolidationAbort candidateChanged(String claim) {
        return new ConsolidationAbort(Reason.CANDIDATE_CHANGED, claim);
    }

    static ConsolidationAbort timedOut() {
        return new ConsolidationAbort(Reason.COMMAND_TIMED_OUT, null);
    }

    static ConsolidationAbort buffersUnreadable(RuntimeException e) {
        return new ConsolidationAbort(Reason.BUFFERS_UNREADABLE, e.getClass().getSimpleName());
    }

    static ConsolidationAbort noLongerWorthIt() {
        return new ConsolidationAbort(Reason.NO_LONGER_WORTH_IT, null);
    }

    static ConsolidationAbort noLongerDrifted() {
        return new ConsolidationAbort(Reason.NO_LONGER_DRIFTED, null);
    }

    static ConsolidationAbort otherNodes(List<String> nodes) {
        return new ConsolidationAbort(Reason.OTHER_NODES, nodes.toString());
    }

    static ConsolidationAbort costlier(double pricePerHour, double plannedPerHour) {
        return new ConsolidationAbort(Reason.COSTLIER_REPLACEMENT,
                String.format("$%.4f/h, more than the planned $%.4f/h", pricePerHour, plannedPerHour));
    }

    /** @param found the replacement as read (deleting), or empty when it is gone */
    static ConsolidationAbort replacementFailed(String claim, Optional<NodeClaim> found) {
        return new ConsolidationAbort(Reason.REPLACEMENT_FAILED, claim + found.map(c -> " (" + c.deletionReason() + ")").orElse(""));
    }

    static ConsolidationAbort replacementsLate() {
        return new ConsolidationAbort(Reason.REPLACEMENTS_LATE, null);
    }

    /** The line that tells it, as NodeClaim records, events, logs and the simulator's journal carry it. */
    public String text() {
        return switch (reason) {
            case CANDIDATE_DELETING -> "candidate nodeclaim/" + detail + " is being deleted";
            case CANDIDATE_CHANGED -> "candidate nodeclaim/" + detail + " changed";
            case COMMAND_TIMED_OUT -> "not over within " + minutes(ConsolidationService.COMMAND_TIMEOUT) + "m of its validation";
            case BUFFERS_UNREADABLE -> "validation failed: the buffers could not be read (" + detail + ")";
            case NO_LONGER_WORTH_IT -> "validation failed: no longer worth it (pods or budgets changed)";
            case NO_LONGER_DRIFTED -> "validation failed: no longer drifted, within its budget, or its pods placeable";
            case OTHER_NODES -> "validation failed: other nodes would go now: " + detail;
            case COSTLIER_REPLACEMENT -> "validation failed: the replacement now costs " + detail;
            case REPLACEMENT_FAILED -> {
                int why = detail.indexOf(' '); // a claim name has no space: what follows it is the deletion reason
                yield why < 0 ? "replacement nodeclaim/" + detail + " failed"
                        : "replacement nodeclaim/" + detail.substring(0, why) + " failed" + detail.substring(why);
            }
            case REPLACEMENTS_LATE -> "replacements not initialized within " + minutes(ConsolidationService.LAUNCH_TIMEOUT) + "m";
        };
    }

    private static long minutes(Duration d) {
        return d.toMinutes();
    }
}
