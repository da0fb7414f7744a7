package dev.gantry.simulator.observe;

import dev.gantry.simulator.world.aws.SimulatedInstance;
import dev.gantry.simulator.world.kube.Workloads;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.time.Clock;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.provisioning.GantryConfig;

/**
 * What is checked and measured after every step: the invariants, the cost rates (actual and the fractional lower
 * bound), recoveries after an outage, and the chart samples. Limits and recoveries are checked on every step; the
 * checks that scan every pod, claim or instance ({@link LifecycleChecks}, {@link Placement}, node compatibility, lost
 * messages) at most once per virtual second ({@link #EVERY}): their deadlines are minutes long, and at 20,000 pods a
 * scan per step (thousands of steps per simulated minute) would be most of the run. Evictions and terminations are
 * judged as they happen ({@link Observers}, {@link #terminatedByGantry}).
 */
public final class Checks {
    /** Where the checks report: a violation counted once per episode, or once. */
    interface Episodes {
        void episode(boolean bad, String kind, String key, java.util.function.Supplier<String> message);

        void violated(String kind, String message);
    }

    /**
     * The world the checks read, behind none of Gantry's ports (looking costs Gantry nothing and draws no fault): the
     * clock, the cluster, the claims, the pools as configured and the catalogue they are priced from, the Deployments,
     * EC2's live instances, the pending pods, the messages the queues lost by retention so far, and the loop's steps.
     */
    public record World(Clock clock, InMemoryCluster cluster, NodeClaimStore truth, Map<String, NodePool> pools,
                        java.util.function.Supplier<GantryConfig> config,
                 Catalog catalog, Workloads workloads, Supplier<List<SimulatedInstance>> liveInstances, IntSupplier pendingPods,
                 LongSupplier messagesLost, LongSupplier steps) {
    }

    /** The claim, instance and placement checks run at most this often (their deadlines are in minutes). */
    static final Duration EVERY = Duration.ofSeconds(1);
    private final World world;
    private final CostLimits costLimits = new CostLimits();
    /** The cost bounds the run's cost is measured against. */
    private final CostBounds bounds;
    private final DrainChecks drains;
    private final Invariants invariants;
    private final Recorder recorder;
    private final LifecycleChecks lifecycle;
    private final Placement placement;
    private final RepairChecks repairs = new RepairChecks();
    private final BooleanSupplier clusterChanged;
    private final boolean buffers;
    private final Function<Instant, List<Pod>> bufferPods;
    private final Episodes episodes = new Episodes() {
        @Override
        public void episode(boolean bad, String kind, String key, java.util.function.Supplier<String> message) {
            Checks.this.episode(bad, kind, key, message);
        }

        @Override
        public void violated(String kind, String message) {
            invariants.violated(kind, message);
        }
    };
    private Instant lastThorough = Instant.MIN;
    private long messagesLost;
    private Instant recoveringSince;
    private final java.util.Set<String> open = new java.util.HashSet<>();

    /**
     * {@code clusterChanged} says whether the cluster changed since it was last asked (node compatibility is checked
     * only then); {@code bufferPods} gives the buffers' virtual pods at an instant, when the run has {@code buffers}.
     */
    public Checks(World world, Invariants invariants, Recorder recorder, LifecycleChecks lifecycle, Placement placement,
           BooleanSupplier clusterChanged, boolean buffers, Function<Instant, List<Pod>> bufferPods) {
        this.world = world;
        this.invariants = invariants;
        this.recorder = recorder;
        this.lifecycle = lifecycle;
        this.placement = placement;
        this.clusterChanged = clusterChanged;
        this.buffers = buffers;
        this.bufferPods = bufferPods;
        this.bounds = new CostBounds(world);
        this.drains = new DrainChecks(world, invariants);
    }

    private long t() {
        return recorder.secondsSinceStart(world.clock().instant());
    }

    private CanaryWaves canaries;
    private java.util.function.Consumer<ReservationCounts> reservations = r -> { };
    private final ReservationCounts reservationCounts = new ReservationCounts();

    /** Checks that reserved launches never exceed a reservation's count: {@code counts} and {@code held}, as EC2 has them. */
    public Checks withReservations(Supplier<Map<String, Integer>> counts, Supplier<Map<String, List<String>>> held) {
        this.reservations = r -> r.check(counts.get(), held.get()).forEach(m -> invariants.violated(ReservationCounts.KIND, m));
        return this;
    }

    /** Checks that a bad image ({@code bad}) never gets past its canary wave ({@link CanaryWaves}). */
    public Checks withBadImages(java.util.function.Predicate<String> bad) {
        this.canaries = new CanaryWaves(bad, world.truth(), world.config());
        return this;
    }

    public void outage(Instant at) {
        recoveringSince = at;
    }

    public void step(long step) {
        Instant now = world.clock().instant();
        invariants.at(step, t());
        List<SimulatedInstance> live = world.liveInstances().get();
        double fractional = bounds.lowerBound();
        recorder.rates(now, live.stream().mapToDouble(SimulatedInstance::pricePerHour).sum(), fractional, bounds.packingBound(), live.size());
        recorder.capacityTypeRates(now, live.stream().collect(java.util.stream.Collectors.groupingBy(SimulatedInstance::capacityType,
                java.util.TreeMap::new, java.util.stream.Collectors.summingDouble(SimulatedInstance::pricePerHour))));
        recorder.spotSplitDrift().step(now, live, world.pools()); // #29 §4: the split's deviation over time
        reservations.accept(reservationCounts);
        limits(live);
        if (world.config().get() != null) {
            costLimits.check(live, world.pools(), world.config().get(), world.catalog(), world.cluster()::node).values()
                    .forEach(m -> invariants.violated("costLimitExceeded", m));
        }
        if (!now.isBefore(lastThorough.plus(EVERY))) {
            lastThorough = now;
            if (clusterChanged.getAsBoolean()) {
                compatibility();
            }
            lifecycle.check(now, live, episodes);
            placement.check(now, episodes);
            repairs.check(world.truth().list(now), world.cluster().nodes(), episodes);
            bufferHolders(now);
            messagesLost(world.messagesLost().getAsLong());
            if (canaries != null) {
                canaries.check(now, live, episodes);
            }
        }
        // Every step while recovering: the binding that completes a recovery does not mark the cluster changed, so
        // waiting for the next change would measure a recovery by whatever happened next.
        if (recoveringSince != null) {
            recovery(now);
        }
    }

    /** Each pool's launched capacity at the last sample, by {@code pool/resource}. */
    private final Map<String, Long> launched = new HashMap<>();

    /** Each pool's launched capacity (every live instance's, registered or not) within its limits. */
    private void limits(List<SimulatedInstance> live) {
        Map<String, Resources> used = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (SimulatedInstance i : live) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            used.merge(pool, i.type().capacity(), Resources::plus);
            count.merge(pool, 1, Integer::sum);
        }
        used.forEach((pool, r) -> {
            NodePool p = world.pools().get(pool);
            if (p == null) {
                return;
            }
            p.limits().forEach((resource, limit) -> {
                long have;
                long max;
                switch (resource) {
                    case "nodes" -> { have = count.get(pool); max = limit.toUnits(); }
                    case Resources.CPU -> { have = r.cpuMillis(); max = limit.toMillis(); }
                    default -> { have = r.get(resource); max = limit.toUnits(); }
                }
                // A limit stops launches; lowering it below what runs terminates nothing (as in Karpenter), so only
                // capacity that grew past it, or stays past it after growing, is a violation.
                String key = pool + "/" + resource;
                Long before = launched.put(key, have);
                boolean grew = before == null || have > before;
                episode(have > max && (grew || open.contains("limitExceeded " + key)), "limitExceeded", key,
                        () -> "NodePool " + pool + " has " + format(resource, have) + " of " + resource
                                + " launched, over its limit of " + limit);
            });
        });
    }

    /**
     * Counts a violation once per episode: when {@code bad} first holds for {@code key}, not on every step it lasts.
     */
    private void episode(boolean bad, String kind, String key, java.util.function.Supplier<String> message) {
        String k = kind + " " + key;
        if (bad && open.add(k)) {
            invariants.violated(kind, message.get());
        } else if (!bad) {
            open.remove(k);
        }
    }

    private static String format(String resource, long v) {
        return resource.equals(Resources.CPU) ? Quantity.ofMillis(v) + "" : Long.toString(v);
    }

    /**
     * <b>messagesLost</b>: {@code total} is how many messages the queues have dropped by retention before they reached
     * their dead-letter queue, so far; each new one is a violation.
     */
    public void messagesLost(long total) {
        for (long i = messagesLost; i < total; i++) {
            invariants.violated("messagesLost", "a message expired by retention before reaching its dead-letter queue ("
                    + (i + 1) + " so far)");
        }
        messagesLost = Math.max(messagesLost, total);
    }

    /** <b>podsKilledWithoutDrain</b>: Gantry terminated {@code i} ({@link DrainChecks}). */
    void terminatedByGantry(SimulatedInstance i) {
        drains.terminatedByGantry(i);
    }

    /** Every bound pod's node still satisfies its node selector and required affinity. */
    private void compatibility() {
        Map<String, Node> nodes = new HashMap<>();
        world.cluster().nodes().forEach(n -> nodes.put(n.name(), n));
        for (Pod p : world.cluster().pods()) {
            Node n = p.isBound() ? nodes.get(p.nodeName()) : null;
            boolean bad = n != null && !p.isDaemon() && p.nodeRequirementTerms().stream().noneMatch(t -> t.matches(n.labels()));
            episode(bad, "podsOnIncompatibleNodes", p.uid(), () -> "pod " + p.key() + " runs on " + n.name()
                    + ", whose labels do not satisfy its node affinity");
        }
    }

    /**
     * After an outage: the first step at which every replica of every Deployment runs on a Ready node whose instance is
     * alive (pods still bound to dead nodes do not count).
     */
    private void recovery(Instant now) {
        if (recoveringSince == null || world.pendingPods().getAsInt() > 0) {
            return;
        }
        java.util.Set<String> healthyNodes = new java.util.HashSet<>();
        for (SimulatedInstance i : world.liveInstances().get()) {
            Node n = world.cluster().node(i.dnsName());
            if (n != null && n.ready() && !n.deleting()) {
                healthyNodes.add(n.name());
            }
        }
        for (Workloads.Deployment d : world.workloads().deployments().values()) {
            long have = world.cluster().pods().stream().filter(p -> p.namespace().equals(d.namespace()) && d.name().equals(p.ownerName())
                    && p.isBound() && healthyNodes.contains(p.nodeName())).count();
            if (have < d.replicas()) {
                return;
            }
        }
        recorder.recoveries.add(new long[] {recorder.secondsSinceStart(recoveringSince),
                Duration.between(recoveringSince, now).toSeconds()});
        recorder.log(now, "recovered", "every pod is scheduled again, "
                + Duration.between(recoveringSince, now).toSeconds() + " s after the outage");
        recoveringSince = null;
    }

    public void sample() {
        Map<String, Integer> byType = new TreeMap<>();
        for (SimulatedInstance i : world.liveInstances().get()) {
            byType.merge(i.type().name(), 1, Integer::sum);
        }
        recorder.sample(world.clock().instant(), byType, world.pendingPods().getAsInt());
    }

    /** The end-of-run invariant: no instance of this cluster is left running without a live claim. */
    public void atEnd() {
        Instant now = world.clock().instant();
        invariants.at(world.steps().getAsLong(), t());
        step(world.steps().getAsLong());
        for (SimulatedInstance i : world.liveInstances().get()) {
            NodeClaim c = world.truth().findByInstanceId(i.id(), now).orElse(null);
            boolean young = now.isBefore(i.launchTime().plus(Duration.ofSeconds(30)));
            if (!young && (c == null || c.state() == NodeClaimState.Terminated)) {
                invariants.violated("orphanInstancesAtEnd", i.id() + " (" + i.type().name() + ") runs without a live nodeclaim");
            }
        }
    }

    /** How often the nodes holding the buffers' capacity are looked for (for the wasted-launch figure). */
    static final Duration BUFFER_HOLDERS_EVERY = Duration.ofSeconds(10);
    private Instant buffersAt = Instant.MIN;

    /**
     * Marks the nodes that hold a buffer's capacity now ({@link dev.gantry.core.headroom.BufferRoom}, as the sweep
     * places the virtual pods) as serving: a node launched for a buffer that holds its chunk is no wasted launch.
     */
    private void bufferHolders(Instant now) {
        if (!buffers || now.isBefore(buffersAt.plus(BUFFER_HOLDERS_EVERY))) {
            return;
        }
        buffersAt = now;
        List<Pod> virtual = bufferPods.apply(now);
        if (virtual.isEmpty()) {
            return;
        }
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : world.cluster().pods()) {
            if (p.isBound()) {
                byNode.computeIfAbsent(p.nodeName(), k -> new java.util.ArrayList<>()).add(p);
            }
        }
        List<Node> ready = world.cluster().nodes().stream().filter(Node::ready).toList();
        dev.gantry.core.headroom.BufferRoom.of(virtual, ready, byNode).holders().forEach(recorder::nodeServed);
    }
}
