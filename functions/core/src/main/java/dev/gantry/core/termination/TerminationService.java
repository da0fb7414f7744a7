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
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import dev.gantry.core.termination.TerminationStart.Replacement;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the termination flow one slice per call: reads a snapshot, asks {@link TerminationDecision}, records on the
 * claim that the slice began, sends itself the next {@link TerminationRequest} (with the decided delay) and only then
 * executes the commands. The flow is one chain of messages: each slice accepts only its own step, so a duplicate
 * delivery does nothing, and an error while acting leaves the next message to carry on. Should the chain break all
 * the same (a message dead-lettered), the sweep {@link #resume resumes} a {@link #stalled} claim. Safe to call
 * concurrently and repeatedly for the same claim: every command is idempotent and the claim is written conditionally.
 */
public final class TerminationService {
    /** How long a Terminated claim is kept so late events still find it. */
    public static final Duration RETENTION = Duration.ofHours(1);
    /**
     * A deleting claim with no slice begun for this long has lost its flow, and the sweep resumes it. Well above the
     * longest healthy gap: a continuation's delay (at most 15 s) plus a slice's run (the handler's 60 s timeout). Short
     * enough that two sweeps (a minute apart) get the chance before a drain has stood still for four minutes.
     */
    public static final Duration STALLED_AFTER = Duration.ofMinutes(2);
    /**
     * When a slice run by {@link #start} finishes the flow, its safety-net message comes back after this long (and
     * then does nothing, unless finishing failed).
     */
    static final Duration FINISH_CHECK = Duration.ofSeconds(15);
    /** Attempts at one slice whose claim write keeps losing to writes that began no slice. */
    static final int SLICE_ATTEMPTS = 3;
    private static final System.Logger LOG = System.getLogger(TerminationService.class.getName());

    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final WorkQueue queue;
    private final Map<String, NodePool> pools;
    private final Clock clock;
    private final TerminationReads reads;

    public TerminationService(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud,
                              WorkQueue terminationQueue, Map<String, NodePool> pools, Clock clock) {
        this.reader = reader;
        this.writer = writer;
        this.store = store;
        this.cloud = cloud;
        this.queue = terminationQueue;
        this.pools = Map.copyOf(pools);
        this.clock = clock;
        this.reads = new TerminationReads(reader, store);
    }

    /**
     * One slice's work. {@code reason} is why the claim is being deleted (interruption, emptiness, expiry…), or null.
     * {@code finished}: the flow is over (the claim is Terminated or gone).
     */
    public record Slice(String claim, List<TerminationCommand> commands, int evicted, int blockedByPdb, boolean finished,
                        String reason) {
        /** A slice that did nothing, the flow not over (a duplicate, a flow carried on elsewhere, a first slice queued). */
        static Slice idle(String claim, String reason) {
            return new Slice(claim, List.of(), 0, 0, false, reason);
        }

        /** The flow was already over: the claim is Terminated or gone. */
        static Slice over(String claim) {
            return new Slice(claim, List.of(), 0, 0, true, null);
        }
    }

    /**
     * Begins deletion of the claim (idempotent: a claim already deleting keeps its first reason and start) and runs the
     * first slice as {@code how} says: at once ({@link FirstSlice#INLINE}), so an interrupted node starts draining within
     * the same invocation, or queued for the termination handler ({@link FirstSlice#QUEUED}). For a claim already
     * deleting, only an earlier deadline is recorded (the flow's next slice applies it), and the first slice runs only
     * if it never began (a crash right after the claim was marked); otherwise the flow's own messages (or the sweep's
     * resume) carry it on.
     *
     * @return the first slice (idle when queued), or empty when the claim does not exist
     */
    public Optional<Slice> start(String claimName, TerminationStart how) {
        String reason = how.reason();
        Instant deadline = how.deadline();
        Instant now = clock.instant();
        boolean quiet = false; // already deleting, its flow under way, and nothing new for it
        for (int attempt = 0; ; attempt++) {
            Optional<NodeClaim> current = store.get(claimName, now);
            if (current.isEmpty()) {
                return Optional.empty();
            }
            if (current.get().state().isDeleting()) {
                // A reclaim of a node already draining: its deadline still caps the flow, if it is earlier.
                boolean tighter = deadline != null
                        && store.marker(TerminationMarkers.deadline(claimName)).map(deadline::isBefore).orElse(true);
                if (tighter) {
                    store.setMarker(TerminationMarkers.deadline(claimName), deadline);
                }
                quiet = !tighter && current.get().drainStep() > 0;
                break;
            }
            // Markers first: if the claim write then loses a race, the winner's flow sees them anyway.
            if (deadline != null) {
                store.setMarker(TerminationMarkers.deadline(claimName), deadline);
            }
            try {
                store.update(current.get().draining(reason, now));
                if (how.replacement() == Replacement.AWAITED) {
                    // After the write: a provisioning run that read the store later has seen the claim leaving. (Lost
                    // in a crash just before, the drain does not wait: it evicts as an unreplaced drain does.)
                    store.setMarker(TerminationMarkers.waitForReplacement(claimName), clock.instant());
                }
                break;
            } catch (NodeClaimStore.Conflict lost) {
                // Someone moved the claim on (the sweep registered it, say): re-read, so the claim is surely marked
                // before any slice runs (a slice does nothing for a claim not marked for deletion).
                if (attempt == 2) {
                    throw lost;
                }
            }
        }
        if (how.firstSlice() == FirstSlice.QUEUED) {
            Optional<NodeClaim> marked = store.get(claimName, now);
            if (marked.isEmpty()) {
                return Optional.empty();
            }
            if (!quiet) {
                // The flow's current step: if its own message is in flight too, whichever runs first wins.
                queue.send(new TerminationRequest(claimName, marked.get().drainStep()).toJson(), null, null, Duration.ZERO);
            }
            return Optional.of(Slice.idle(claimName, marked.get().deletionReason()));
        }
        return Optional.of(slice(new TerminationRequest(claimName, 0), true));
    }

    /** As {@link #startForDeletedNode(Node, FirstSlice)}, the first slice inline. */
    public Optional<Slice> startForDeletedNode(Node node) {
        return startForDeletedNode(node, FirstSlice.INLINE);
    }

    /**
     * Starts the flow (reason {@code deleted}) for a node someone deleted ({@code kubectl delete node}) that still
     * carries Gantry's finalizer; {@code firstSlice} as in {@link #start}.
     */
    public Optional<Slice> startForDeletedNode(Node node, FirstSlice firstSlice) {
        Optional<NodeClaim> claim = reads.claimFor(node, clock.instant());
        if (claim.isEmpty()) {
            // Not a node we track (its claim expired or never existed): let the deletion complete; the sweep's
            // garbage collection terminates any instance left behind.
            removeFinalizer(node.name());
            return Optional.empty();
        }
        return start(claim.get().name(), TerminationStart.because("deleted").with(firstSlice));
    }

    /**
     * Whether a deleting claim's flow has stalled: no slice began for {@link #STALLED_AFTER} (its continuation was
     * lost or dead-lettered). A healthy flow begins a slice at least every few seconds.
     */
    public static boolean stalled(NodeClaim claim, Instant now) {
        if (claim.state() != NodeClaimState.Draining && claim.state() != NodeClaimState.Terminating) {
            return false;
        }
        Instant last = claim.progressAt() != null ? claim.progressAt() : claim.deletionRequestedAt();
        return last == null || !now.isBefore(last.plus(STALLED_AFTER));
    }

    /**
     * Sends the next step's message for a stalled flow. Harmless if the flow was only slow: of two messages for the
     * same step only the first runs.
     */
    public void resume(NodeClaim claim) {
        queue.send(new TerminationRequest(claim.name(), claim.drainStep()).toJson(), null, null, Duration.ZERO);
    }

    /**
     * Runs the next slice of the flow for a termination-queue message. Does nothing for a claim that is not marked
     * for deletion (every legitimate sender marks it first; a message for a healthy claim is forged or stale), nor for
     * a message whose step the flow has already passed (a duplicate delivery).
     *
     * <p>The next message is sent <em>before</em> the slice acts: whatever fails while acting, the flow carries on from
     * that message (every command is idempotent). A slice that finishes the flow sends none and keeps its step, so if
     * finishing fails, the redelivery of this same message finishes it.
     */
    public Slice slice(TerminationRequest request) {
        return slice(request, false);
    }

    /**
     * Runs the slice; when its claim write loses to a write that began no slice (a consolidation command recording its
     * progress on the claim, the sweep marking it NotReady), decides again on the fresh claim, up to
     * {@link #SLICE_ATTEMPTS} times; when the conflict hides its own write (DynamoDB took it, the answer was lost, and
     * the SDK's retry failed the condition), carries on as if it had succeeded. Giving up in either case would break
     * the chain: this message's step is the flow's current one, and no other message carries it on.
     *
     * @param inline run by {@link #start}, not from a queue message: there is no redelivery to fall back on
     */
    private Slice slice(TerminationRequest request, boolean inline) {
        for (int attempt = 1; ; attempt++) {
            Optional<Slice> done = attempt(request, inline, attempt == SLICE_ATTEMPTS);
            if (done.isPresent()) {
                return done.get();
            }
        }
    }

    /** One attempt at a slice; empty when its claim write lost to a write that began no slice (try again). */
    private Optional<Slice> attempt(TerminationRequest request, boolean inline, boolean last) {
        Instant now = clock.instant();
        Optional<NodeClaim> found = store.get(request.claim(), now);
        if (found.isEmpty() || found.get().state() == NodeClaimState.Terminated) {
            return Optional.of(Slice.over(request.claim()));
        }
        NodeClaim claim = found.get();
        if (!claim.state().isDeleting()) {
            LOG.log(System.Logger.Level.WARNING, "termination: nodeclaim " + claim.name()
                    + " is not marked for deletion; message ignored");
            return Optional.of(Slice.idle(claim.name(), null));
        }
        if (request.step() < claim.drainStep()) {
            return Optional.of(Slice.idle(claim.name(), claim.deletionReason())); // a duplicate
        }
        Optional<Node> node = reads.nodeOf(claim);
        List<Pod> pods = node.map(n -> reader.podsOn(n.name())).orElse(List.of());
        boolean volumes = node.map(n -> reader.nodesWithVolumeAttachments().contains(n.name())).orElse(false);
        Optional<Duration> grace = Optional.ofNullable(pools.get(claim.nodePool())).flatMap(p -> p.template().terminationGracePeriod());
        Optional<Instant> deadline = store.marker(TerminationMarkers.deadline(claim.name()));
        List<TerminationCommand> commands = TerminationDecision.next(claim, node, pods,
                pods.isEmpty() ? List.of() : reader.podDisruptionBudgets(), volumes, now, grace, deadline,
                reads.replacementPending(claim, pods, now));
        Optional<Duration> delay = commands.stream().filter(c -> c instanceof ContinueAfter)
                .map(c -> ((ContinueAfter) c).delay()).findFirst();
        if (delay.isEmpty() && inline) {
            delay = Optional.of(FINISH_CHECK); // the caller's own retry would find the claim deleting and skip it
        }
        int next = delay.isPresent() ? request.step() + 1 : request.step();
        NodeClaim read = claim;
        NodeClaim begun = claim.sliceBegun(next, now);
        try {
            claim = store.update(begun);
        } catch (NodeClaimStore.Conflict lost) {
            Optional<NodeClaim> fresh = store.get(request.claim(), now);
            boolean ours = fresh.isPresent() && fresh.get().version() == read.version() + 1
                    && fresh.get().drainStep() == next && now.equals(fresh.get().progressAt());
            if (ours) {
                // Our own write took effect and only its answer was lost (the SDK's retry then failed the condition).
                delay.ifPresent(d -> queue.send(new TerminationRequest(request.claim(), next).toJson(), null, null, d));
                return Optional.of(execute(fresh.get(), commands, now));
            }
            boolean sliceBegan = fresh.isEmpty() || fresh.get().drainStep() != read.drainStep()
                    || !java.util.Objects.equals(fresh.get().progressAt(), read.progressAt())
                    || !fresh.get().state().isDeleting() || fresh.get().state() == NodeClaimState.Terminated;
            if (sliceBegan) {
                // Another delivery of this step (or a concurrent finish) got there first: it carries the flow on.
                return Optional.of(Slice.idle(read.name(), read.deletionReason()));
            }
            if (last) {
                throw lost; // out of attempts: the message is redelivered
            }
            return Optional.empty(); // the claim changed for another reason: decide again on what it is now
        }
        delay.ifPresent(d -> queue.send(new TerminationRequest(request.claim(), next).toJson(), null, null, d));
        if (read.drainStep() == 0) {
            // The flow's first slice, once per flow (off the deciding sweep's clock when it queued the slice).
            DisruptionEvents.terminating(writer, read, read.deletionReason());
        }
        return Optional.of(execute(claim, commands, now));
    }

    private Slice execute(NodeClaim claim, List<TerminationCommand> commands, Instant now) {
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
                case ContinueAfter a -> { } // sent before acting
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
        patch(node, new NodePatch(null, null, null, null, null, List.of(Node.FINALIZER, Node.KARPENTER_FINALIZER)));
    }
}
