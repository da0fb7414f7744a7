package dev.gantry.cli.bench;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand;
import dev.gantry.core.disruption.consolidation.ConsolidationInput;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Consolidation benchmark inputs: a diurnal workload at its peak, placed by the scheduler onto new nodes, then scaled
 * down by deleting a random share of each Deployment's pods, which leaves the cluster fragmented. And the
 * simulated result of carrying out a consolidation command (nodes gone, replacements up, pods where the plan put them).
 */
final class FragmentedClusters {
    private static final long MI = 1L << 20;
    static final Instant NOW = Instant.parse("2026-06-01T03:00:00Z");

    private FragmentedClusters() {
    }

    /** Deployments of web/api/worker/cache shapes, {@code peakPods} in all. */
    static List<Pod> diurnalPeak(int peakPods, long seed) {
        Random r = new Random(seed);
        long[][] shapes = {{250, 512}, {500, 1024}, {1000, 2048}, {250, 2048}, {2000, 4096}, {500, 4096}, {100, 256}, {1500, 1024}};
        List<Pod> pods = new ArrayList<>(peakPods);
        int d = 0;
        while (pods.size() < peakPods) {
            long[] s = shapes[r.nextInt(shapes.length)];
            int replicas = Math.min(peakPods - pods.size(), 10 + r.nextInt(190));
            String app = "app-" + d++;
            for (int i = 0; i < replicas; i++) {
                pods.add(Pod.builder("default", app + "-" + i).labels(Map.of("app", app)).owner("ReplicaSet", app)
                        .requests(Resources.of(s[0], s[1] * MI)).build());
            }
        }
        return pods;
    }

    /** The peak placed by the scheduler, then {@code deleteShare} of each Deployment's pods deleted at random. */
    static List<ClusterNode> fragmented(NodePool pool, List<InstanceType> types, int peakPods, double deleteShare, long seed) {
        List<Pod> peak = diurnalPeak(peakPods, seed);
        SchedulingResult placed = Scheduler.solve(new SchedulingInput(peak, List.of(), List.of(), List.of(),
                List.of(new SchedulingInput.PoolOffer(pool, types)), Map.of()));
        Random r = new Random(seed + 1);
        Map<String, List<Pod>> byApp = new LinkedHashMap<>();
        peak.forEach(p -> byApp.computeIfAbsent(p.labels().get("app"), k -> new ArrayList<>()).add(p));
        java.util.Set<String> deleted = new java.util.HashSet<>();
        for (List<Pod> app : byApp.values()) {
            List<Pod> shuffled = new ArrayList<>(app);
            Collections.shuffle(shuffled, r);
            shuffled.subList(0, (int) Math.round(app.size() * deleteShare)).forEach(p -> deleted.add(p.key()));
        }
        List<ClusterNode> nodes = new ArrayList<>();
        int i = 0;
        for (SchedulingResult.NodeClaimPlan plan : placed.newClaims()) {
            String name = "node-" + i++;
            List<Pod> kept = plan.pods().stream().filter(p -> !deleted.contains(p.key())).toList();
            nodes.add(node(name, plan.instanceType(), plan.offering().zone(), plan.offering().capacityType(), pool.name(), kept, false));
        }
        return nodes;
    }

    static ClusterNode node(String name, InstanceType type, String zone, String capacityType, String pool, List<Pod> pods,
                            boolean fromConsolidation) {
        Map<String, String> labels = new HashMap<>(type.labels());
        labels.put(WellKnownLabels.INSTANCE_TYPE, type.name());
        labels.put(WellKnownLabels.ZONE, zone);
        labels.put(WellKnownLabels.CAPACITY_TYPE, capacityType);
        labels.put(WellKnownLabels.NODEPOOL, pool);
        labels.put(WellKnownLabels.HOSTNAME, name);
        labels.put("karpenter.sh/initialized", "true");
        Node n = new Node(name, "aws:///" + zone + "/i-" + name, labels, Map.of(), List.of(), type.allocatable(), true, false,
                false, NOW.minusSeconds(7200));
        List<Pod> bound = pods.stream().map(p -> p.withNodeName(name).toBuilder()
                .status(new Pod.Status("Running", false, NOW.minusSeconds(3600), null, null)).build()).toList();
        return new ClusterNode(n, bound, name, NOW.minusSeconds(7000), false, null, fromConsolidation);
    }

    /** The cluster after the command: its nodes gone, replacements up as nodes, moved pods where the plan put them. */
    static List<ClusterNode> apply(List<ClusterNode> nodes, ConsolidationCommand cmd, int round) {
        java.util.Set<String> gone = new java.util.HashSet<>(cmd.nodes());
        Map<String, Pod> moved = new HashMap<>();
        for (ClusterNode n : nodes) {
            if (gone.contains(n.name())) {
                n.pods().forEach(p -> moved.put(p.key(), p));
            }
        }
        Map<String, List<Pod>> arriving = new HashMap<>();
        cmd.destinations().forEach((pod, dest) -> {
            if (moved.containsKey(pod)) { // a buffer's virtual pod is no node's: the next decision places it again
                arriving.computeIfAbsent(dest, k -> new ArrayList<>()).add(moved.get(pod));
            }
        });
        List<ClusterNode> out = new ArrayList<>();
        for (ClusterNode n : nodes) {
            if (gone.contains(n.name())) {
                continue;
            }
            List<Pod> in = arriving.getOrDefault(n.name(), List.of());
            if (in.isEmpty()) {
                out.add(n);
            } else {
                List<Pod> all = new ArrayList<>(n.pods());
                in.forEach(p -> all.add(p.withNodeName(n.name())));
                out.add(new ClusterNode(n.node(), all, n.claim(), n.initializedAt(), false, n.lastPodEventAt(), n.fromConsolidation()));
            }
        }
        for (SchedulingResult.NodeClaimPlan plan : cmd.replacements()) {
            out.add(node(plan.name() + "-r" + round, plan.instanceType(), plan.offering().zone(), plan.offering().capacityType(),
                    plan.nodePool(), arriving.getOrDefault(plan.name(), List.of()), true));
        }
        return out;
    }

    static ConsolidationInput input(List<ClusterNode> nodes, NodePool pool, List<InstanceType> types,
                                    dev.gantry.core.disruption.consolidation.ConsolidationSettings settings) {
        Resources usage = Resources.ZERO;
        for (ClusterNode n : nodes) {
            usage = usage.plus(n.node().allocatable());
        }
        return new ConsolidationInput(nodes, List.of(new SchedulingInput.PoolOffer(pool, types, usage, nodes.size())),
                List.of(), List.of(), Map.of(), settings, NOW);
    }

    static double price(List<ClusterNode> nodes, List<InstanceType> types) {
        Map<String, InstanceType> byName = new HashMap<>();
        types.forEach(t -> byName.put(t.name(), t));
        double sum = 0;
        for (ClusterNode n : nodes) {
            Map<String, String> l = n.node().labels();
            InstanceType t = byName.get(l.get(WellKnownLabels.INSTANCE_TYPE));
            for (var o : t.offerings()) {
                if (o.zone().equals(l.get(WellKnownLabels.ZONE)) && o.capacityType().equals(l.get(WellKnownLabels.CAPACITY_TYPE))) {
                    sum += o.pricePerHour();
                    break;
                }
            }
        }
        return sum;
    }

    static int pods(List<ClusterNode> nodes) {
        return nodes.stream().mapToInt(n -> n.pods().size()).sum();
    }
}
