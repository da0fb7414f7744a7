package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.EventBridgeCodec;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import dev.gantry.core.work.Redelivery;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import dev.gantry.core.config.ConfigBound;

/**
 * EC2 and AWS Health events from EventBridge, through a standard SQS queue. Each record is handled on its own: a
 * malformed body, or a failure while acting on it, fails that record alone (SQS retries it, then dead-letters it);
 * the rest of the batch succeeds. Events for instances Gantry does not own are acknowledged with a debug line.
 * Emits InterruptionEvents with dimension Kind, and NodesTerminated when a flow finishes within the message. Each event
 * starts its drain's first slice at once, unless one taking {@link #RESERVE} could end past the invocation's usable
 * share ({@link InvocationBudget}: 70% of its time, 21 s of the function's 30 s timeout): then the
 * claim is marked and the slice queued for the termination handler, so a batch always finishes inside the timeout.
 */
public final class InterruptionQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    /** A first slice's worst case with margin, inside the function's 30 s timeout. */
    public static final Duration RESERVE = Duration.ofSeconds(10);

    /** The service over the cluster's configuration when the invocation starts ({@link ConfigBound}). */
    private final Supplier<InterruptionService> services;
    private final EventBridgeCodec reader;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    private final Redelivery redelivery;
    /** Kept so CRaC's weak reference to the hooks lives as long as the handler; null when built directly (tests). */
    @SuppressWarnings("unused")
    private SnapStartHooks hooks;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public InterruptionQueueHandler() {
        this(Composition.fromSystem().withClients());
    }

    private InterruptionQueueHandler(Composition c) {
        this(() -> c.services().get().interruption(), new EventBridgeCodec(c.json()), new EmbeddedMetrics(c.json(), c.clusterName(), System.out),
                c.clock(), c.interruptionRedelivery());
        this.hooks = SnapStartHooks.register(ProvisionerPrimer.of(c));
    }

    /** Without early redelivery: a failed record waits out the queue's visibility timeout (direct calls, tests). */
    public InterruptionQueueHandler(InterruptionService service, EventBridgeCodec reader, EmbeddedMetrics metrics, Clock clock) {
        this(service, reader, metrics, clock, Redelivery.NONE);
    }

    /**
     * @param redelivery the interruption queue's ChangeMessageVisibility: a failed record comes back in seconds (a
     *                   spot warning is worth two minutes, the queue's visibility timeout is three), and a batch is
     *                   held only for this invocation's remaining time ({@link SqsRecords})
     */
    public InterruptionQueueHandler(InterruptionService service, EventBridgeCodec reader, EmbeddedMetrics metrics, Clock clock,
                                    Redelivery redelivery) {
        this(ConfigBound.fixed(service), reader, metrics, clock, redelivery);
    }

    /**
     * @param services asked once per invocation, at its first record: the service over the cluster's configuration then
     *                 ({@link ConfigBound}); when it throws, each record fails and is redelivered
     */
    public InterruptionQueueHandler(Supplier<InterruptionService> services, EventBridgeCodec reader, EmbeddedMetrics metrics,
                                    Clock clock, Redelivery redelivery) {
        this.services = services;
        this.reader = reader;
        this.metrics = metrics;
        this.clock = clock;
        this.redelivery = redelivery;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        InvocationBudget budget = InvocationBudget.of(context, clock);
        Supplier<InterruptionService> service = OncePerInvocation.of(services);
        return SqsRecords.eachIndependently("interruption", event, context, redelivery, m -> {
            FirstSlice firstSlice = budget.tooLateFor(RESERVE) ? FirstSlice.QUEUED : FirstSlice.INLINE;
            for (InterruptionService.Outcome o : service.get().handle(reader.read(m.getBody()), firstSlice)) {
                o.ignored().forEach(why -> System.out.println("DEBUG interruption: " + m.getMessageId() + " ignored: " + why));
                o.metricKinds().forEach(kind -> metrics.emit(clock.instant(), Map.of("Kind", kind), Map.of("InterruptionEvents", 1.0)));
                // An instance already gone (or a node with nothing to drain) finishes in the first slice, here,
                // and never reaches the termination handler that otherwise counts it.
                o.slice().ifPresent(s -> TerminationQueueHandler.countIfFinished(metrics, clock, s));
            }
        });
    }
}
