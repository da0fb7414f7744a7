package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.MalformedMessage;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.provisioning.ProvisioningOutcome;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.crac.Core;
import org.crac.Resource;

/**
 * The provisioner: one FIFO batch of hints (one cluster's group, so never two at once) becomes one provisioning run.
 * A record that is not a hint fails alone; if the run fails, every hint of the batch is reported failed so SQS
 * redelivers it (the run is idempotent, and claims it recorded are resumed). Emits PendingPods,
 * PendingPodAgeSeconds and NodesLaunched as embedded metrics.
 */
public final class ProvisioningQueueHandler implements RequestHandler<SQSEvent, SQSBatchResponse>, Resource {
    private final HintBatchService service;
    private final HintCodec codec;
    private final EmbeddedMetrics metrics;
    private final Clock clock;
    private final SnapStartPrimer primer;

    /** The Lambda entry point: builds every client now, so SnapStart captures them. */
    public ProvisioningQueueHandler() {
        this(Composition.fromSystem());
    }

    private ProvisioningQueueHandler(Composition c) {
        this(c.hintBatches(), new HintCodec(c.json()), new EmbeddedMetrics(c.json(), c.clusterName(), System.out), c.clock(),
                ProvisionerPrimer.of(c));
        Core.getGlobalContext().register(this);
    }

    public ProvisioningQueueHandler(HintBatchService service, HintCodec codec, EmbeddedMetrics metrics, Clock clock,
                                    SnapStartPrimer primer) {
        this.service = service;
        this.codec = codec;
        this.metrics = metrics;
        this.clock = clock;
        this.primer = primer;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        List<ProvisioningHint> hints = new ArrayList<>();
        List<String> hintIds = new ArrayList<>();
        for (SQSEvent.SQSMessage m : event.getRecords() == null ? List.<SQSEvent.SQSMessage>of() : event.getRecords()) {
            try {
                hints.add(codec.decode(m.getBody()));
                hintIds.add(m.getMessageId());
            } catch (MalformedMessage e) {
                System.err.println("provisioner: message " + m.getMessageId() + " is not a hint (" + e.getMessage() + ")");
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        if (!hints.isEmpty()) {
            try {
                report(service.handle(hints));
            } catch (RuntimeException e) {
                System.err.println("provisioner: run failed, batch will be redelivered: " + e);
                hintIds.forEach(id -> failures.add(new SQSBatchResponse.BatchItemFailure(id)));
            }
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    private void report(ProvisioningOutcome o) {
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("PendingPods", (double) o.pendingPods());
        values.put("PendingPodAgeSeconds", (double) o.oldestPendingAge().toSeconds());
        values.put("NodesLaunched", (double) o.launched().size());
        metrics.emit(clock.instant(), Map.of(), values);
        o.launched().forEach(l -> System.out.println("provisioner: launched nodeclaim/" + l.claim() + " " + l.instanceId()
                + " " + l.instanceType() + " " + l.zone() + " " + l.capacityType()));
        o.failed().forEach(f -> System.out.println("provisioner: nodeclaim/" + f.claim() + " failed: " + f.code()));
        if (!o.unschedulable().isEmpty()) {
            System.out.println("provisioner: " + o.unschedulable().size() + " pods unschedulable");
        }
    }

    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        primer.beforeCheckpoint();
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        primer.afterRestore();
    }
}
