package dev.gantry.core.status;

import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.termination.DisruptionEvents;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The sweep's NodeClaim projection: brings the cluster's NodeClaim objects in line with the claims, and carries out
 * what users ask through them. One list of the objects per sweep, then a write only where something changed:
 * <ul>
 *   <li>a live claim without an object gets one; one whose object's digest differs (or whose finalizer is missing) has
 *       its labels and status rewritten; an unchanged one costs nothing (1,000 steady claims: two list pages, no
 *       write);</li>
 *   <li>an object someone deleted ({@code kubectl delete nodeclaim}) whose claim is not deleting yet starts the claim's
 *       graceful termination (reason {@code deleted}, first slice queued), as {@code kubectl delete node} does;</li>
 *   <li>an object whose claim is Terminated, or gone from the table, loses its finalizer and is deleted; an object
 *       Gantry never projected (Karpenter's own, awaiting adoption) with no claim is left alone.</li>
 * </ul>
 * At most {@link #MAX_WRITES} objects are written per sweep (two requests each: a first sweep over 1,000 claims would
 * otherwise spend a minute in API calls), and none once the sweep's budget says stop; the rest are written by the
 * following sweeps. Every failure is counted and logged and never fails the
 * sweep, nor a launch or termination: the next sweep reads afresh and repairs (idempotent and resumable: each write
 * is guarded by the object's resourceVersion, and a crash between writes leaves a stale digest to redo).
 */
public final class NodeClaimProjector {
    /** Objects written (created, updated, released) per sweep at most. */
    public static final int MAX_WRITES = 100;
    private static final System.Logger LOG = System.getLogger(NodeClaimProjector.class.getName());

    /**
     * What one sync did.
     *
     * @param listed            objects listed
     * @param created           objects created for claims that had none
     * @param updated           objects whose labels or status were rewritten
     * @param deletionsStarted  claims whose graceful termination a deleted object started
     * @param released          objects whose finalizer was removed or which were deleted (their claim is gone)
     * @param deferred          writes left for the next sweep ({@link #MAX_WRITES})
     * @param failed            writes that failed or lost a race (the next sweep repairs them)
     */
    public record Report(int listed, int created, int updated, int deletionsStarted, int released, int deferred, int failed) {
        public static final Report NONE = new Report(0, 0, 0, 0, 0, 0, 0);

        public int writes() {
            return created + updated + released;
        }
    }

    private final NodeClaimObjects objects;
    private final ClaimProjection projection;
    private final TerminationService termination;
    private final Supplier<GantryConfig> config;
    private ClusterWriter events;

    /**
     * @param config the configuration as of each sweep (read per run: pools come and go)
     */
    public NodeClaimProjector(NodeClaimObjects objects, ClaimProjection projection, TerminationService termination,
                              Supplier<GantryConfig> config) {
        this.objects = objects;
        this.projection = projection;
        this.termination = termination;
        this.config = config;
    }

    /**
     * Where the {@code DisruptionLaunching} event of a replacement goes, once its object exists (so the event can name
     * the object's UID, which {@code kubectl describe nodeclaim} looks events up by). Without it, no event.
     */
    public NodeClaimProjector withEvents(ClusterWriter writer) {
        this.events = java.util.Objects.requireNonNull(writer, "writer");
        return this;
    }

    /**
     * One sync of the objects with {@code claims} (the store's, read this sweep). Never throws: a failure to read the
     * config or list the objects is logged and reported as one failure, for the next sweep to retry.
     */
    public Report sync(List<NodeClaim> claims, Instant now) {
        return sync(claims, now, () -> true);
    }

    /**
     * As {@link #sync(List, Instant)}, writing only while {@code inTime} says so (the sweep's budget): the writes left
     * are deferred to the next sweep, as those beyond {@link #MAX_WRITES} are.
     */
    public Report sync(List<NodeClaim> claims, Instant now, java.util.function.BooleanSupplier inTime) {
        return sync(claims, Map.of(), now, inTime);
    }

    /**
     * As {@link #sync(List, Instant, java.util.function.BooleanSupplier)}, with {@code images} the AMI of each instance
     * by instance id as EC2 reported it this sweep (the objects' {@code status.imageID}).
     */
    public Report sync(List<NodeClaim> claims, Map<String, String> images, Instant now, java.util.function.BooleanSupplier inTime) {
        try {
            return syncOrThrow(claims, images, now, inTime);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "nodeclaim objects not synced, the next sweep retries: " + e);
            return new Report(0, 0, 0, 0, 0, 0, 1);
        }
    }

    private Report syncOrThrow(List<NodeClaim> claims, Map<String, String> images, Instant now,
                               java.util.function.BooleanSupplier inTime) {
        GantryConfig cfg = config.get();
        List<ObservedNodeClaim> observed = objects.list();
        Map<String, ObservedNodeClaim> byName = new HashMap<>();
        observed.forEach(o -> byName.put(o.name(), o));
        Map<String, NodeClaim> claimByName = new HashMap<>();
        claims.forEach(c -> claimByName.put(c.name(), c));
        Counts n = new Counts(inTime);
        for (NodeClaim claim : claims) {
            if (claim.state() == NodeClaimState.Terminated) {
                continue;
            }
            ObservedNodeClaim obs = byName.get(claim.name());
            if (obs != null && obs.deleting() && !claim.state().isDeleting()) {
                startDeletion(claim, n);
            }
            NodeClaimObject want = projection.project(claim, cfg.nodePool(claim.nodePool()),
                    claim.instanceId() == null ? null : images.get(claim.instanceId()), now);
            if (obs == null) {
                write(n, () -> {
                    objects.create(want);
                    if (events != null) {
                        launchedFor(claim).ifPresent(reason -> DisruptionEvents.launching(events, claim.name(), reason));
                    }
                }, Kind.CREATE);
            } else if (!want.digest().equals(obs.digest()) || !obs.hasStatus() || (!obs.hasFinalizer() && !obs.deleting())) {
                write(n, () -> objects.update(obs, want), Kind.UPDATE);
            }
        }
        for (ObservedNodeClaim obs : observed) {
            NodeClaim claim = claimByName.get(obs.name());
            boolean gone = claim == null ? obs.projected() : claim.state() == NodeClaimState.Terminated;
            if (gone && (obs.hasFinalizer() || !obs.deleting())) {
                write(n, () -> release(obs), Kind.RELEASE);
            }
        }
        Report r = new Report(observed.size(), n.created, n.updated, n.started, n.released, n.deferred, n.failed);
        if (r.writes() > 0 || r.failed() > 0 || r.deferred() > 0 || r.deletionsStarted() > 0) {
            LOG.log(System.Logger.Level.INFO, "nodeclaim objects: " + r);
        }
        return r;
    }

    /** The instance is gone: the finalizer comes off, and an object nobody deleted yet is deleted. */
    private void release(ObservedNodeClaim obs) {
        if (obs.hasFinalizer()) {
            objects.removeFinalizer(obs);
        }
        if (!obs.deleting()) {
            objects.delete(obs.name());
        }
    }

    /** The disruption a replacement was launched for (its consolidation command's reason), if it is one. */
    private static java.util.Optional<String> launchedFor(NodeClaim claim) {
        return java.util.Optional.ofNullable(claim.consolidation()).filter(m -> m.replacements().contains(claim.name()))
                .map(dev.gantry.core.lifecycle.ConsolidationMark::reason);
    }

    private void startDeletion(NodeClaim claim, Counts n) {
        try {
            termination.start(claim.name(), TerminationStart.because("deleted").with(FirstSlice.QUEUED));
            n.started++;
        } catch (RuntimeException e) {
            n.failed++;
            LOG.log(System.Logger.Level.WARNING, "nodeclaim " + claim.name() + " was deleted; its termination did not "
                    + "start, the next sweep tries again: " + e);
        }
    }

    private enum Kind { CREATE, UPDATE, RELEASE }

    private static final class Counts {
        final java.util.function.BooleanSupplier inTime;
        int created;
        int updated;
        int started;
        int released;
        int deferred;
        int failed;

        Counts(java.util.function.BooleanSupplier inTime) {
            this.inTime = inTime;
        }
    }

    private static void write(Counts n, Runnable write, Kind kind) {
        if (n.created + n.updated + n.released + n.failed >= MAX_WRITES || !n.inTime.getAsBoolean()) {
            n.deferred++;
            return;
        }
        try {
            write.run();
            switch (kind) {
                case CREATE -> n.created++;
                case UPDATE -> n.updated++;
                case RELEASE -> n.released++;
            }
        } catch (NodeClaimObjects.Stale stale) {
            n.failed++; // changed under us: the next sweep reads it afresh
        } catch (RuntimeException e) {
            n.failed++;
            LOG.log(System.Logger.Level.WARNING, "nodeclaim object write failed, the next sweep repairs it: " + e);
        }
    }
}
