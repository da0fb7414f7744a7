package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small cluster for consolidation tests: a catalogue, one or more pools, nodes with pods. */
final class TestCluster {
    static final long GI = 1L << 30;
    static final long MI = 1L << 20;
    static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    static final List<String> ZONES = List.of("test-zone-1a", "test-zone-1b");

    final List<InstanceType> types = new ArrayList<>();
    final Map<String, NodePool> pools = new HashMap<>();
    final List<ClusterNode> nodes = new ArrayList<>();
    final List<PodDisruptionBudget> pdbs = new ArrayList<>();
    /** Claims launching without a node yet. */
    final List<ConsolidationInput.LaunchingClaim> inFlight = new ArrayList<>();
    ConsolidationSettings settings = ConsolidationSettings.DEFAULT;
    /** Whether types added from now on also have spot offerings (at 30% of on-demand). */
    boolean spot;
    private int pods;

    TestCluster() {
        pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("100%", Optional.empty(), Optional.empty(), List.of())), Map.of());
    }

    /** The usual catalogue: 1, 2, 4 and 8 vCPU at $0.05 per vCPU, on-demand only. */
    static TestCluster standard() {
        return standard(false);
    }

    /** The usual catalogue, with spot offerings at 30% when {@code spot}. */
    static TestCluster standard(boolean spot) {
        TestCluster c = new TestCluster();
        c.spot = spot;
        c.type("small", 1, 2, 0.05).type("large", 2, 4, 0.10).type("xlarge", 4, 8, 0.20).type("2xlarge", 8, 16, 0.40);
        return c;
    }

    TestCluster type(String name, int cpu, int memGi, double price) {
        List<Offering> offerings = new ArrayList<>();
        for (String z : ZONES) {
            offerings.add(Offering.of(z, "on-demand", price));
            if (spot) {
                offerings.add(Offering.of(z, "spot", price * 0.3));
            }
        }
        types.add(new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, memGi * GI, 100 * GI, 110, Map.of()), Resources.ZERO, offerings));
        return this;
    }

    TestCluster pool(String name, NodePool.ConsolidationPolicy policy, Optional<Duration> after, List<NodePool.Budget> budgets,
                     Map<String, String> annotations) {
        NodePool.Template t = new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty());
        pools.put(name, new NodePool(name, annotations, t, new NodePool.Disruption(policy, after, budgets), Map.of(), null, null));
        return this;
    }

    TestCluster policy(NodePool.ConsolidationPolicy policy) {
        NodePool p = pools.get("default");
        return pool("default", policy, p.disruption().consolidateAfter(), p.disruption().budgets(), p.annotations());
    }

    InstanceType typeNamed(String name) {
        return types.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    Node nodeOf(String name, String type, String capacityType, Map<String, String> annotations) {
        Map<String, String> labels = new HashMap<>();
        labels.put(WellKnownLabels.ZONE, ZONES.get(0));
        labels.put(WellKnownLabels.HOSTNAME, name);
        labels.put(WellKnownLabels.ARCH, "amd64");
        labels.put(WellKnownLabels.OS, "linux");
        labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        labels.put(WellKnownLabels.INSTANCE_TYPE, type);
        labels.put(WellKnownLabels.NODEPOOL, "default");
        labels.put("karpenter.sh/initialized", "true");
        return new Node(name, "aws:///" + ZONES.get(0) + "/i-" + name, labels, annotations, List.of(),
                typeNamed(type).allocatable(), true, false, false, NOW.minus(Duration.ofHours(5)));
    }

    /** A managed on-demand node of {@code type} with {@code pods} bound. */
    TestCluster node(String name, String type, Pod.Builder... podsOnIt) {
        return node(nodeOf(name, type, "on-demand", Map.of()), podsOnIt);
    }

    TestCluster node(Node n, Pod.Builder... podsOnIt) {
        List<Pod> bound = new ArrayList<>();
        for (Pod.Builder b : podsOnIt) {
            bound.add(b.nodeName(n.name()).status(new Pod.Status("Running", false, NOW.minus(Duration.ofHours(1)), null, null)).build());
        }
        nodes.add(ClusterNode.initialized(n, bound, NOW.minus(Duration.ofHours(4))));
        return this;
    }

    Pod.Builder pod(long cpuMillis) {
        return pod(cpuMillis, 256);
    }

    Pod.Builder pod(long cpuMillis, long memMi) {
        pods++;
        return Pod.builder("default", "pod-" + pods).labels(Map.of("app", "web")).owner("ReplicaSet", "web")
                .requests(Resources.of(cpuMillis, memMi * MI));
    }

    ConsolidationInput input() {
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        for (NodePool p : pools.values()) {
            Resources usage = Resources.ZERO;
            int count = 0;
            for (ClusterNode n : nodes) {
                if (p.name().equals(n.node().labels().get(WellKnownLabels.NODEPOOL))) {
                    usage = usage.plus(n.node().allocatable());
                    count++;
                }
            }
            offers.add(new SchedulingInput.PoolOffer(p, types, usage, count));
        }
        return new ConsolidationInput(nodes, offers, List.of(), pdbs, Map.of(), settings, NOW, List.of(), null, inFlight);
    }

    /** A claim of the default pool launching an on-demand {@code type} in the first zone, without a node yet. */
    TestCluster launching(String name, String type) {
        inFlight.add(new ConsolidationInput.LaunchingClaim(name, "default", type, ZONES.get(0), "on-demand"));
        return this;
    }

    ConsolidationDecision decide() {
        return Consolidation.decide(input());
    }

    ConsolidationDecision reference() {
        return Consolidation.decide(new ConsolidationInput(nodes, input().pools(), List.of(), pdbs, Map.of(),
                settings.withStrategy(ConsolidationSettings.Strategy.KARPENTER), NOW, List.of(), null, inFlight));
    }
}
