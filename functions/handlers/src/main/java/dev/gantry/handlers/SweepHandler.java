package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.gantry.core.sweep.SweepReport;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import dev.gantry.core.config.ConfigBound;

/**
 * The scheduled sweep (an EventBridge schedule, rate 1 minute). The input is read as a plain map so that the same
 * function also takes {@code {"finalSweep":true}} from {@code cdk destroy}, which terminates every instance Gantry
 * launched. Failures propagate: the next scheduled run is the retry.
 */
public final class SweepHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    /**
     * Drains the sweep starts run their first slice inline only while one taking this long would end inside the
     * invocation's usable 70% ({@link InvocationBudget}: 35 s of the function's 50 s timeout); later ones are queued for
     * the termination handler.
     */
    public static final java.time.Duration RESERVE = java.time.Duration.ofSeconds(20);
    /**
     * No disruption (expiry, emptiness) is started, not even marked and queued, once the usable 70% has less than this
     * left: what follows it in a sweep (the consolidation step, the last store read, the template clean-up) must still
     * end inside the budget, even when 500 nodes expire at once (starting them all would take a sweep past 70% of
     * its timeout). The disruptions left are decided again by the next sweep.
     */
    public static final java.time.Duration START_RESERVE = java.time.Duration.ofSeconds(10);

    /** The run's service, over the cluster's configuration when the run starts ({@link ConfigBound}). */
    private final Supplier<SweepService> services;
    /** The final sweep's service: it needs no configuration, so a cluster that cannot be read does not stop it. */
    private Supplier<SweepService> finalSweeps;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    private final IntSupplier collectLaunchTemplates;
    /** The lists each sweep reads once between writes ({@link InvocationScope#sweeps}); null when built without a scope. */
    private InvocationReads reads;
    /** Kept so CRaC's weak reference to the hooks lives as long as the handler; null when built directly (tests). */
    @SuppressWarnings("unused")
    private SnapStartHooks hooks;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public SweepHandler() {
        this(Composition.fromSystem().withClients());
    }

    private SweepHandler(Composition c) {
        this(() -> c.services().get().sweep(), new EmbeddedMetrics(c.json(), c.clusterName(), System.out), c.clock(),
                c::collectLaunchTemplates);
        this.finalSweeps = c::finalSweep;
        c.scope().sweeps(this);
        this.hooks = SnapStartHooks.register(ProvisionerPrimer.of(c));
    }

    public SweepHandler(SweepService service) {
        this(service, null, Clock.systemUTC());
    }

    /** @param metrics where NodesTerminated goes for the instances the sweep itself terminated; null for none */
    public SweepHandler(SweepService service, EmbeddedMetrics metrics, Clock clock) {
        this(service, metrics, clock, () -> 0);
    }

    /**
     * @param collectLaunchTemplates the launch template clean-up run after each sweep, returning how many it deleted
     *                               (best effort: a failure is logged and the next sweep tries again)
     */
    public SweepHandler(SweepService service, EmbeddedMetrics metrics, Clock clock, IntSupplier collectLaunchTemplates) {
        this(ConfigBound.fixed(service), metrics, clock, collectLaunchTemplates);
    }

    /**
     * @param services the service of each sweep, asked once per sweep: over the cluster's configuration at its start
     *                 ({@link ConfigBound}); when it throws, the sweep fails and the next scheduled one is the retry
     */
    public SweepHandler(Supplier<SweepService> services, EmbeddedMetrics metrics, Clock clock, IntSupplier collectLaunchTemplates) {
        this.services = services;
        this.finalSweeps = services;
        this.metrics = metrics;
        this.clock = clock;
        this.collectLaunchTemplates = collectLaunchTemplates;
    }

    /** Runs each sweep in {@code reads}' scope; {@link InvocationScope#sweeps} is how a composition root asks for it. */
    SweepHandler within(InvocationReads reads) {
        this.reads = java.util.Objects.requireNonNull(reads, "reads");
        return this;
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> input, Context context) {
        if (input != null && Boolean.TRUE.equals(input.get("finalSweep"))) {
            int n = finalSweeps.get().finalSweep();
            System.out.println("sweep: final sweep terminated " + n + " instances");
            return Map.of("finalSweep", true, "terminated", n);
        }
        InvocationBudget budget = InvocationBudget.of(context, clock);
        Supplier<SweepReport> sweep = () -> services.get().sweep(budget.startBy(RESERVE), budget.startBy(START_RESERVE));
        SweepReport r = reads == null ? sweep.get() : reads.during(sweep);
        System.out.println("sweep: " + r);
        int templatesDeleted = 0;
        try {
            templatesDeleted = collectLaunchTemplates.getAsInt();
        } catch (RuntimeException e) {
            System.out.println("sweep: launch template clean-up failed, the next sweep retries: " + e);
        }
        if (metrics != null) {
            r.terminatedByReason().forEach((reason, n) ->
                    metrics.emit(clock.instant(), Map.of("Reason", reason), Map.of("NodesTerminated", (double) n)));
            metrics.emit(clock.instant(), Map.of(), Map.of("HourlyCostUsd", r.hourlyCost()));
            // One point per pool each sweep, recomputed from the claims (never a running total: it cannot go negative).
            r.costByPool().forEach((pool, cost) -> metrics.emit(clock.instant(), Map.of("NodePool", pool),
                    Map.of("NodePoolCostPerHourUsd", cost.perHour())));
            var c = r.consolidation();
            if (c.skipped() == null || c.decided() > 0) {
                metrics.emit(clock.instant(), Map.of(), Map.of("ConsolidationCandidates", (double) c.candidates(),
                        "ConsolidationDecisions", (double) c.decided(),
                        "ConsolidationPlannedSavingsPerHourUsd", c.savingsPerHour(),
                        "ConsolidationDecisionSeconds", c.millis() / 1000.0));
            }
        }
        if (r.consolidation().started() != null) {
            System.out.println("consolidation: " + r.consolidation().started());
        }
        return Map.of("registered", r.registered(), "initialized", r.initialized(), "leakedTerminated", r.leakedTerminated(),
                "claimsFinished", r.claimsFinished(), "deletedNodesStarted", r.deletedNodesStarted(),
                "backstopHint", r.backstopHint(), "disrupted", r.disrupted(), "launchTemplatesDeleted", templatesDeleted,
                "consolidationDecided", r.consolidation().decided());
    }
}
