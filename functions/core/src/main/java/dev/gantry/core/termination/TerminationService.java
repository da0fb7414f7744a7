package dev.gantry.core.termination;

import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.EvictionResult;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.termination.TerminationCommand.ContinueAfter;
import dev.gantry.core.termination.TerminationCommand.DeleteNode;
import dev.gantry.core.termination.TerminationCommand.DeletePod;
import dev.gantry.core.termination.TerminationCommand.Evict;
import dev.gantry.core.termination.TerminationCommand.MarkTerminated;
import dev.gantry.core.termination.TerminationCommand.RemoveFinalizer;
import dev.gantry.core.termination.TerminationCommand.TaintNode;
import dev.gantry.core.termination.TerminationCommand.TerminateInstance;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the termination flow one slice per call: reads a snapshot, asks {@link TerminationDecision}, executes the
 * commands and, if the flow is not finished, sends itself a {@link TerminationRequest} with a delay. Safe to call
 * concurrently and repeatedly for the same claim: every command is idempotent and the claim is written conditionally.
 */
public final class TerminationService {
    /** How long a Terminated claim is kept so late events still find it. */
    public static final Duration RETENTION = Duration.ofHours(1);

    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final WorkQueue queue;
    private final Map<String, NodePool> pools;
    private final Clock clock;

    public TerminationService(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud,
                              WorkQueue terminationQueue, Map<String, NodePool> pools, Clock clock) {
        this.reader = reader;
        this.writer = writer;
        this.store = store;
        this.cloud = cloud;
        this.queue = terminationQueue;
        this.pools = Map.copyOf(pools);
        this.clock = clock;
    }

    /** The outcome of one slice: what was executed and whether the flow has finished. */
    /** One slice's work. {@code reason} is why the claim is being deleted (interruption, emptiness, expiry…), or null. */
    public record Slice(String claim, List<TerminationCommand> commands, int evicted, int blockedByPdb, boolean finished,
                        String reason) {
    }

    /**
     * Begins deletion of the claim (idempotent: a claim already deleting keeps its first reason and start) and runs the
     * first slice at once, so an interrupted node starts draining within the same invocation.
     *
     * @param deadline a hard end for the grace period, or null
     * @return the first slice, or empty when the claim does not exist
     */
    public Optional<Slice> start(String claimName, String reason, Instant deadline, boolean waitForReplacement) {
        Instant now = clock.instant();
        Optional<NodeClaim> current = store.get(claimName, now);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        if (!current.get().state().isDeleting()) {
            // Markers first: if the claim write then loses a race, the winner's flow sees them anyway.
            if (deadline != null) {
                store.setMarker(TerminationMarkers.deadline(claimName), deadline);
            }
            if (waitForReplacement) {
                store.setMarker(TerminationMarkers.waitForReplacement(claimName), now);
            }
            try {
                store.update(current.get().draining(reason, now));
            } catch (NodeClaimStore.Conflict lost) {
                // Someone else moved the claim on; the slice below re-reads it.
            }
        }
        return Optional.of(slice(new TerminationRequest(claimName, 0)));
    }

    /** Starts the flow for a node someone deleted ({@code kubectl delete node}) that still carries Gantry's finalizer. */
    public Optional<Slice> startForDeletedNode(Node node) {
        Optional<NodeClaim> claim = claimFor(node, clock.instant());
        if (claim.isEmpty()) {
            // Not a node we track (its claim expired or never existed): let the deletion complete; the sweep's
            // garbage collection terminates any instance left behind.
            removeFinalizer(node.name());
            return Optional.empty();
        }
        return start(claim.get().name(), "deleted", null, false);
    }

    /** Runs the next slice of the flow for a termination-queue message. */
    public Slice slice(TerminationRequest request) {
        Instant now = clock.instant();
        Optional<NodeClaim> found = store.get(request.claim(), now);
        if (found.isEmpty() || found.get().state() == NodeClaimState.Terminated) {
            return new Slice(request.claim(), List.of(), 0, 0, true, null);
        }
        NodeClaim claim = found.get();
        Optional<Node> node = nodeOf(claim);
        List<Pod> pods = node.map(n -> podsOn(n.name())).orElse(List.of());
        boolean volumes = node.map(n -> reader.nodesWithVolumeAttachments().contains(n.name())).orElse(false);
        Optional<Duration> grace = Optional.ofNullable(pools.get(claim.nodePool())).flatMap(p -> p.template().terminationGracePeriod());
        Optional<Instant> deadline = store.marker(TerminationMarkers.deadline(claim.name()));
        List<TerminationCommand> commands = TerminationDecision.next(claim, node, pods,
                pods.isEmpty() ? List.of() : reader.podDisruptionBudgets(), volumes, now, grace, deadline,
                replacementPending(claim, now));
        return execute(claim, request, commands, now);
    }

    private Slice execute(NodeClaim claim, TerminationRequest request, List<TerminationCommand> commands, Instant now) {
        int evicted = 0;
        int blocked = 0;
        boolean finished = false;
        for (TerminationCommand c : commands) {
            switch (c) {
                case TaintNode t -> patch(t.node(), new NodePatch(Map.of(TerminationDecision.EXCLUDE_FROM_LB, "true"),
                        List.of(Taint.DISRUPTED), null, true, null, null));
                case Evict e -> {
                    EvictionResult r = writer.evict(e.pod());
                    evicted += r == EvictionResult.EVICTED ? 1 : 0;
                    blocked += r == EvictionResult.BLOCKED_BY_PDB ? 1 : 0;
                }
                case DeletePod d -> writer.deletePod(d.pod());
                case TerminateInstance t -> cloud.terminate(List.of(t.instanceId()));
                case DeleteNode d -> writer.deleteNode(d.node());
                case RemoveFinalizer r -> removeFinalizer(r.node());
                case MarkTerminated m -> {
                    markTerminated(claim.name(), now);
                    finished = true;
                }
                case ContinueAfter a -> queue.send(new TerminationRequest(claim.name(), request.step() + 1).toJson(),
                        null, null, a.delay());
            }
        }
        return new Slice(claim.name(), commands, evicted, blocked, finished, claim.deletionReason());
    }

    private void markTerminated(String name, Instant now) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<NodeClaim> c = store.get(name, now);
            if (c.isEmpty() || c.get().state() == NodeClaimState.Terminated) {
                return;
            }
            try {
                store.update(c.get().terminated(now, RETENTION));
                return;
            } catch (NodeClaimStore.Conflict lost) {
                // re-read and try again
            }
        }
        throw new NodeClaimStore.Conflict("nodeclaim " + name + " kept changing while being marked terminated");
    }

    private void patch(String node, NodePatch patch) {
        try {
            writer.patchNode(node, patch);
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }

    private void removeFinalizer(String node) {
        patch(node, NodePatch.removeFinalizer(Node.FINALIZER));
    }

    private boolean replacementPending(NodeClaim claim, Instant now) {
        if (store.marker(TerminationMarkers.waitForReplacement(claim.name())).isEmpty()) {
            return false;
        }
        Instant began = claim.deletionRequestedAt() == null ? now : claim.deletionRequestedAt();
        return store.list(now).stream().anyMatch(c -> c.nodePool().equals(claim.nodePool()) && !c.name().equals(claim.name())
                && c.createdAt() != null && !c.createdAt().isBefore(began) && c.state().isBefore(NodeClaimState.Initialized));
    }

    private Optional<Node> nodeOf(NodeClaim claim) {
        for (Node n : reader.nodes()) {
            if (n.name().equals(claim.nodeName()) || (claim.instanceId() != null && claim.instanceId().equals(n.instanceId()))) {
                return Optional.of(n);
            }
        }
        return Optional.empty();
    }

    private Optional<NodeClaim> claimFor(Node node, Instant now) {
        String id = node.instanceId();
        if (id != null) {
            Optional<NodeClaim> byId = store.findByInstanceId(id, now);
            if (byId.isPresent()) {
                return byId;
            }
        }
        return store.list(now).stream().filter(c -> node.name().equals(c.nodeName())).findFirst();
    }

    private List<Pod> podsOn(String node) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : reader.pods()) {
            if (node.equals(p.nodeName())) {
                out.add(p);
            }
        }
        return out;
    }
}
