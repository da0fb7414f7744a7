package dev.gantry.core.disruption.execution;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.lifecycle.ConsolidationMark;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingQueue;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.termination.LifecycleWorld;
import dev.gantry.core.termination.TerminationService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The consolidation service over the lifecycle's in-memory world: one pool (WhenEmptyOrUnderutilized, consolidateAfter
 * 0, budget 100%), a catalogue of a 2-vCPU type "big" at $0.10/h and a 1-vCPU type "small" at $0.04/h (or one given),
 * nodes of the catalogue's first type. The service (and the termination flow it hands over to) writes through
 * {@link #store}, whose hooks let a test put a crash or another delivery between two of its calls.
 */
final class ConsolidationWorld {
    static final long GI = 1L << 30;
    static final String POOL = "default";
    final NodePool pool;
    final LifecycleWorld w;
    final List<InstanceType> types;
    final List<String> recordedReplacements = new ArrayList<>();
    final HookedStore store;
    final ConsolidationService service;
    final List<String> journal = new ArrayList<>();
    /** Recording a replacement throws (a step that fails every time). */
    boolean failReplacements;
    private int pods;

    ConsolidationWorld() {
        this(true);
    }

    /** @param withSmall whether the catalogue also has the 1-vCPU type (replacements) or only the 2-vCPU one (deletes) */
    ConsolidationWorld(boolean withSmall) {
        this(withSmall, Duration.ZERO);
    }

    ConsolidationWorld(boolean withSmall, Duration consolidateAfter) {
        this(withSmall ? List.of(type("big", 2, 0.10), type("small", 1, 0.04)) : List.of(type("big", 2, 0.10)), consolidateAfter);
    }

    /** @param types the catalogue; nodes are of its first type */
    ConsolidationWorld(List<InstanceType> types, Duration consolidateAfter) {
        this(types, consolidateAfter, new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of()));
    }

    /** @param budget the pool's one disruption budget */
    ConsolidationWorld(List<InstanceType> types, Duration consolidateAfter, NodePool.Budget budget) {
        this(types, consolidateAfter, budget, LifecycleFixtures.poolWith(POOL, new NodePool.Disruption(
                NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(consolidateAfter), List.of(budget)),
                Optional.empty(), Optional.empty(), Map.of()));
    }

    /** @param pool the NodePool itself (named {@link #POOL}), with its annotations and requirements */
    ConsolidationWorld(List<InstanceType> types, Duration consolidateAfter, NodePool.Budget budget, NodePool pool) {
        this.pool = pool;
        w = new LifecycleWorld(pool);
        this.types = List.copyOf(types);
        store = new HookedStore(w.store);
        TerminationService termination = new TerminationService(w.cluster, w.cluster, store, w.cloud, w.queue,
                Map.of(POOL, pool), w.clock);
        service = new ConsolidationService(w.cluster, w.cluster, store, termination, w.hints, w.queue,
                (view, now) -> List.of(new SchedulingInput.PoolOffer(pool, this.types, Resources.ZERO, 0)),
                (plan, name, now) -> {
                    if (failReplacements) {
                        throw new IllegalStateException("recording " + name + " fails");
                    }
                    recordedReplacements.add(name);
                    return FreshClaimNames.record(w.store, name, n -> NodeClaim.launching(n, plan.nodePool(), "h",
                            plan.requirements().toList(), plan.instanceTypeOptions().stream().map(InstanceType::name).toList(),
                            plan.pods().stream().map(Pod::key).toList(), plan.instanceType().name(), plan.offering().zone(),
                            plan.offering().capacityType(), plan.pricePerHour(), now).launchedByConsolidation(), now);
                }, ConsolidationSettings.DEFAULT, w.clock)
                .withJournal((what, command, line, savings) -> journal.add(what + ": " + line));
    }

    static InstanceType type(String name, int cpu, double price) {
        return new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, 4 * cpu * GI, 100 * GI, 110, Map.of()), Resources.ZERO,
                List.of(Offering.of("us-east-1a", "on-demand", price)));
    }

    /**
     * An initialized claim {@code name} on a Ready node {@code node-<name>} of the catalogue's first type, with pods of
     * {@code cpuMillis} each.
     */
    NodeClaim node(String name, long... cpuMillis) {
        return node(name, "on-demand", cpuMillis);
    }

    /** As {@link #node(String, long...)}, bought as {@code capacityType} in us-east-1a. */
    NodeClaim node(String name, String capacityType, long... cpuMillis) {
        Instant at = LifecycleFixtures.T0.minus(Duration.ofMinutes(55));
        String type = types.getFirst().name();
        double price = types.getFirst().offerings().getFirst().pricePerHour();
        NodeClaim c = w.store.create(NodeClaim.launching(name, POOL, "h", List.of(), List.of(type), List.of(), type, "us-east-1a",
                capacityType, price, at).launched("i-" + name, type, "us-east-1a", capacityType, price, at)
                .registered("node-" + name, at).initialized(at));
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.NODEPOOL, POOL);
        labels.put(WellKnownLabels.INSTANCE_TYPE, type);
        labels.put(WellKnownLabels.ZONE, "us-east-1a");
        labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        labels.put(WellKnownLabels.ARCH, "amd64");
        labels.put(WellKnownLabels.OS, "linux");
        labels.put(Node.INITIALIZED_LABEL, "true");
        w.cluster.putNode(new Node("node-" + name, "aws:///us-east-1a/i-" + name, labels, Map.of(), List.of(),
                types.getFirst().allocatable(), true, false, false, at, List.of(Node.FINALIZER), null));
        w.cloud.addOwned("i-" + name, name);
        for (long cpu : cpuMillis) {
            pod("node-" + name, cpu);
        }
        return c;
    }

    Pod pod(String node, long cpuMillis) {
        return pod(node, cpuMillis, Map.of());
    }

    /** A running web pod on {@code node}, created at T0, with {@code annotations}. */
    Pod pod(String node, long cpuMillis, Map<String, String> annotations) {
        pods++;
        Pod p = Pod.builder("default", "web-" + pods).uid("uid-" + pods).nodeName(node).owner("ReplicaSet", "web")
                .labels(Map.of("app", "web")).annotations(annotations).requests(Resources.of(cpuMillis, GI))
                .status(new Pod.Status("Running", false, LifecycleFixtures.T0, null, null)).build();
        w.cluster.putPod(p);
        return p;
    }

    NodeClaim claim(String name) {
        return w.claim(name);
    }

    /** The last consolidation message sent, delivered after its delay. */
    ConsolidationOutcome deliverLast() {
        RecordingQueue.Sent last = lastConsolidationMessage();
        w.clock.advance(last.delay());
        return service.advance(parse(last.body()));
    }

    RecordingQueue.Sent lastConsolidationMessage() {
        return w.queue.sent.stream().filter(s -> s.body().contains("\"consolidation\"")).reduce((a, b) -> b).orElseThrow();
    }

    static ConsolidationRequest parse(String body) {
        String command = body.substring(body.indexOf("\"consolidation\":\"") + 17, body.indexOf("\",\"claim\""));
        String claim = body.substring(body.indexOf("\"claim\":\"") + 9, body.indexOf("\",\"step\""));
        int step = Integer.parseInt(body.substring(body.indexOf("\"step\":") + 7, body.indexOf('}')));
        return new ConsolidationRequest(claim, command, step);
    }

    boolean tainted(String node) {
        return w.cluster.node(node).taints().stream().anyMatch(t -> t.key().equals("karpenter.sh/disrupted"));
    }

    /**
     * The world's claim store with one-shot hooks: each runs once, at the first call it matches, and is gone before it
     * runs (so a hook may call the service again, as an overlapping delivery would).
     */
    static final class HookedStore implements NodeClaimStore {
        private final NodeClaimStore store;
        private final List<Hook> hooks = new ArrayList<>();

        private record Hook(String when, Predicate<NodeClaim> matches, Runnable run) {
        }

        HookedStore(NodeClaimStore store) {
            this.store = store;
        }

        /** Runs {@code r} once, after a read of claim {@code name} returned. */
        void afterGet(String name, Runnable r) {
            hooks.add(new Hook("get", c -> c.name().equals(name), r));
        }

        /** Runs {@code r} once, before an update that would write a claim matching {@code p}. */
        void beforeUpdate(Predicate<NodeClaim> p, Runnable r) {
            hooks.add(new Hook("before", p, r));
        }

        /** Runs {@code r} once, after an update that wrote a claim matching {@code p} (a throw there: a crash, a lost answer). */
        void afterUpdate(Predicate<NodeClaim> p, Runnable r) {
            hooks.add(new Hook("after", p, r));
        }

        private void fire(String when, NodeClaim c) {
            for (Hook h : List.copyOf(hooks)) {
                if (h.when().equals(when) && h.matches().test(c)) {
                    hooks.remove(h);
                    h.run().run();
                    return;
                }
            }
        }

        @Override
        public NodeClaim create(NodeClaim claim) {
            return store.create(claim);
        }

        @Override
        public NodeClaim update(NodeClaim claim) {
            fire("before", claim);
            NodeClaim written = store.update(claim);
            fire("after", written);
            return written;
        }

        @Override
        public Optional<NodeClaim> get(String name, Instant now) {
            Optional<NodeClaim> c = store.get(name, now);
            c.ifPresent(x -> fire("get", x));
            return c;
        }

        @Override
        public Optional<NodeClaim> findByInstanceId(String instanceId, Instant now) {
            return store.findByInstanceId(instanceId, now);
        }

        @Override
        public List<NodeClaim> list(Instant now) {
            return store.list(now);
        }

        @Override
        public void markUnavailable(OfferingKey offering, Instant until) {
            store.markUnavailable(offering, until);
        }

        @Override
        public Set<OfferingKey> unavailableOfferings(Instant now) {
            return store.unavailableOfferings(now);
        }

        @Override
        public void recordPoolUsage(PoolUsage usage) {
            store.recordPoolUsage(usage);
        }

        @Override
        public List<PoolUsage> poolUsage() {
            return store.poolUsage();
        }

        @Override
        public void setMarker(String name, Instant at) {
            store.setMarker(name, at);
        }

        @Override
        public Optional<Instant> marker(String name) {
            return store.marker(name);
        }
    }

    /**
     * Rewinds leader {@code name}'s command to what a first validation delivery leaves when it recorded the replacement
     * and crashed before writing the leader (still Validating, at its validation time); returns the replacement's name.
     */
    String rewindToACrashedValidation(String name) {
        NodeClaim leader = claim(name);
        ConsolidationMark m = leader.consolidation();
        ConsolidationMark validating = new ConsolidationMark(m.command(), name, ConsolidationMark.Phase.Validating, 0, List.of(name),
                List.of("node-" + name), List.of(), "underutilized", 0.10, 0.04, m.validateAt(), m.deadline(), m.validateAt());
        w.store.update(leader.withConsolidation(validating));
        return m.replacements().getFirst();
    }
}
