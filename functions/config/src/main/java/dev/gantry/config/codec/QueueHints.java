package dev.gantry.config.codec;

import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Pod;
import dev.gantry.core.provisioning.ProvisioningHint;
import dev.gantry.core.work.WorkQueue;
import java.time.Duration;
import java.time.Instant;

/**
 * Sends the lifecycle's hints to the provisioning FIFO queue in the hint format (group = cluster, dedup id from the
 * hint) and records the {@code last-hint} marker the sweep's backstop reads.
 */
public final class QueueHints implements ProvisioningHints {
    private final WorkQueue queue;
    private final HintCodec codec;
    private final NodeClaimStore store;
    private final String cluster;

    public QueueHints(WorkQueue provisioningQueue, HintCodec codec, NodeClaimStore store, String cluster) {
        this.queue = provisioningQueue;
        this.codec = codec;
        this.store = store;
        this.cluster = cluster;
    }

    @Override
    public void send(String reason, Pod pod, String nodeName, Instant at) {
        ProvisioningHint hint = pod != null
                ? new ProvisioningHint(ProvisioningHint.Reason.parse(reason), pod.namespace(), pod.name(), pod.uid(), at)
                : new ProvisioningHint(ProvisioningHint.Reason.parse(reason), "", nodeName == null ? cluster : nodeName,
                        nodeName == null ? cluster : nodeName, at);
        queue.send(codec.encode(hint), cluster, hint.deduplicationId(), Duration.ZERO);
        store.setMarker(ProvisioningHints.LAST_HINT, at);
    }
}
