package dev.gantry.core.lifecycle;

import dev.gantry.core.model.Pod;
import java.time.Instant;

/**
 * Tells the provisioner to look at the cluster now (the provisioning FIFO queue in production). A hint is only a
 * nudge: the provisioner always re-reads the cluster, so a lost or duplicated hint costs latency, never correctness.
 * Implementations send a provisioning hint ({@code ProvisioningHint}: {@code reason}, the pod's namespace, name and
 * uid, or the node's name, and {@code at}); failures are unchecked and retryable.
 */
@FunctionalInterface
public interface ProvisioningHints {
    /** Reasons the lifecycle sends (a subset of the hint format's). */
    String BACKSTOP = "backstop";
    String INTERRUPTION = "interruption";
    String REBALANCE = "rebalance";
    String REPLACEMENT = "replacement";
    String NODE_DELETED = "node-deleted";

    /**
     * The {@link NodeClaimStore#marker marker} holding when the last hint went out: whoever sends or handles a hint
     * writes it, and the sweep's backstop stays quiet while it is recent.
     */
    String LAST_HINT = "last-hint";

    /**
     * @param pod the pod the hint is about, or null when it is about a node ({@code nodeName} then names it)
     */
    void send(String reason, Pod pod, String nodeName, Instant at);
}
