package dev.gantry.core.sweep;

import java.util.Map;

/**
 * What one sweep did, for the log line, the metrics and tests.
 *
 * @param terminatedByReason instances this sweep terminated, by reason (gc, liveness, emptiness, expiry…); a drain
 *                           the sweep only started is counted by the termination handler when it finishes
 * @param hourlyCost         what Gantry's instances cost per hour now: the price of every claim not yet terminated
 * @param drainsResumed      deleting claims whose termination flow had stalled and was sent its next message again
 */
public record SweepReport(int registered, int initialized, int leakedTerminated, int claimsFinished, int deletedNodesStarted,
                          boolean backstopHint, int emptinessMarks, int disrupted, Map<String, Integer> terminatedByReason,
                          double hourlyCost, int drainsResumed) {
    public SweepReport {
        terminatedByReason = Map.copyOf(terminatedByReason);
    }
}
