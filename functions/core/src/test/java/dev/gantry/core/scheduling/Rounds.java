package dev.gantry.core.scheduling;

import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Karpenter's suites provision in rounds (ExpectProvisioned, change the NodePool, provision again). This keeps the
 * cluster between rounds: every claim a solve plans becomes a node with its pods bound, as if launched.
 */
final class Rounds {
    private final Scheduler.Strategy strategy;
    private final List<SchedulingInput.ExistingNode> nodes = new ArrayList<>();
    private SchedulingResult last;

    Rounds(Scheduler.Strategy strategy) {
        this.strategy = strategy;
    }

    /** Solves for {@code pods} against the cluster so far and launches what the plan asks for. */
    SchedulingResult provision(List<Pod> pods, SchedulingInput.PoolOffer... pools) {
        last = Scheduler.solve(new SchedulingInput(pods, nodes, List.of(), List.of(), List.of(pools), Map.of()), strategy);
        for (var e : last.existingNodes().entrySet()) {
            for (int i = 0; i < nodes.size(); i++) {
                var n = nodes.get(i);
                if (n.node().name().equals(e.getKey())) {
                    List<Pod> bound = new ArrayList<>(n.pods());
                    e.getValue().forEach(p -> bound.add(p.withNodeName(n.node().name())));
                    nodes.set(i, new SchedulingInput.ExistingNode(n.node(), bound));
                }
            }
        }
        for (var c : last.newClaims()) {
            Map<String, String> labels = new HashMap<>(c.requirements().singleValuedLabels());
            labels.putAll(c.instanceType().labels());
            labels.put(WellKnownLabels.ZONE, c.offering().zone());
            labels.put(WellKnownLabels.CAPACITY_TYPE, c.offering().capacityType());
            labels.put(WellKnownLabels.INSTANCE_TYPE, c.instanceType().name());
            labels.put(WellKnownLabels.HOSTNAME, c.name());
            labels.put(WellKnownLabels.NODEPOOL, c.nodePool());
            labels.put(Node.INITIALIZED_LABEL, "true");
            Node node = new Node(c.name(), "aws:///" + c.offering().zone() + "/i-" + c.name(), labels, Map.of(), List.of(),
                    c.instanceType().allocatable(), true, false, false, Instant.EPOCH);
            nodes.add(new SchedulingInput.ExistingNode(node, c.pods().stream().map(p -> p.withNodeName(c.name())).toList()));
        }
        return last;
    }

    SchedulingResult provision(Pod pod, SchedulingInput.PoolOffer... pools) {
        return provision(List.of(pod), pools);
    }

    /** Adds a node of the caller's own, with pods already bound to it. */
    Rounds node(Node n, Pod... bound) {
        nodes.add(Fixtures.existing(n, bound));
        return this;
    }

    /** Removes bound pods, as a test deleting them does. */
    void delete(java.util.function.Predicate<Pod> which) {
        nodes.replaceAll(n -> new SchedulingInput.ExistingNode(n.node(), n.pods().stream().filter(which.negate()).toList()));
    }

    List<SchedulingInput.ExistingNode> nodes() {
        return nodes;
    }

    /** Karpenter's ExpectSkew: pods matching {@code selector} per value of {@code key}, over every node. */
    Map<String, Long> skew(String key, LabelSelector selector) {
        Map<String, Long> out = new TreeMap<>();
        for (var n : nodes) {
            String v = key.equals(WellKnownLabels.HOSTNAME) ? n.node().name() : n.node().labels().get(key);
            if (v == null) {
                continue;
            }
            long c = n.pods().stream().filter(p -> selector.matches(p.labels())).count();
            if (c > 0) {
                out.merge(v, c, Long::sum);
            }
        }
        return out;
    }

    int nodeCount() {
        return nodes.size();
    }
}
