package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.util.Map;

/**
 * "Continue terminating claim X" messages: each runs one bounded slice of the termination flow, which re-enqueues
 * itself with a delay until the flow finishes. A failed slice fails only its record (SQS redelivers it; slices are
 * idempotent). Emits NodesTerminated when a flow finishes.
 */
public final class TerminationQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    private final TerminationService service;
    private final TerminationCodec codec;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    /** Kept so CRaC's weak reference to the hooks lives as long as the handler; null when built directly (tests). */
    @SuppressWarnings("unused")
    private SnapStartHooks hooks;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public TerminationQueueHandler() {
        this(Composition.fromSystem());
    }

    private TerminationQueueHandler(Composition c) {
        this(c.termination(), new TerminationCodec(c.json()), new EmbeddedMetrics(c.json(), c.clusterName(), System.out), c.clock());
        this.hooks = SnapStartHooks.register(ProvisionerPrimer.of(c));
    }

    public TerminationQueueHandler(TerminationService service, TerminationCodec codec, EmbeddedMetrics metrics, Clock clock) {
        this.service = service;
        this.codec = codec;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        return SqsRecords.eachIndependently("termination", event,
                m -> countIfFinished(metrics, clock, service.slice(codec.decode(m.getBody()))));
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
