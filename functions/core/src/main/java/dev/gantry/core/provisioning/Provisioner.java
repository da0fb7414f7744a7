package dev.gantry.core.provisioning;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.headroom.DemandHistoryStore;
import dev.gantry.core.headroom.Headroom;
import dev.gantry.core.headroom.PendingDemand;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.lifecycle.DriftStamp;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import dev.gantry.core.termination.TerminationMarkers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The provisioning application service: reads the cluster and the store, asks the {@link Scheduler} for a plan, and
 * carries it out claim by claim (record Launching, launch, record Launched), then tells pods where they will go.
 *
 * <p>Safe to run again on the same input, and after a crash at any point: claim names are derived from their pods, a
 * claim is recorded before it is launched, the launch is idempotent by claim name, and a claim left in Launching is
 * launched again (getting the same instance) at the start of the next run.
 *
 * <p>Claims planned alike (same pool, options and requirements) launch together, up to {@link #MAX_BATCH} in one
 * CreateFleet ({@link FleetBatcher}), as Karpenter's CreateFleet batcher merges identical requests. Where Gantry differs: Karpenter sends no
 * ClientToken and tags each instance with its NodeClaim after registration (its tagging controller); Gantry keeps the
 * ClientToken (the batch's launch token, recorded on every member before the call) so that a crash between the call and
 * the store writes is resumed by replaying it, and its instances carry the token rather than a claim name.
 *
 * <p>The pods of nodes that are leaving (being deleted, drained, or consolidated once their replacements are recorded:
 * {@link LeavingNodes}) are planned with the pending ones, as Karpenter's provisioner plans its deleting nodes' pods:
 * their capacity is launched before they are evicted, and a run that planned them records when it read the store
 * ({@link TerminationMarkers#REPLACEMENTS_PLANNED}), so that a drain waiting for its replacement knows that the claims
 * naming its pods are all recorded. They are running pods: never nominated, no Event, not in the outcome, not demand.
 *
 * <p>When a launch finds no capacity, its offerings are marked unavailable for {@link #UNAVAILABLE_FOR}, the claim is
 * closed ({@code launch-failed}) and what is still pending is planned again, up to {@link #MAX_ROUNDS} plans a run; a
 * run whose last plan still found no capacity says so ({@link ProvisioningOutcome#capacityShort}), and the handler asks
 * for the next run at once.
 *
 * <p>Headroom ({@link #withHeadroom}): the buffers' virtual pods are planned after the real pending pods, against what
 * the real pods leave ({@link BufferedSolve}); claims are launched for them like any other, but a virtual pod is never
 * nominated, gets no Event, and is not counted in the outcome. The real pods that waited are recorded as pending demand
 * ({@link #withDemandHistory}), the input of predicted buffers. Both are best effort: a failed headroom read or demand
 * write is logged and the run goes on for the real pods.
 *
 * <p>Errors: a retryable {@link CloudException} or any cluster/store failure propagates, so that the queue redelivers
 * the batch; claims already recorded are picked up on that next run.
 */
public final class Provisioner {
    /** How long an offering that ran out of capacity is left out of plans. */
    public static final Duration UNAVAILABLE_FOR = Duration.ofMinutes(3);
    /** How long a finished claim record stays readable (late events still find it). */
    public static final Duration RETENTION = Duration.ofHours(1);
    /** Plans per run: the first, and re-plans after insufficient capacity. */
    public static final int MAX_ROUNDS = 3;
    /** Launches (and Kubernetes Events) in flight at once: well inside EC2's CreateFleet request-rate bucket. */
    public static final int DEFAULT_PARALLELISM = 8;
    /**
     * The most claims one CreateFleet launches. Claims planned alike (same pool, options and requirements) launch
     * together as one fleet of that many instances, as Karpenter's CreateFleet batcher merges identical requests; far
     * below EC2's target-capacity quota per fleet, and small enough that one answer is quickly recorded.
     */
    public static final int MAX_BATCH = 100;
    /** How long after a run's stop time its pod Events may still start (they are quick, and best effort). */
    public static final Duration EVENTS_AFTER_STOP = Duration.ofSeconds(10);

    private final ClusterReader reader;
    private final ClusterWriter writer;
    private final NodeClaimStore store;
    private final GantryConfig config;
    private final LaunchPlanner planner;
    private final PlanningInputs inputs;
    private final ClaimLauncher launcher;
    private final Clock clock;
    private final int parallelism;
    private Headroom headroom = Headroom.NONE;
    private Fanout fanout = Fanout.THREADS;
    private DemandHistoryStore demand;
    private int batchSize = MAX_BATCH;
    private dev.gantry.core.reservation.ReservationLedger reservations = new dev.gantry.core.reservation.ReservationLedger();
    private NodeClassGate gate = NodeClassGate.OPEN;

    public Provisioner(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud,
                       InstanceTypeProvider instanceTypes, GantryConfig config, Clock clock) {
        this(reader, writer, store, cloud, instanceTypes, config, clock, DEFAULT_PARALLELISM);
    }

    /** @param parallelism how many claims launch at once (1: one after another, in plan order) */
    public Provisioner(ClusterReader reader, ClusterWriter writer, NodeClaimStore store, CloudProvider cloud,
                       InstanceTypeProvider instanceTypes, GantryConfig config, Clock clock, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.parallelism = parallelism;
        this.reader = Objects.requireNonNull(reader, "reader");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.planner = new LaunchPlanner(config, Objects.requireNonNull(instanceTypes, "instanceTypes"));
        this.inputs = planner.inputs();
        this.launcher = new ClaimLauncher(store, Objects.requireNonNull(cloud, "cloud"), clock);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How launches and Events run side by side (default {@link Fanout#THREADS}). */
    public Provisioner withFanout(Fanout fanout) {
        this.fanout = Objects.requireNonNull(fanout, "fanout");
        return this;
    }

    /** At most {@code n} claims per CreateFleet (default {@link #MAX_BATCH}; 1: every claim launches alone). */
    public Provisioner withBatchSize(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + n);
        }
        this.batchSize = n;
        return this;
    }

    /**
     * The ledger the instance types' reserved offerings sync ({@code ReservedOfferings}): the claims planned on them
     * take their slots from it (default: an empty one, for a provider without reservations).
     */
    public Provisioner withReservations(dev.gantry.core.reservation.ReservationLedger ledger) {
        this.reservations = Objects.requireNonNull(ledger, "ledger");
        return this;
    }

    /** Which NodeClasses can launch now: pools of the others are left out of every plan (default: all can). */
    public Provisioner withNodeClassGate(NodeClassGate gate) {
        this.gate = Objects.requireNonNull(gate, "gate");
        return this;
    }

    /** The buffers to keep warm (default {@link Headroom#NONE}). */
    public Provisioner withHeadroom(Headroom headroom) {
        this.headroom = Objects.requireNonNull(headroom, "headroom");
        return this;
    }

    /** Where the pending demand of each run is recorded (default: nowhere). */
    public Provisioner withDemandHistory(DemandHistoryStore demand) {
        this.demand = Objects.requireNonNull(demand, "demand");
        return this;
    }

    /** {@link #provision(Instant)} at the clock's current instant. */
    public ProvisioningOutcome provision() {
        return provision(clock.instant());
    }

    /** One provisioning run as of {@code now}, with no time limit: resume interrupted launches, plan, launch, nominate. */
    public ProvisioningOutcome provision(Instant now) {
        return provision(now, Instant.MAX);
    }

    /**
     * One provisioning run as of {@code now} that starts no launch after {@code stopBy} (the invocation's deadline less
     * what a launch already under way and the run's Events need), and no pod Event after {@code stopBy} plus
     * {@link #EVENTS_AFTER_STOP} (an Event not sent is dropped, the nomination stands). A planned claim whose launch
     * would start later is not recorded: its pods stay pending for the next run, and {@link ProvisioningOutcome#deferred()} says how many
     * claims wait for it, so the caller can ask for that run at once rather than be killed at its deadline.
     */
    public ProvisioningOutcome provision(Instant now, Instant stopBy) {
        Objects.requireNonNull(stopBy, "stopBy");
        ClusterView view = ClusterView.read(reader);
        RunLog log = new RunLog(view.pending(), now);
        FleetBatcher fleets = new FleetBatcher(config, launcher, clock, fanout, parallelism, batchSize);
        new ResumedLaunches(store, config, inputs, launcher, clock).resume(now, stopBy, log);
        List<Pod> virtual = virtualPods(now);
        Set<String> closed = null; // asked once, when there is something to plan
        SchedulingResult last = null;
        int rounds = 0;
        Instant leavingReadAt = null;
        Set<String> spotOut = new HashSet<>(); // pools whose spot launches found no capacity in an earlier round
        boolean capacityShort = false;
        while (rounds < MAX_ROUNDS) {
            Instant readAt = clock.instant();
            List<NodeClaim> claims = store.list(now);
            Set<dev.gantry.core.catalog.OfferingKey> unavailable = store.unavailableOfferings(now);
            SchedulingInput input = planner.input(view, claims, unavailable, now);
            if (leavingReadAt == null && !PlanningInputs.leaving(view, claims).isEmpty()) {
                leavingReadAt = readAt; // this round plans the pods of the leaving nodes it read
            }
            if (input.pending().isEmpty() && virtual.isEmpty()) {
                break;
            }
            closed = closed != null ? closed : ReadyPools.closed(config, gate).keySet();
            // A split pool whose spot launches found no capacity in an earlier round plans without spot (SpotSplit).
            input = dev.gantry.core.capacity.SpotSplit.withoutSpot(ReadyPools.without(input, closed), spotOut);
            rounds++;
            // No more claims on a reserved offering than its reservations have slots (core.reservation.ReservedSlots).
            BufferedSolve solved = planner.solve(view, input, virtual, claims, p -> dev.gantry.core.reservation.ReservedSlots
                    .limit(p, dev.gantry.core.reservation.ReservedSlots.of(reservations, claims, now)));
            if (rounds == 1) {
                recordDemand(input, solved.real(), log.reported(), now);
            }
            // Gantry's spot/on-demand split, then its dollar limit, on the solver's plan (core.capacity).
            // Reserved claims take their reservations' slots before the limit sees their price (core.reservation).
            last = dev.gantry.core.capacity.CostLimit.apply(dev.gantry.core.reservation.ReservationAssignment.apply(
                    dev.gantry.core.capacity.SpotSplit.apply(solved.merged(), input), claims, reservations, now), input,
                    claims, view.inFlight(claims));
            nominateInFlight(last, claims, log);
            FleetBatcher.Outcome launched = fleets.launch(last.newClaims(), now, stopBy, log,
                    rounds == MAX_ROUNDS ? FleetBatcher.Round.LAST : FleetBatcher.Round.MORE_TO_COME);
            spotOut.addAll(launched.spotOut());
            // Only when this round found out offerings the next run's plan will leave out: an ICE that names none
            // (no subnet in the claim's zones: NoAvailableOffering) would have the next run plan and fail the same.
            capacityShort = launched.outOfCapacity() && log.deferred() == 0 && rounds == MAX_ROUNDS
                    && !unavailable.containsAll(store.unavailableOfferings(now));
            if (!launched.outOfCapacity() || log.deferred() > 0) {
                break;
            }
        }
        if (last != null) {
            last.unschedulable().forEach(u -> log.unschedulable(u.pod(), u.reason()));
        }
        if (leavingReadAt != null && log.deferred() == 0) {
            // Every leaving pod read then has its capacity recorded (or none to be had): drains waiting for it may look.
            store.setMarker(TerminationMarkers.REPLACEMENTS_PLANNED, leavingReadAt);
        }
        Instant eventsBy = stopBy.isAfter(Instant.MAX.minus(EVENTS_AFTER_STOP)) ? Instant.MAX : stopBy.plus(EVENTS_AFTER_STOP);
        log.emitEvents(writer, fanout, parallelism, () -> clock.instant().isBefore(eventsBy));
        recordUsage(view, now);
        return log.outcome(rounds, capacityShort);
    }

    /**
     * Nominates the pods planned onto claims in flight. A pod a claim was launched for had its Nominated Event then;
     * repeating it on every redelivery is noise.
     */
    private static void nominateInFlight(SchedulingResult plan, List<NodeClaim> claims, RunLog log) {
        Map<String, Set<String>> launchedFor = new HashMap<>();
        claims.forEach(c -> launchedFor.put(c.name(), Set.copyOf(c.pods())));
        plan.inFlightClaims().forEach((claim, pods) -> pods.forEach(p -> {
            if (launchedFor.getOrDefault(claim, Set.of()).contains(p.key())) {
                log.renominate(p, claim);
            } else {
                log.nominate(p, claim);
            }
        }));
    }

    /** The buffers' virtual pods now; none when headroom cannot be read (the real pods must not wait on it). */
    private List<Pod> virtualPods(Instant now) {
        try {
            return headroom.at(now).virtualPods();
        } catch (RuntimeException e) {
            System.getLogger(Provisioner.class.getName()).log(System.Logger.Level.WARNING,
                    "headroom not read, buffers are not planned in this run: " + e);
            return List.of();
        }
    }

    /**
     * What the real pods that waited requested, per pool (the pods of leaving nodes are not demand: they are running).
     * Best effort: a lost sample makes a buffer slightly smaller.
     */
    private void recordDemand(SchedulingInput input, SchedulingResult real, Set<String> pending, Instant now) {
        if (demand == null) {
            return;
        }
        try {
            PendingDemand.waves(input, onlyPods(real, pending)).forEach((pool, pods) -> demand.record(pool, now, pods));
        } catch (RuntimeException e) {
            System.getLogger(Provisioner.class.getName()).log(System.Logger.Level.WARNING,
                    "pending demand not recorded: " + e.getClass().getSimpleName());
        }
    }

    /** The plan with only the pods named in {@code keys} on its new claims and claims in flight. */
    private static SchedulingResult onlyPods(SchedulingResult r, Set<String> keys) {
        List<SchedulingResult.NodeClaimPlan> claims = r.newClaims().stream().map(c -> new SchedulingResult.NodeClaimPlan(
                c.name(), c.nodePool(), c.requirements(), c.instanceTypeOptions(), c.instanceType(), c.offering(),
                c.pods().stream().filter(p -> keys.contains(p.key())).toList(), c.requests())).toList();
        Map<String, List<Pod>> inFlight = new HashMap<>();
        r.inFlightClaims().forEach((claim, pods) -> inFlight.put(claim, pods.stream().filter(p -> keys.contains(p.key())).toList()));
        return new SchedulingResult(r.existingNodes(), inFlight, claims, r.unschedulable(), r.totalPricePerHour(),
                r.lowerBoundPerHour(), r.strategy());
    }

    /**
     * The pools as a run plans with them now: every NodePool with a NodeClass that can launch, its priced instance types
     * (offerings recently out of capacity marked unavailable), its usage and node count. Consolidation decides over these.
     */
    public List<SchedulingInput.PoolOffer> poolOffers(ClusterView view, Instant now) {
        return ReadyPools.without(inputs.build(view, store.list(now), store.unavailableOfferings(now), now),
                ReadyPools.closed(config, gate).keySet()).pools();
    }

    /**
     * Records a consolidation replacement as a Launching claim under {@code name} (marked
     * {@link NodeClaim#fromConsolidation()}), or returns the in-flight claim already recorded under it. The next
     * provisioning run launches it ({@link ResumedLaunches}), as any claim a crashed run left Launching: the same
     * launch path, the same idempotency by claim name.
     */
    public NodeClaim recordReplacement(SchedulingResult.NodeClaimPlan plan, String name, Instant now) {
        var pool = config.nodePool(plan.nodePool()).orElseThrow(() -> new IllegalArgumentException("no NodePool " + plan.nodePool()));
        var nodeClass = config.nodeClassOf(pool).orElseThrow(() -> new IllegalArgumentException("no NodeClass for " + pool.name()));
        // A replacement planned on a reservation takes its slot as a provisioned claim does (core.reservation).
        SchedulingResult.NodeClaimPlan pinned = dev.gantry.core.reservation.ReservationAssignment.one(plan,
                () -> store.list(now), reservations, now);
        SchedulingResult.NodeClaimPlan named = new SchedulingResult.NodeClaimPlan(name, pinned.nodePool(), pinned.requirements(),
                pinned.instanceTypeOptions(), pinned.instanceType(), pinned.offering(), pinned.pods(), pinned.requests());
        DriftStamp stamp = DriftHashes.stamp(pool, nodeClass);
        return FreshClaimNames.record(store, name, n -> NodeClaim.launching(n, named.nodePool(),
                stamp.nodeClassHash(), named.requirements().toList(),
                named.instanceTypeOptions().stream().map(InstanceType::name).toList(),
                named.pods().stream().map(Pod::key).toList(), named.instanceType().name(), named.offering().zone(),
                named.offering().capacityType(), named.pricePerHour(), now).launchedByConsolidation().withDrift(stamp), now);
    }

    /**
     * Records a claim of a static NodePool made from its template alone ({@link TemplateClaims}) under {@code name}, or
     * returns the in-flight claim already recorded under it; empty when the pool has nothing to launch. The next
     * provisioning run launches it, as it launches a consolidation replacement. Empty too while the pool's NodeClass
     * cannot launch ({@link #withNodeClassGate}).
     */
    public java.util.Optional<NodeClaim> recordFromTemplate(dev.gantry.core.model.NodePool pool, String name, Instant now) {
        if (config.nodeClassOf(pool).flatMap(gate::notReady).isPresent()) {
            return java.util.Optional.empty();
        }
        return new TemplateClaims(config, inputs, store).record(pool, name, now);
    }

    /**
     * Each pool's usage after this run (launches included), as the snapshot status and dashboards read. Best effort:
     * planning never reads it back, so a failed write must not fail the run.
     */
    private void recordUsage(ClusterView view, Instant now) {
        try {
            for (SchedulingInput.PoolOffer p : inputs.build(view, store.list(now), Set.of(), now).pools()) {
                store.recordPoolUsage(new PoolUsage(p.pool().name(), p.usage(), p.nodeCount(), now));
            }
        } catch (RuntimeException e) {
            System.getLogger(Provisioner.class.getName()).log(System.Logger.Level.WARNING,
                    "pool usage not recorded (the next run records it again): " + e.getClass().getSimpleName());
        }
    }
}
