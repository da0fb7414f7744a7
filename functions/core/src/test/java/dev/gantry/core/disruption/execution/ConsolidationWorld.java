package dev.gantry.core.disruption.execution;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import dev.gantry.core.lifecycle.FreshClaimNames;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.LifecycleFixtures.RecordingQueue;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.termination.LifecycleWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The consolidation service over the lifecycle's in-memory world: one pool (WhenEmptyOrUnderutilized, consolidateAfter
 * 0, budget 100%), a catalogue of a 2-vCPU type at $0.10/h and a 1-vCPU type at $0.04/h, nodes of the first type.
 */
final class ConsolidationWorld {
    static final long GI = 1L << 30;
    static final String POOL = "default";
    final NodePool pool;
    final LifecycleWorld w;
    final List<InstanceType> types;
    final List<String> recordedReplacements = new ArrayList<>();
    final ConsolidationService service;
    final List<String> journal = new ArrayList<>();
    private int pods;

    ConsolidationWorld() {
        this(true);
    }

    /** @param withSmall whether the catalogue also has the 1-vCPU type (replacements) or only the 2-vCPU one (deletes) */
    ConsolidationWorld(boolean withSmall) {
        this(withSmall, Duration.ZERO);
    }

    ConsolidationWorld(boolean withSmall, Duration consolidateAfter) {
        pool = LifecycleFixtures.poolWith(POOL, new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized,
                Optional.of(consolidateAfter), List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of()))),
                Optional.empty(), Optional.empty(), Map.of());
        w = new LifecycleWorld(pool);
        types = withSmall ? List.of(type("big", 2, 0.10), type("small", 1, 0.04)) : List.of(type("big", 2, 0.10));
        service = new ConsolidationService(w.cluster, w.cluster, w.store, w.termination, w.hints, w.queue,
                (view, now) -> List.of(new SchedulingInput.PoolOffer(pool, types, Resources.ZERO, 0)),
                (plan, name, now) -> {
                    recordedReplacements.add(name);
                    return FreshClaimNames.record(w.store, name, n -> NodeClaim.launching(n, plan.nodePool(), "h",
                            plan.requirements().toList(), plan.instanceTypeOptions().stream().map(InstanceType::name).toList(),
                            plan.pods().stream().map(Pod::key).toList(), plan.instanceType().name(), plan.offering().zone(),
                            plan.offering().capacityType(), plan.pricePerHour(), now).launchedByConsolidation(), now);
                }, ConsolidationSettings.DEFAULT, w.clock)
                .withJournal((what, line, savings) -> journal.add(what + ": " + line));
    }

    static InstanceType type(String name, int cpu, double price) {
        return new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, 4 * cpu * GI, 100 * GI, 110, Map.of()), Resources.ZERO,
                List.of(Offering.of("us-east-1a", "on-demand", price)));
    }

    /** An initialized claim {@code name} on a Ready "big" node {@code node-<name>} with pods of {@code cpuMillis} each. */
    NodeClaim node(String name, long... cpuMillis) {
        Instant at = LifecycleFixtures.T0.minus(Duration.ofMinutes(55));
        NodeClaim c = w.store.create(NodeClaim.launching(name, POOL, "h", List.of(), List.of("big"), List.of(), "big", "us-east-1a",
                "on-demand", 0.10, at).launched("i-" + name, "big", "us-east-1a", "on-demand", 0.10, at)
                .registered("node-" + name, at).initialized(at));
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.NODEPOOL, POOL);
        labels.put(WellKnownLabels.INSTANCE_TYPE, "big");
        labels.put(WellKnownLabels.ZONE, "us-east-1a");
        labels.put(WellKnownLabels.CAPACITY_TYPE, "on-demand");
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
        pods++;
        Pod p = Pod.builder("default", "web-" + pods).uid("uid-" + pods).nodeName(node).owner("ReplicaSet", "web")
                .labels(Map.of("app", "web")).requests(Resources.of(cpuMillis, GI))
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
}
