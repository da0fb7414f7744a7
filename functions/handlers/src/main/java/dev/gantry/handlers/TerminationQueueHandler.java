package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.disruption.execution.ConsolidationOutcome;
import dev.gantry.core.disruption.execution.ConsolidationRequest;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.termination.TerminationRequest;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.work.Redelivery;
import dev.gantry.core.work.WorkQueue;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import dev.gantry.core.config.ConfigBound;

/**
 * "Continue terminating claim X" messages: each runs one bounded slice of the termination flow, which re-enqueues
 * itself with a delay until the flow finishes. A failed slice fails only its record (SQS redelivers it; slices are
 * idempotent), and its redelivery is brought forward to {@link ProvisioningQueueHandler#retryDelay a backed-off few
 * seconds} (ChangeMessageVisibility) instead of the queue's 6-minute visibility timeout: a slice that finishes the
 * flow sends no next message, so when its TerminateInstances was throttled, only this redelivery carries the flow on
 * (found by the simulator's stuck-claim invariant: a node deleted during a 30% EC2 throttle stayed Draining, and
 * billing, for five minutes). The records of a batch run one after another, so once a slice taking {@link #RESERVE} would
 * end past the invocation's {@link InvocationBudget usable share} (70% of its time), the rest are sent to the queue again
 * (at once) and acknowledged, for the next invocation: a slice is never cut off by the timeout, and the invocation
 * keeps 30% of it to spare. Emits NodesTerminated when a flow finishes.
 */
public final class TerminationQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    /**
     * A slice's worst case (50 eviction calls and its reads) with margin: no slice starts later than this before the
     * end of the invocation's usable 70% (42 s of the function's 60 s timeout).
     */
    public static final Duration RESERVE = Duration.ofSeconds(15);

    /** The service over the cluster's configuration when the invocation starts ({@link ConfigBound}). */
    private final Supplier<TerminationService> services;
    private final TerminationCodec codec;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    private final WorkQueue requeue;
    private final Duration reserve;
    private Supplier<ConsolidationService> consolidation;
    private final Redelivery redelivery;
    /** Kept so CRaC's weak reference to the hooks lives as long as the handler; null when built directly (tests). */
    @SuppressWarnings("unused")
    private SnapStartHooks hooks;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public TerminationQueueHandler() {
        this(Composition.fromSystem().withClients());
    }

    private TerminationQueueHandler(Composition c) {
        this(() -> c.services().get().termination(), new TerminationCodec(c.json()), new EmbeddedMetrics(c.json(), c.clusterName(), System.out), c.clock(),
                c.terminationQueue(), RESERVE, c.terminationRedelivery());
        this.consolidation = () -> c.services().get().consolidation();
        this.hooks = SnapStartHooks.register(ProvisionerPrimer.of(c));
    }

    /** Without a time budget: every record of a batch runs (direct calls, tests). */
    public TerminationQueueHandler(TerminationService service, TerminationCodec codec, EmbeddedMetrics metrics, Clock clock) {
        this(service, codec, metrics, clock, null, RESERVE);
    }

    /** @param requeue the termination queue, for the records a short invocation leaves for the next */
    public TerminationQueueHandler(TerminationService service, TerminationCodec codec, EmbeddedMetrics metrics, Clock clock,
                                   WorkQueue requeue, Duration reserve) {
        this(service, codec, metrics, clock, requeue, reserve, Redelivery.NONE);
    }

    /**
     * @param redelivery the termination queue's ChangeMessageVisibility: a failed slice comes back in seconds, not after
     *                   the queue's six-minute visibility timeout (a spot drain has two), and a batch is held only for
     *                   this invocation's remaining time ({@link SqsRecords})
     */
    public TerminationQueueHandler(TerminationService service, TerminationCodec codec, EmbeddedMetrics metrics, Clock clock,
                                   WorkQueue requeue, Duration reserve, Redelivery redelivery) {
        this(ConfigBound.fixed(service), codec, metrics, clock, requeue, reserve, redelivery);
    }

    /**
     * @param services asked once per invocation, at its first record: the service over the cluster's configuration then
     *                 ({@link ConfigBound}); when it throws, each record fails and is redelivered
     */
    public TerminationQueueHandler(Supplier<TerminationService> services, TerminationCodec codec, EmbeddedMetrics metrics,
                                   Clock clock, WorkQueue requeue, Duration reserve, Redelivery redelivery) {
        this.redelivery = redelivery;
        this.services = services;
        this.codec = codec;
        this.metrics = metrics;
        this.clock = clock;
        this.requeue = requeue;
        this.reserve = reserve;
    }

    /**
     * The consolidation steps this queue also carries ({@code {"consolidation":…}} messages); without it they are
     * rejected as malformed.
     */
    public TerminationQueueHandler withConsolidation(ConsolidationService service) {
        return withConsolidation(ConfigBound.fixed(service));
    }

    /** As {@link #withConsolidation(ConsolidationService)}, the service asked once per invocation ({@link ConfigBound}). */
    public TerminationQueueHandler withConsolidation(Supplier<ConsolidationService> services) {
        this.consolidation = services;
        return this;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        InvocationBudget budget = InvocationBudget.of(context, clock);
        Supplier<TerminationService> service = OncePerInvocation.of(services);
        Supplier<ConsolidationService> consolidation = this.consolidation == null ? null : OncePerInvocation.of(this.consolidation);
        return SqsRecords.eachIndependently("termination", event, context, redelivery, m -> {
            if (codec.isConsolidation(m.getBody())) {
                ConsolidationRequest step = codec.decodeConsolidation(m.getBody());
                if (consolidation == null) {
                    throw new dev.gantry.config.codec.MalformedMessage("consolidation messages are not handled here", null);
                }
                if (requeue != null && budget.tooLateFor(reserve)) {
                    requeue.send(step.toJson(), null, null, Duration.ZERO);
                    return;
                }
                consolidated(consolidation.get().advance(step));
                return;
            }
            TerminationRequest request = codec.decode(m.getBody());
            if (requeue != null && budget.tooLateFor(reserve)) {
                // Same claim and step: if this message is delivered again as well, only one of the two runs.
                requeue.send(request.toJson(), null, null, Duration.ZERO);
                System.out.println("termination: message " + m.getMessageId() + " left for the next invocation");
                return;
            }
            countIfFinished(metrics, clock, service.get().slice(request));
        });
    }

    private void consolidated(ConsolidationOutcome o) {
        if (o.what() == ConsolidationOutcome.What.IGNORED || o.what() == ConsolidationOutcome.What.WAITING) {
            return;
        }
        System.out.println("consolidation: command " + o.command() + " " + o.what().name().toLowerCase(java.util.Locale.ROOT)
                + ": " + o.detail());
        if (metrics == null) {
            return;
        }
        switch (o.what()) {
            case HANDED -> metrics.emit(clock.instant(), Map.of(), Map.of("ConsolidationCommandsExecuted", 1.0,
                    "ConsolidationSavingsPerHourUsd", o.savingsPerHour()));
            case ABORTED -> metrics.emit(clock.instant(), Map.of(), Map.of("ConsolidationCommandsAborted", 1.0));
            default -> { }
        }
    }

    /** Counts a flow that finished in this slice as NodesTerminated, by its reason (the dashboard's dimension). */
    static void countIfFinished(EmbeddedMetrics metrics, Clock clock, TerminationService.Slice s) {
        if (s.finished() && !s.commands().isEmpty()) {
            metrics.emit(clock.instant(), reasonOf(s), Map.of("NodesTerminated", 1.0));
        }
    }

    /** The dashboard's "terminations by reason" dimension. */
    static Map<String, String> reasonOf(TerminationService.Slice s) {
        return Map.of("Reason", s.reason() == null ? "unknown" : s.reason());
    }
}
