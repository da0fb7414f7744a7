package dev.gantry.core.provisioning;

import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Handles one batch from the provisioning queue. The hints only say that something happened; what to do is decided on
 * a fresh read: when any hint says a node was deleted, every deleted node that still carries Gantry's finalizer is
 * handed to the termination flow (the webhook collapses hints per reason, so a hint's node name is not the list of
 * deleted nodes, and it is not trusted anyway), the newest hint's time is
 * recorded (so the sweep's backstop stays quiet while hints flow), and one provisioning run covers the whole batch.
 */
public final class HintBatchService {
    private final Provisioner provisioner;
    private final ClusterReader reader;
    private final NodeClaimStore store;
    private final Consumer<Node> deletedNodes;
    private final Runnable registerNodes;
    private final Clock clock;

    /** @param deletedNodes starts termination for a node someone deleted (the lifecycle's termination service) */
    public HintBatchService(Provisioner provisioner, ClusterReader reader, NodeClaimStore store, Consumer<Node> deletedNodes,
                            Clock clock) {
        this(provisioner, reader, store, deletedNodes, () -> { }, clock);
    }

    /**
     * @param deletedNodes  starts termination for a node someone deleted (the lifecycle's termination service)
     * @param registerNodes registers nodes that just appeared (the sweep's registration step), run when a batch says
     *                      a node was created, so its labels and finalizer do not wait for the next sweep
     */
    public HintBatchService(Provisioner provisioner, ClusterReader reader, NodeClaimStore store, Consumer<Node> deletedNodes,
                            Runnable registerNodes, Clock clock) {
        this.provisioner = Objects.requireNonNull(provisioner, "provisioner");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.store = Objects.requireNonNull(store, "store");
        this.deletedNodes = Objects.requireNonNull(deletedNodes, "deletedNodes");
        this.registerNodes = Objects.requireNonNull(registerNodes, "registerNodes");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Errors propagate (retryable by the ports' contracts): the caller reports the batch failed so it is redelivered. */
    public ProvisioningOutcome handle(List<ProvisioningHint> hints) {
        return handle(hints, Instant.MAX);
    }

    /**
     * As {@link #handle(List)}, with a run that starts no launch after {@code stopBy} ({@link Provisioner#provision(
     * Instant, Instant)}): when its outcome has {@code deferred} claims, the caller asks for the next run at once.
     */
    public ProvisioningOutcome handle(List<ProvisioningHint> hints, Instant stopBy) {
        Instant now = clock.instant();
        if (hints.stream().anyMatch(h -> h.reason() == ProvisioningHint.Reason.NODE_DELETED)) {
            for (Node n : reader.nodes()) {
                if (n.deletionTimestamp() != null && n.finalizers().contains(Node.FINALIZER)) {
                    deletedNodes.accept(n);
                }
            }
        }
        if (hints.stream().anyMatch(h -> h.reason() == ProvisioningHint.Reason.NODE_CREATED)) {
            registerNodes.run();
        }
        store.setMarker(ProvisioningHints.LAST_HINT, lastSent(hints, now));
        return provisioner.provision(now, stopBy);
    }

    /**
     * When the batch's newest hint went out (never later than {@code now}): the backstop's "no hint came for a minute"
     * counts from the hint, not from the run. Counted from the run, which starts a second or so after the sweep sent
     * its hint, the next sweep a minute later found the marker 59 s old and stayed quiet, so pods that could not be
     * planned (every offering out of plans after a whole-market ICE) waited two minutes for the next run, not one.
     */
    static Instant lastSent(List<ProvisioningHint> hints, Instant now) {
        Instant last = null;
        for (ProvisioningHint h : hints) {
            if (h.at() != null && (last == null || h.at().isAfter(last))) {
                last = h.at();
            }
        }
        return last == null || last.isAfter(now) ? now : last;
    }
}
