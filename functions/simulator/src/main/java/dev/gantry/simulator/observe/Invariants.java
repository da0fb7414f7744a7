package dev.gantry.simulator.observe;

import dev.gantry.simulator.runtime.VirtualClock;
import dev.gantry.core.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The properties that must hold on every step, counted per kind. A violation is printed with the step and virtual
 * time where it happened; the first few of each kind are kept for the report.
 */
public final class Invariants {
    public static final List<String> KINDS = List.of("limitExceeded", "orphanInstancesAtEnd", "podsOnIncompatibleNodes",
            "pdbViolations", "doNotDisruptEvicted", "duplicateLaunches", "unmanagedInstancesTouched", "stuckClaims",
            "podsKilledWithoutDrain", "leakedInstances", "messagesLost", "disruptionBudgetExceeded", "podsNotPlacedInTime",
            "staleDisruptedTaints", "evictedBeforeReplacementReady",
            "staticCountOffTarget", "staticNodeConsolidated",
            "costLimitExceeded", "badImagePastCanary", RepairChecks.KIND, ReservationCounts.KIND);
    static final int KEPT = 20;

    /** One violation: where, and what. */
    public record Violation(long step, long t, String kind, String message) {
        @Override
        public String toString() {
            return "step " + step + " (t=" + VirtualClock.format(t) + "): " + kind + ": " + message;
        }
    }

    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final List<Violation> kept = new ArrayList<>();
    private final java.util.function.Consumer<Violation> printer;
    private long step;
    private long t;

    public Invariants(java.util.function.Consumer<Violation> printer) {
        this.printer = printer;
        KINDS.forEach(k -> counts.put(k, 0));
    }

    void at(long step, long t) {
        this.step = step;
        this.t = t;
    }

    void violated(String kind, String message) {
        counts.merge(kind, 1, Integer::sum);
        Violation v = new Violation(step, t, kind, message);
        if (kept.stream().filter(x -> x.kind().equals(kind)).count() < KEPT) {
            kept.add(v);
            printer.accept(v);
        }
    }

    void evicting(Pod pod, boolean pdbAllowsIt) {
        if (pod.doNotDisrupt()) {
            violated("doNotDisruptEvicted", "pod " + pod.key() + " has karpenter.sh/do-not-disrupt and was evicted");
        }
        if (!pdbAllowsIt) {
            violated("pdbViolations", "evicting pod " + pod.key() + " takes its PodDisruptionBudget below its minimum");
        }
    }

    public Map<String, Integer> counts() {
        return counts;
    }

    public int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    public List<Violation> kept() {
        return kept;
    }
}
