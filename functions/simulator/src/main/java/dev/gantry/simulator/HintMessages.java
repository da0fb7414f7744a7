package dev.gantry.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.provisioning.WebhookDecision;
import dev.gantry.core.work.WorkQueue;
import java.time.Duration;

/**
 * The webhook's side of the provisioning FIFO queue, as the Lambda does it: the hint in the shared wire format
 * ({@link HintCodec}), group = cluster name, dedup id = reason and bucket ({@link WebhookDecision#deduplicationId}, bucket as deployed). The lifecycle services send
 * through the same {@link dev.gantry.config.codec.QueueHints} the handlers use.
 */
final class HintMessages {
    private static final HintCodec CODEC = new HintCodec(new ObjectMapper());

    private final WorkQueue queue;
    private final String cluster;

    HintMessages(WorkQueue queue, String cluster) {
        this.queue = queue;
        this.cluster = cluster;
    }

    void send(ProvisioningHint hint) {
        queue.send(CODEC.encode(hint), cluster,
                WebhookDecision.deduplicationId(hint, Simulation.DEPLOYED.hintDeduplicationBucket()), Duration.ZERO);
    }

    /** @throws dev.gantry.config.codec.MalformedMessage when the body is not a hint */
    static ProvisioningHint decode(String body) {
        return CODEC.decode(body);
    }

    static HintCodec codec() {
        return CODEC;
    }
}
