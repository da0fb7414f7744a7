package dev.gantry.simulator.faults;

import dev.gantry.simulator.runtime.Invocation;
import dev.gantry.simulator.runtime.CallFaults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.LambdaRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A {@link FaultPlan} being carried out: the draws, each kind from its own seeded stream (so switching one fault on
 * shifts no other draw), and the count of what was injected, for the summary. The simulated services ask here
 * before each call; the runtime asks here whether an invocation crashes or hangs at a call.
 */
public final class Faults implements CallFaults {
    private final FaultPlan plan;
    private final Map<String, SplittableRandom> streams = new LinkedHashMap<>();
    private final Map<String, Long> injected = new LinkedHashMap<>();
    private final long seed;
    private LambdaRuntime runtime;

    public Faults(FaultPlan plan, long seed) {
        this.plan = plan;
        this.seed = seed;
    }

    public FaultPlan plan() {
        return plan;
    }

    /** The runtime whose current invocation targeted faults are matched against. */
    public void runtime(LambdaRuntime r) {
        this.runtime = r;
    }

    /** Draws {@code p} from the {@code kind} stream; counts a hit. */
    public boolean draw(String kind, double p) {
        if (p <= 0) {
            return false;
        }
        SplittableRandom r = streams.computeIfAbsent(kind, k -> new SplittableRandom(seed ^ k.hashCode() * 0x9e3779b97f4a7c15L));
        if (r.nextDouble() < p) {
            count(kind);
            return true;
        }
        return false;
    }

    public void count(String kind) {
        injected.merge(kind, 1L, Long::sum);
    }

    /** A seeded stream for choices other than yes/no (which 5xx, when an outage starts). */
    @Override
    public SplittableRandom stream(String kind) {
        return streams.computeIfAbsent(kind, k -> new SplittableRandom(seed ^ k.hashCode() * 0x9e3779b97f4a7c15L));
    }

    /** Whether a targeted {@code error} is due at the current call of the current invocation. */
    public boolean targetedError() {
        Invocation inv = runtime == null ? null : runtime.current();
        if (inv == null) {
            return false;
        }
        for (FaultPlan.Target t : plan.at()) {
            if (t.what().equals("error") && matches(t, inv)) {
                count("targetedError");
                return true;
            }
        }
        return false;
    }

    private static boolean matches(FaultPlan.Target t, Invocation inv) {
        return t.function().equals(inv.function()) && t.invocation() == inv.number() && t.call() == inv.calls();
    }

    @Override
    public CallFaults.Decision decide(Invocation inv, CallKind kind) {
        for (FaultPlan.Target t : plan.at()) {
            if (matches(t, inv)) {
                switch (t.what()) {
                    case "crash" -> {
                        count("crash");
                        return CallFaults.Decision.CRASH;
                    }
                    case "hang" -> {
                        count("hang");
                        return CallFaults.Decision.HANG;
                    }
                    case "freeze" -> {
                        count("freeze");
                        return CallFaults.Decision.FREEZE;
                    }
                    default -> { }
                }
            }
        }
        if (!plan.invocations().functions().isEmpty() && !plan.invocations().functions().contains(inv.function())) {
            return CallFaults.Decision.NONE;
        }
        if (draw("crash", plan.invocations().crash())) {
            return CallFaults.Decision.CRASH;
        }
        if (draw("hang", plan.invocations().hang())) {
            return CallFaults.Decision.HANG;
        }
        return CallFaults.Decision.NONE;
    }

    /** What was injected, by kind, in the order first seen. */
    public Map<String, Long> injected() {
        return injected;
    }
}
