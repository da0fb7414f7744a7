package dev.gantry.core.sweep;

/** What one sweep did, for the log line and tests. */
public record SweepReport(int registered, int initialized, int leakedTerminated, int claimsFinished, int deletedNodesStarted,
                          boolean backstopHint, int emptinessMarks, int disrupted) {
}
