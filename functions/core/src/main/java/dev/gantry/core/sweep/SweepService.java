package dev.gantry.core.sweep;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.disruption.DisruptionCommand;
import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.sweep.HousekeepingCommand.AdoptInstance;
import dev.gantry.core.sweep.HousekeepingCommand.DrainOrphan;
import dev.gantry.core.sweep.HousekeepingCommand.FinishClaim;
import dev.gantry.core.sweep.HousekeepingCommand.MarkNotReady;
import dev.gantry.core.sweep.HousekeepingCommand.Repair;
import dev.gantry.core.sweep.HousekeepingCommand.StartDeletedNode;
import dev.gantry.core.sweep.HousekeepingCommand.TerminateLeaked;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import dev.gantry.core.termination.TerminationStart.Replacement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduled sweep: registration, liveness and garbage collection, missed deletions, the provisioning backstop,
 * emptiness and expiry, and resuming stalled termination flows. Every step is idempotent (it acts on a fresh snapshot and conditional writes) and bounded (one
 * list of each kind, then per-object work for the few objects that need it).
 */
public final class SweepService {
    /** The marker holding when the last provisioning hint went out (written by whoever sends one). */
    public static final String LAST_HINT = "last-hint";
    public static final Duration BACKSTOP_AFTER = Duration.ofMinutes(1);

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
    private Runnable refresh = () -> { };
    private dev.gantry.core.headroom.Headroom headroom = dev.gantry.core.headroom.Headroom.NONE;
    private dev.gantry.core.disruption.execution.ConsolidationService consolidation;

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
    }

    /**
     * The headroom to keep: emptiness and consolidation leave the nodes that the buffers' virtual pods need (default
     * {@link dev.gantry.core.headroom.Headroom#NONE}).
     */
    public SweepService withHeadroom(dev.gantry.core.headroom.Headroom headroom) {
        this.headroom = java.util.Objects.requireNonNull(headroom, "headroom");
        return this;
    }

    /**
     * The consolidation step (after emptiness and expiry): pod events, command upkeep, and a decision when no command is
     * under way. Without it the sweep does not consolidate.
     */
    public SweepService withConsolidation(dev.gantry.core.disruption.execution.ConsolidationService consolidation) {
        this.consolidation = java.util.Objects.requireNonNull(consolidation, "consolidation");
        return this;
    }

    /**
     * The refresh step: {@code refresh} re-reads prices and offerings whose TTLs ran out. It must not block for long
     * (the adapter refreshes in the background) and its failures are the adapter's to absorb.
     */
    public SweepService withRefresh(Runnable refresh) {
        this.refresh = java.util.Objects.requireNonNull(refresh, "refresh");
        return this;
    }

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
        // Stalled drains first: a sweep that fails further on (a crash, an API-server error) has still resumed them,
        // so a flow never depends on one sweep getting to its end.
        List<NodeClaim> stored = store.list(now);
        int resumed = resumeStalled(stored, now);
        List<Node> nodes = reader.nodes();
        List<Pod> pods = reader.pods();
        int[] reg = register(stored, nodes, now);
        List<NodeClaim> claims = store.list(now);
        untaintStale(nodes, claims);
        Map<String, Integer> terminated = new java.util.TreeMap<>();
        int[] hk = housekeep(claims, nodes, now, terminated, inlineUntil);
        Optional<dev.gantry.core.headroom.HeadroomPlan> plan = headroomPlan(now);
        Optional<dev.gantry.core.headroom.BufferRoom> room = plan.map(h -> bufferRoom(h, nodes, pods));
        boolean backstop = backstop(pods, room.map(dev.gantry.core.headroom.BufferRoom::unplaced).orElse(List.of()), now);
        int[] dis = disrupt(store.list(now), reader.nodes(), pods, room, now, terminated, inlineUntil, startUntil);
        dev.gantry.core.disruption.execution.ConsolidationReport consolidated = consolidate(now, plan);
        List<NodeClaim> after = store.list(now);
        double hourlyCost = after.stream().filter(c -> c.state() != NodeClaimState.Terminated)
                .mapToDouble(NodeClaim::pricePerHour).sum();
        return new SweepReport(reg[0], reg[1], hk[0], hk[1], hk[2], backstop, dis[0], dis[1], terminated, hourlyCost, resumed,
                consolidated);
    }

    /**
     * The consolidation step, over the headroom this sweep read (none read: no node is consolidated this sweep, as with
     * emptiness); its failure is logged and leaves the rest of the sweep alone (the next sweep retries).
     */
    private dev.gantry.core.disruption.execution.ConsolidationReport consolidate(
            Instant now, Optional<dev.gantry.core.headroom.HeadroomPlan> plan) {
        if (consolidation == null || plan.isEmpty()) {
            return dev.gantry.core.disruption.execution.ConsolidationReport.NONE;
        }
        try {
            return consolidation.sweep(plan.get().virtualPods());
        } catch (RuntimeException e) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.WARNING,
                    "sweep: consolidation step failed, the next sweep retries: " + e);
            return new dev.gantry.core.disruption.execution.ConsolidationReport(0, 0, 0, null, "failed: " + e, List.of(), 0, 0, 0);
        }
    }

    /**
     * Removes the {@code karpenter.sh/disrupted} taints no flow owns
     * ({@link dev.gantry.core.disruption.execution.StaleTaints}); {@code nodes} must have been read before {@code claims}.
     */
    private void untaintStale(List<Node> nodes, List<NodeClaim> claims) {
        List<String> stale = dev.gantry.core.disruption.execution.StaleTaints.of(nodes, claims);
        for (String node : stale) {
            patch(node, new NodePatch(null, null, List.of(dev.gantry.core.model.Taint.DISRUPTED.key()), null, null, null));
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
        return register(store.list(now), reader.nodes(), now)[0];
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
            finish(c.name(), "final-sweep", now);
        }
        return ids.size();
    }

    private int[] register(List<NodeClaim> claims, List<Node> nodes, Instant now) {
        int registered = 0;
        int initialized = 0;
        NodeIndex index = new NodeIndex(nodes);
        for (NodeClaim c : claims) {
            if (c.state() != NodeClaimState.Launched && c.state() != NodeClaimState.Registered) {
                continue;
            }
            Optional<Node> node = index.of(c);
            NodePool pool = pools.get(c.nodePool());
            if (node.isEmpty() || pool == null) {
                continue;
            }
            InstanceFacts f = c.instanceType() == null ? InstanceFacts.NONE : facts.of(c.instanceType()).orElse(InstanceFacts.NONE);
            Optional<Registration.Step> step = Registration.decide(c, node.get(), pool, f, now);
            if (step.isEmpty()) {
                continue;
            }
            if (step.get().patch() != null) {
                patch(node.get().name(), step.get().patch());
            }
            try {
                store.update(step.get().updated());
                registered += c.state() == NodeClaimState.Launched ? 1 : 0;
                initialized += step.get().updated().state() == NodeClaimState.Initialized ? 1 : 0;
            } catch (NodeClaimStore.Conflict lost) {
                // changed under us (an interruption, say): the next sweep decides again
            }
        }
        return new int[] {registered, initialized};
    }

    private int[] housekeep(List<NodeClaim> claims, List<Node> nodes, Instant now, Map<String, Integer> terminated,
                            Instant inlineUntil) {
        List<HousekeepingCommand> commands = Housekeeping.decide(cluster, claims, cloud.listInstances(), nodes, now);
        List<String> leaked = new ArrayList<>();
        int finished = 0;
        int deleted = 0;
        for (HousekeepingCommand c : commands) {
            switch (c) {
                case TerminateLeaked t -> leaked.add(t.instanceId());
                case FinishClaim f -> {
                    if (f.instanceId() != null) {
                        cloud.terminate(List.of(f.instanceId()));
                        terminated.merge(f.reason(), 1, Integer::sum);
                    }
                    if (f.node() != null) {
                        writer.deleteNode(f.node());
                        patch(f.node(), NodePatch.removeFinalizer(Node.FINALIZER));
                    }
                    finish(f.claim(), f.reason(), now);
                    finished++;
                }
                case AdoptInstance a -> adopt(a, now);
                case MarkNotReady m -> store.get(m.claim(), now).ifPresent(claim -> {
                    try {
                        store.update(claim.notReadySince(m.since()));
                    } catch (NodeClaimStore.Conflict lost) {
                        // changed meanwhile: the next sweep looks again
                    }
                });
                case Repair r -> termination.start(r.claim(), TerminationStart.because(r.reason()).by(now).with(firstSlice(inlineUntil)))
                        .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                        .ifPresent(slice -> terminated.merge(r.reason(), 1, Integer::sum));
                case DrainOrphan o -> drainOrphan(o, nodes, now, terminated, firstSlice(inlineUntil));
                case StartDeletedNode d -> nodes.stream().filter(n -> n.name().equals(d.node())).findFirst()
                        .ifPresent(n -> termination.startForDeletedNode(n, firstSlice(inlineUntil)));
            }
            deleted += c instanceof StartDeletedNode ? 1 : 0;
        }
        if (!leaked.isEmpty()) {
            cloud.terminate(leaked);
            terminated.merge("gc", leaked.size(), Integer::sum);
        }
        return new int[] {leaked.size(), finished, deleted};
    }

    /** Records the instance a crashed launch left behind (the provisioner's resume may record it too: same value). */
    private void adopt(AdoptInstance a, Instant now) {
        store.get(a.claim(), now).filter(c -> c.state() == NodeClaimState.Launching).ifPresent(c -> {
            try {
                store.update(c.launched(a.instanceId(), a.instanceType(), a.zone(), a.capacityType(), c.pricePerHour(), now));
            } catch (NodeClaimStore.Conflict lost) {
                // the provisioner recorded it meanwhile
            }
        });
    }

    /**
     * An instance no live claim owns, but a Node registered for it and pods may run there: record a claim for it
     * (so the flow has something to drive) and drain it through the termination flow like any other node.
     */
    private void drainOrphan(DrainOrphan o, List<Node> nodes, Instant now, Map<String, Integer> terminated, FirstSlice firstSlice) {
        Node node = nodes.stream().filter(n -> n.name().equals(o.node())).findFirst().orElse(null);
        if (node == null) {
            return;
        }
        String pool = node.labels().getOrDefault(WellKnownLabels.NODEPOOL, "unknown");
        String type = node.labels().get(WellKnownLabels.INSTANCE_TYPE);
        String zone = node.labels().get(WellKnownLabels.ZONE);
        String capacity = node.labels().get(WellKnownLabels.CAPACITY_TYPE);
        String planned = "gc-" + o.instanceId().toLowerCase(java.util.Locale.ROOT);
        NodeClaim recorded = FreshClaimNames.record(store, planned, name -> NodeClaim.launching(name, pool, null, List.of(),
                List.of(), List.of(), type, zone, capacity, 0, now).launched(o.instanceId(), type, zone, capacity, 0, now)
                .registered(node.name(), now).draining("gc", now), now);
        termination.start(recorded.name(), TerminationStart.because("gc").with(firstSlice))
                .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                .ifPresent(slice -> terminated.merge("gc", 1, Integer::sum));
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
    private Optional<dev.gantry.core.headroom.HeadroomPlan> headroomPlan(Instant now) {
        try {
            return Optional.of(headroom.at(now));
        } catch (RuntimeException e) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.WARNING,
                    "headroom not read, no node is removed as empty in this sweep: " + e);
            return Optional.empty();
        }
    }

    /** Where the buffers' capacity is now ({@link dev.gantry.core.headroom.BufferRoom}). */
    private static dev.gantry.core.headroom.BufferRoom bufferRoom(dev.gantry.core.headroom.HeadroomPlan plan, List<Node> nodes,
                                                                  List<Pod> pods) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        pods.stream().filter(Pod::isBound).forEach(p -> byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p));
        return dev.gantry.core.headroom.BufferRoom.of(plan.virtualPods(), nodes, byNode);
    }

    /**
     * A hint when pods wait and no hint came for {@link #BACKSTOP_AFTER}: a real pending pod, or a buffer's virtual pod
     * the existing nodes have no room for (a window opening, or a real pod that took the buffer's room).
     */
    private boolean backstop(List<Pod> pods, List<Pod> unplacedVirtual, Instant now) {
        Optional<Pod> pending = pods.stream().filter(Pod::isProvisionable).findFirst()
                .or(() -> unplacedVirtual.stream().findFirst());
        if (pending.isEmpty()) {
            return false;
        }
        Optional<Instant> last = store.marker(LAST_HINT);
        if (last.isPresent() && now.isBefore(last.get().plus(BACKSTOP_AFTER))) {
            return false;
        }
        hints.send(ProvisioningHints.BACKSTOP, pending.get(), null, now);
        store.setMarker(LAST_HINT, now);
        return true;
    }

    private int[] disrupt(List<NodeClaim> claims, List<Node> nodes, List<Pod> pods,
                          Optional<dev.gantry.core.headroom.BufferRoom> room, Instant now, Map<String, Integer> terminated,
                          Instant inlineUntil, Instant startUntil) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : pods) {
            if (p.isBound()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
            }
        }
        List<DisruptionDecision.Candidate> candidates = new ArrayList<>();
        NodeIndex index = new NodeIndex(nodes);
        for (NodeClaim c : claims) {
            index.of(c).ifPresent(n ->
                    candidates.add(new DisruptionDecision.Candidate(c, n, byNode.getOrDefault(n.name(), List.of()))));
        }
        int marks = 0;
        int disrupted = 0;
        java.util.function.Predicate<String> buffers = room.<java.util.function.Predicate<String>>map(r -> r.holders()::contains)
                .orElse(n -> true);
        // A replacement waiting for a leaving node's pods holds their room: not empty, though nothing runs there yet.
        java.util.Set<String> replacing = dev.gantry.core.provisioning.LeavingNodes.holders(claims, nodes, pods);
        java.util.function.Predicate<String> holding = buffers.or(replacing::contains);
        int deferred = 0;
        DisruptionDecision.Candidate replaceFirst = null;
        for (DisruptionCommand c : DisruptionDecision.decide(pools, candidates, holding, now)) {
            if (c instanceof DisruptionCommand.Disrupt && !clock.instant().isBefore(startUntil)) {
                deferred++; // out of time for this sweep: the next one decides it again
                continue;
            }
            switch (c) {
                case DisruptionCommand.SetEmptySince s -> {
                    patch(s.node(), NodePatch.labels(Map.of(DisruptionDecision.EMPTY_SINCE,
                            s.since() == null ? "" : Long.toString(s.since().getEpochSecond()))));
                    marks++;
                }
                case DisruptionCommand.Disrupt d -> {
                    // An empty node often finishes in this first slice, so only the sweep can count it. Replace first: the
                    // drain waits until the provisioner has planned the node's pods and their capacity is initialized,
                    // so its first slice (a taint, then waiting) is the termination handler's, not this sweep's time.
                    termination.start(d.claim(), TerminationStart.because(d.reason()).with(Replacement.awaitedIf(d.replaceFirst()))
                                    .with(d.replaceFirst() ? FirstSlice.QUEUED : firstSlice(inlineUntil)))
                            .filter(slice -> slice.finished() && !slice.commands().isEmpty())
                            .ifPresent(slice -> terminated.merge(d.reason(), 1, Integer::sum));
                    if (d.replaceFirst() && replaceFirst == null) {
                        replaceFirst = candidates.stream().filter(x -> x.claim().name().equals(d.claim())).findFirst().orElse(null);
                    }
                    disrupted++;
                }
            }
        }
        if (replaceFirst != null) {
            // One hint brings the provisioning run that plans every leaving node's pods; sent after the drains began,
            // so that run reads their claims marked (the drains wait for a run that did).
            hints.send(ProvisioningHints.REPLACEMENT, replaceFirst.pods().stream().filter(p -> !p.isDaemon()).findFirst()
                    .orElse(null), replaceFirst.node().name(), now);
        }
        if (deferred > 0) {
            System.getLogger(SweepService.class.getName()).log(System.Logger.Level.INFO,
                    "sweep: " + deferred + " disruptions left for the next sweep (out of time)");
        }
        return new int[] {marks, disrupted};
    }

    /** Whether a drain started now still runs its first slice in this sweep (the clock, not the sweep's start). */
    private FirstSlice firstSlice(Instant inlineUntil) {
        return clock.instant().isBefore(inlineUntil) ? FirstSlice.INLINE : FirstSlice.QUEUED;
    }

    private void finish(String name, String reason, Instant now) {
        Optional<NodeClaim> c = store.get(name, now);
        if (c.isPresent() && c.get().state() != NodeClaimState.Terminated) {
            try {
                store.update(c.get().draining(reason, now).terminated(now, TerminationService.RETENTION));
            } catch (NodeClaimStore.Conflict lost) {
                // the next sweep sees the new state and decides again
            }
        }
    }

    /**
     * A claim's Node: the first in list order whose instance is the claim's or whose name the claim registered with.
     * Indexed, so that matching every claim costs one pass over the nodes, not one per claim (1,000 nodes made the
     * pairwise search a million provider-id parses per sweep).
     */
    private static final class NodeIndex {
        private final Map<String, Integer> byInstance = new HashMap<>();
        private final Map<String, Integer> byName = new HashMap<>();
        private final List<Node> nodes;

        NodeIndex(List<Node> nodes) {
            this.nodes = nodes;
            for (int i = 0; i < nodes.size(); i++) {
                Node n = nodes.get(i);
                String id = n.instanceId();
                if (id != null) {
                    byInstance.putIfAbsent(id, i);
                }
                byName.putIfAbsent(n.name(), i);
            }
        }

        Optional<Node> of(NodeClaim c) {
            Integer a = c.instanceId() == null ? null : byInstance.get(c.instanceId());
            Integer b = c.nodeName() == null ? null : byName.get(c.nodeName());
            Integer first = a;
            if (first == null || (b != null && b < first)) {
                first = b;
            }
            return first == null ? Optional.empty() : Optional.of(nodes.get(first));
        }
    }

    private void patch(String node, NodePatch p) {
        try {
            writer.patchNode(node, p);
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }
}
