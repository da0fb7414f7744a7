package dev.gantry.cli;

import dev.gantry.core.scheduling.Scheduler;
import java.io.PrintWriter;

/**
 * One spelling of the strategy flag for {@code plan} and {@code consolidate}: {@code gantry} or {@code karpenter}
 * (Karpenter's own algorithm, as the deploy option {@code consolidationStrategy=karpenter} and a scenario's
 * {@code consolidation: {strategy: karpenter}} spell it). {@code plan} still accepts its older {@code karpenter-greedy},
 * with a deprecation note.
 */
final class Strategies {
    private Strategies() {
    }

    /** {@code plan --strategy}. @throws IllegalArgumentException naming the accepted values */
    static Scheduler.Strategy plan(String s, PrintWriter err) {
        return switch (s) {
            case "gantry" -> Scheduler.Strategy.GANTRY;
            case "karpenter" -> Scheduler.Strategy.KARPENTER_GREEDY;
            case "karpenter-greedy" -> {
                err.println("warning: --strategy karpenter-greedy is deprecated: write --strategy karpenter");
                yield Scheduler.Strategy.KARPENTER_GREEDY;
            }
            default -> throw new IllegalArgumentException("'" + s + "' is not a strategy (gantry, karpenter)");
        };
    }
}
