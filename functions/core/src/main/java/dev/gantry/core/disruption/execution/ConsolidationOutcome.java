package dev.gantry.core.disruption.execution;

/**
 * What one consolidation message did.
 *
 * @param what           ignored (stale or duplicate), waiting, launching, handed, aborted
 * @param detail         a human line: why it aborted, what it handed over
 * @param savingsPerHour on handover, the command's planned saving in $/h
 */
public record ConsolidationOutcome(String command, What what, String detail, double savingsPerHour) {
    public enum What { IGNORED, WAITING, LAUNCHING, HANDED, ABORTED }

    static ConsolidationOutcome ignored(String command, String why) {
        return new ConsolidationOutcome(command, What.IGNORED, why, 0);
    }
}
