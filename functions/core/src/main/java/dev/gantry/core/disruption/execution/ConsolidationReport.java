package dev.gantry.core.disruption.execution;

import dev.gantry.core.disruption.consolidation.Verdict;
import java.util.List;

/**
 * What the sweep's consolidation step did, for the log line, metrics and the simulator's timeline.
 *
 * @param candidates     managed nodes the engine considered (with a verdict or in the command)
 * @param decided        a command was decided and started (0 or 1)
 * @param savingsPerHour the started command's planned saving in $/h (0 without one)
 * @param started        the started command's one-line description, or null
 * @param skipped        why no decision was made this sweep (a command under way…), or null
 * @param verdicts       why each node not in the command stays
 * @param podEvents      claims whose pod set changed since the last sweep
 * @param resumed        commands stalled and sent their next message again, or cleaned up
 * @param millis         the decision's duration
 */
public record ConsolidationReport(int candidates, int decided, double savingsPerHour, String started, String skipped,
                                  List<Verdict> verdicts, int podEvents, int resumed, long millis) {
    public static final ConsolidationReport NONE = new ConsolidationReport(0, 0, 0, null, "consolidation not wired", List.of(), 0, 0, 0);

    public ConsolidationReport {
        verdicts = List.copyOf(verdicts);
    }

    /** One short line (the verdicts only counted: there is one per node). */
    @Override
    public String toString() {
        return "consolidation[candidates=" + candidates + ", decided=" + decided + ", savingsPerHour="
                + String.format(java.util.Locale.ROOT, "%.4f", savingsPerHour) + (started == null ? "" : ", " + started)
                + (skipped == null ? "" : ", skipped: " + skipped) + ", kept=" + verdicts.size() + ", podEvents=" + podEvents
                + ", resumed=" + resumed + ", millis=" + millis + "]";
    }
}
