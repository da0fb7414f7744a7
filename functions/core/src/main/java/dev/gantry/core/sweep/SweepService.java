package dev.gantry.core.sweep;

import dev.gantry.core.adoption.Adopter;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.disruption.execution.ConsolidationReport;
import dev.gantry.core.disruption.execution.ConsolidationService;
import dev.gantry.core.disruption.drift.DriftMarker;
import dev.gantry.core.disruption.execution.StaleTaints;
import dev.gantry.core.headroom.BufferRoom;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.HeadroomPlan;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.GantryConfig;
import java.util.function.Function;
import java.util.function.Supplier;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The scheduled sweep, once a minute. In order:
 * <ol>
 *   <li>Refresh: prices and offerings whose TTLs ran out are re-read in the background ({@link #withRefresh}).</li>
 *   <li>Stalled drains: deleting claims whose termination flow stood still are sent their next message
 *       ({@link TerminationService#stalled}); first, so a sweep that fails further on has still resumed them.</li>
 *   <li>Adoption ({@link #withAdoption}): Karpenter's instances are recorded as claims (the migration from Karpenter).</li>
 *   <li>Registration: launched claims are matched to the nodes that appeared, labelled, given the finalizer, and
 *       marked Registered, then Initialized ({@link Registration}).</li>
 *   <li>Stale taints: {@code karpenter.sh/disrupted} taints no flow owns are removed ({@link StaleTaints}).</li>
 *   <li>Housekeeping ({@link Housekeeping}): crashed launches adopt their instance; liveness timeouts; leaked instances
 *       terminated (or drained first when a Node registered for them); lost instances and nodes finished; NotReady
 *       recorded and unhealthy nodes repaired; nodes deleted out of band handed to the termination flow.</li>
 *   <li>Drift ({@link #withDrift}): claims stamped with the current hash versions and marked drifted or not.</li>
 *   <li>Static capacity ({@link #withStaticCapacity}): static NodePools scaled to their {@code replicas}.</li>
 *   <li>Headroom: the buffers ({@link #withHeadroom}) are read once; when they cannot be read, no node is removed as
 *       empty or consolidated in this sweep.</li>
 *   <li>Backstop: a provisioning hint when pods wait (or a buffer's virtual pod has no room) and no hint went out for
 *       {@link Backstop#AFTER}.</li>
 *   <li>Emptiness and expiry ({@link DisruptionDecision}): empty-since labels, and termination flows within the pools'
 *       budgets; a node holding a buffer's room or a leaving node's replacement pods is not empty; an expired node is
 *       replaced first (one hint); flows not started by {@code startUntil} are left for the next sweep.</li>
 *   <li>Consolidation ({@link #withConsolidation}): command upkeep, pod events, and a decision when no command is
 *       under way ({@link ConsolidationService#sweep}).</li>
 *   <li>Cluster objects ({@link #withNodeClaimObjects}, {@link #withStatus}): NodeClaim objects and NodePool/EC2NodeClass
 *       status brought in line with the claims; their failures are logged, never the sweep's.</li>
 * </ol>
 * Every step is idempotent (it acts on a fresh snapshot and conditional writes) and bounded (one list of each kind,
 * then per-object work for the few objects that need it). A step that fails fails the sweep, except consolidation, whose
 * failure is logged (the refresh's are the adapter's to absorb); the next sweep decides again from the state.
 */
public final class SweepService {
    private final String cluster;
    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final CloudProvider cloud;
    private final TerminationService termination;
    private final ProvisioningHints hints;
    private final Map<String, NodePool> pools;
    private final InstanceFacts.Source facts;
    private final Clock clock;
    private final Housekeeper housekeeper;
    private final NodeRegistrar registrar;
    private final DisruptionStep disruption;
    private Runnable refresh = () -> { };
    private Headroom headroom = Headroom.NONE;
    private ConsolidationService consolidation;
    private dev.gantry.core.status.NodeClaimProjector projector;
    private dev.gantry.core.status.StatusWriter status;
    private Adopter adoption;
    private DriftStep drift;
    private CapacityBlockExpiry blocks;
    private dev.gantry.core.staticcapacity.StaticCapacity staticCapacity;
    private InstanceStatusStep instanceStatus;

    public SweepService(String cluster, ClusterReader reader, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud,
                        TerminationService termination, ProvisioningHints hints, Map<String, NodePool> pools,
                        InstanceFacts.Source facts, Clock clock) {
        this.cluster = cluster;
        this.reader = reader;
        this.writer = writer;
        this.store = store;
        this.cloud = cloud;
        this.termination = termination;
        this.hints = hints;
        this.pools = Map.copyOf(pools);
        this.facts = facts;
        this.clock = clock;
        this.housekeeper = new Housekeeper(cluster, writer, store, cloud, termination);
        this.registrar = new NodeRegistrar(writer, store, this.pools, facts);
        this.disruption = new DisruptionStep(writer, termination, hints, this.pools, clock);
    }

    /**
     * The headroom to keep: emptiness and consolidation leave the nodes that the buffers' virtual pods need (default
     * {@link Headroom#NONE}).
     */
    public SweepService withHeadroom(Headroom headroom) {
        this.headroom = Objects.requireNonNull(headroom, "headroom");
        return this;
    }

    /**
     * The consolidation step (after emptiness and expiry): pod events, command upkeep, and a decision when no command is
     * under way. Without it the sweep does not consolidate.
     */
    public SweepService withConsolidation(ConsolidationService consolidation) {
        this.consolidation = Objects.requireNonNull(consolidation, "consolidation");
        return this;
    }

    /**
     * The NodeClaim objects step (last): the claims projected as {@code karpenter.sh/v1} NodeClaims, deleted objects'
     * terminations started, released objects' finalizers removed; it never fails the sweep.
     */
    public SweepService withNodeClaimObjects(dev.gantry.core.status.NodeClaimProjector projector) {
        this.projector = Objects.requireNonNull(projector, "projector");
        return this;
    }

    /** The status step (last): NodePool and EC2NodeClass status, written when changed; it never fails the sweep. */
    public SweepService withStatus(dev.gantry.core.status.StatusWriter status) {
        this.status = Objects.requireNonNull(status, "status");
        return this;
    }

    /**
     * The adoption step (after stalled drains, before registration): Karpenter's instances of the pools Gantry manages
     * are recorded as claims, retagged and their nodes made Gantry's ({@link Adopter}). Without it nothing is adopted.
     */
    public SweepService withAdoption(Adopter adoption) {
        this.adoption = Objects.requireNonNull(adoption, "adoption");
        return this;
    }

    /**
     * The drift step (after housekeeping, before emptiness): every registered claim stamped with the current hash
     * versions and marked drifted or not ({@link DriftMarker}), against the configuration {@code config} gives for this
     * run. Without it no claim is marked drifted.
     */
    public SweepService withDrift(DriftMarker marker, Supplier<GantryConfig> config, Function<NodeClass, List<InstanceType>> offered) {
        this.drift = new DriftStep(marker, config, offered);
        return this;
    }

    /** The static capacity step (after drift, before emptiness): static NodePools brought to their {@code replicas}. */
    public SweepService withStaticCapacity(dev.gantry.core.staticcapacity.StaticCapacity step) {
        this.staticCapacity = Objects.requireNonNull(step, "step");
        return this;
    }

    private record DriftStep(DriftMarker marker, Supplier<GantryConfig> config, Function<NodeClass, List<InstanceType>> offered) {
    }

    /** EC2's status checks each sweep ({@link InstanceStatusStep}). */
    public SweepService withInstanceStatus(InstanceStatusStep step) {
        this.instanceStatus = step;
        return this;
    }

    /**
     * The refresh step: {@code refresh} re-reads prices and offerings whose TTLs ran out. It must not block for long
     * (the adapter refreshes in the background) and its failures are the adapter's to absorb.
     */
    public SweepService withRefresh(Runnable refresh) {
        this.refresh = Objects.requireNonNull(refresh, "refresh");
        return this;
    }

    /** The Capacity Block step (after drift): nodes on an expiring block are drained ({@link CapacityBlockExpiry}). */
    public SweepService withCapacityBlockExpiry(CapacityBlockExpiry step) { this.blocks = step; return this; }

    public SweepReport sweep() {
        return sweep(Instant.MAX);
    }

    /**
     * One sweep. Drains it starts run their first slice here only until {@code inlineUntil}; after that they are
     * marked and queued for the termination handler, so a sweep with much to start still ends inside its timeout.
     */
    public SweepReport sweep(Instant inlineUntil) {
        return sweep(inlineUntil, Instant.MAX);
    }

    /**
     * One sweep that also starts no disruption (expiry, emptiness) after {@code startUntil}: each one it starts costs a
     * few writes and a queue message, and 500 nodes expiring at once would otherwise run the sweep past its budget.
     * Those left are decided again, from a fresh snapshot, by the next sweep (a minute later): the decision is a
     * function of the state, so nothing needs carrying over. Karpenter's expiration deletes every expired claim at
     * once; Gantry spreads the starts over sweeps when there are too many for one invocation.
     */
    public SweepReport sweep(Instant inlineUntil, Instant startUntil) {
        Instant now = clock.instant();
        refresh.run();
        List<NodeClaim> stored = store.list(now);
        int resumed = resumeStalled(stored, now);
        List<Node> nodes = reader.nodes();
        List<Pod> pods = reader.pods();
        if (adoption != null) {
            adoption.run(stored, nodes, now);
        }
        NodeRegistrar.Registered reg = registrar.register(stored, nodes, now, () -> clock.instant().isBefore(startUntil));
        List<NodeClaim> claims = store.list(now);
        untaintStale(nodes, claims);
        Map<String, Integer> terminated = new TreeMap<>();
        Housekeeper.Done hk = housekeeper.run(claims, nodes, now, terminated, () -> firstSlice(inlineUntil));
        if (instanceStatus != null) {
            instanceStatus.run(claims, now, terminated, () -> firstSlice(inlineUntil));
        }
        markDrift(hk.instances(), now);
        // Instances that left their capacity reservation become on-demand (core.reservation, ReservationFallbackStep).
        // One read of the store for both reservation steps: the block step only skips claims already deleting, which the
        // fallback step does not change.
        List<NodeClaim> afterDrift = store.list(now);
        new ReservationFallbackStep(store, writer).run(afterDrift, nodes, hk.instances());
        if (blocks != null) blocks.run(afterDrift, nodes, now);
        if (staticCapacity != null && staticCapacity.active()) {
            staticCapacity.run(store.list(now), nodes, pods, now);
        }
        Optional<HeadroomPlan> plan = headroomPlan(now);
        Optional<BufferRoom> room = plan.map(h -> bufferRoom(h, nodes, pods));
        boolean backstop = Backstop.send(store, hints, pods, room.map(BufferRoom::unplaced).orElse(List.of()), now);
        DisruptionStep.Disrupted dis = disruption.run(store.list(now), reader.nodes(), pods, room, now, terminated,
                () -> firstSlice(inlineUntil), startUntil);
        ConsolidationReport consolidated = consolidate(now, plan);
        List<NodeClaim> after = store.list(now);
        if (projector != null) {
            Map<String, String> images = new java.util.HashMap<>();
            hk.instances().forEach(i -> {
                if (i.imageId() != null) {
                    images.put(i.instanceId(), i.imageId());
                }
            });
            projector.sync(after, images, now, () -> clock.instant().isBefore(startUntil));
        }
        if (status != null) {
            status.sync(after, now);
        }
        Map<String, dev.gantry.core.status.PoolCost> costs = dev.gantry.core.status.PoolCost.of(after);
        double hourlyCost = costs.values().stream().mapToDouble(dev.gantry.core.status.PoolCost::perHour).sum();
        return new SweepReport(reg.registered(), reg.initialized(), hk.leakedTerminated(), hk.claimsFinished(),
                hk.deletedNodesStarted(), backstop, dis.emptinessMarks(), dis.disrupted(), terminated, hourlyCost, resumed,
                consolidated, costs);
    }

    /**
     * The consolidation step, over the headroom this sweep read (none read: no node is consolidated this sweep, as with
     * emptiness); its failure is logged and leaves the rest of the sweep alone (the next sweep retries).
     */
    private ConsolidationReport consolidate(Instant now, Optional<HeadroomPlan> plan) {
        if (consolidation == null || plan.isEmpty()) {
            return ConsolidationReport.NONE;
        }
        try {
            return consolidation.sweep(plan.get().virtualPods());
        } catch (RuntimeException e) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.WARNING,
                    "sweep: consolidation step failed, the next sweep retries: " + e);
            return new ConsolidationReport(0, 0, 0, null, "failed: " + e, List.of(), 0, 0, 0);
        }
    }

    /** The drift step; its failure is logged and leaves the rest of the sweep alone (the next sweep marks again). */
    private void markDrift(List<CloudInstance> instances, Instant now) {
        if (drift == null) {
            return;
        }
        try {
            drift.marker().run(drift.config().get(), store.list(now), reader.nodes(), instances, drift.offered(), now);
        } catch (RuntimeException e) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.WARNING,
                    "sweep: drift step failed, the next sweep retries: " + e);
        }
    }

    /** Removes the disrupted taints no flow owns ({@link StaleTaints}); {@code nodes} must be read before {@code claims}. */
    private void untaintStale(List<Node> nodes, List<NodeClaim> claims) {
        List<String> stale = StaleTaints.of(nodes, claims);
        for (String node : stale) {
            patch(node, new NodePatch(null, null, List.of(Taint.DISRUPTED.key()), null, null, null));
        }
        if (!stale.isEmpty()) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.INFO,
                    "sweep: removed karpenter.sh/disrupted no flow owns from " + stale);
        }
    }

    /**
     * Only the registration step: match launched claims to the nodes that appeared, label them and add the finalizer.
     * Run when a node registers (the webhook saw it), so pods that select per-instance labels need not wait for the
     * next sweep. Idempotent. Returns how many claims moved to Registered.
     */
    public int registerNodes() {
        Instant now = clock.instant();
        return registrar.register(store.list(now), reader.nodes(), now).registered();
    }

    /** For {@code cdk destroy}: terminates every instance carrying this cluster's tag and finishes every claim. */
    public int finalSweep() {
        Instant now = clock.instant();
        List<String> ids = cloud.listInstances().stream()
                .filter(i -> cluster.equals(i.tags().get(CloudInstance.TAG_CLUSTER))).map(CloudInstance::instanceId).toList();
        if (!ids.isEmpty()) {
            cloud.terminate(ids);
        }
        for (NodeClaim c : store.list(now)) {
            housekeeper.finish(c.name(), "final-sweep", now);
        }
        return ids.size();
    }

    /**
     * Deleting claims are the termination flow's, and nothing else (interruption, disruption, housekeeping) touches
     * them again: a flow whose message was lost would leave its claim draining forever. Resume those that stalled.
     */
    private int resumeStalled(List<NodeClaim> claims, Instant now) {
        int resumed = 0;
        for (NodeClaim c : claims) {
            if (TerminationService.stalled(c, now)) {
                termination.resume(c);
                resumed++;
            }
        }
        return resumed;
    }

    /**
     * The headroom, read once per sweep; empty when it cannot be read, and then emptiness keeps every node this sweep
     * rather than remove buffer capacity it cannot see.
     */
    private Optional<HeadroomPlan> headroomPlan(Instant now) {
        try {
            return Optional.of(headroom.at(now));
        } catch (RuntimeException e) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.WARNING,
                    "headroom not read, no node is removed as empty in this sweep: " + e);
            return Optional.empty();
        }
    }

    /** Where the buffers' capacity is now ({@link BufferRoom}). */
    private static BufferRoom bufferRoom(HeadroomPlan plan, List<Node> nodes, List<Pod> pods) {
        return BufferRoom.of(plan.virtualPods(), nodes, DisruptionStep.podsByNode(pods));
    }

    /** Whether a drain started now still runs its first slice in this sweep (the clock, not the sweep's start). */
    private FirstSlice firstSlice(Instant inlineUntil) {
        return clock.instant().isBefore(inlineUntil) ? FirstSlice.INLINE : FirstSlice.QUEUED;
    }

    private void patch(String node, NodePatch p) {
        NodeRegistrar.patchIfPresent(writer, node, p);
    }
}
