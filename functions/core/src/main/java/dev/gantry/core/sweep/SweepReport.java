package dev.gantry.core.sweep;

import dev.gantry.core.disruption.execution.ConsolidationReport;
import dev.gantry.core.status.PoolCost;
import java.util.Map;

/**
 * What one sweep did, for the log line, the metrics and tests.
 *
 * @param terminatedByReason instances this sweep terminated, by reason (gc, liveness, emptiness, expiry…); a drain
 *                           the sweep only started is counted by the termination handler when it finishes
 * @param hourlyCost         what Gantry's instances cost per hour now: the price of every claim not yet terminated
 * @param drainsResumed      deleting claims whose termination flow had stalled and was sent its next message again
 * @param consolidation      what the consolidation step did ({@link ConsolidationReport#NONE} when it is not wired)
 * @param costByPool         each pool's cost per hour now ({@link PoolCost}: recomputed from the claims, never negative);
 *                           {@code hourlyCost} is their sum
 */
public record SweepReport(int registered, int initialized, int leakedTerminated, int claimsFinished, int deletedNodesStarted,
                          boolean backstopHint, int emptinessMarks, int disrupted, Map<String, Integer> terminatedByReason,
                          double hourlyCost, int drainsResumed, ConsolidationReport consolidation,
                          Map<String, PoolCost> costByPool) {
    public SweepReport {
        terminatedByReason = Map.copyOf(terminatedByReason);
        costByPool = Map.copyOf(costByPool == null ? Map.of() : costByPool);
        consolidation = consolidation == null ? ConsolidationReport.NONE : consolidation;
    }

    public SweepReport(int registered, int initialized, int leakedTerminated, int claimsFinished, int deletedNodesStarted,
                       boolean backstopHint, int emptinessMarks, int disrupted, Map<String, Integer> terminatedByReason,
                       double hourlyCost, int drainsResumed) {
        this(registered, initialized, leakedTerminated, claimsFinished, deletedNodesStarted, backstopHint, emptinessMarks,
                disrupted, terminatedByReason, hourlyCost, drainsResumed, ConsolidationReport.NONE, Map.of());
    }
}
