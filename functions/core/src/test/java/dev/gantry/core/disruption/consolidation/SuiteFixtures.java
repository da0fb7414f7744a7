package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Small edits on a {@link TestCluster} for the tests ported from Karpenter's disruption suite: nodes in other pools,
 * claim facts (initialization, last pod event, nomination), node state (NotReady, deleting, uninitialized), pod state.
 */
final class SuiteFixtures {
    private SuiteFixtures() {
    }

    static NodePool.Budget budget(String nodes, NodePool.Reason... reasons) {
        return new NodePool.Budget(nodes, Optional.empty(), Optional.empty(), List.of(reasons));
    }

    static NodePool.Budget scheduled(String nodes, String cron, Duration window, NodePool.Reason... reasons) {
        return new NodePool.Budget(nodes, Optional.of(cron), Optional.of(window), List.of(reasons));
    }

    /** The default pool, WhenEmptyOrUnderutilized after {@code after}, with these budgets. */
    static TestCluster budgets(TestCluster c, Optional<Duration> after, NodePool.Budget... budgets) {
        return c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, after, List.of(budgets), Map.of());
    }

    /** Another pool like the default one (consolidateAfter 0s, budget 100%) unless given. */
    static TestCluster pool(TestCluster c, String name, NodePool.ConsolidationPolicy policy, Optional<Duration> after,
                            NodePool.Budget... budgets) {
        return c.pool(name, policy, after, budgets.length == 0 ? List.of(budget("100%")) : List.of(budgets), Map.of());
    }

    /** A managed on-demand node of {@code type} in {@code pool}. */
    static TestCluster nodeIn(TestCluster c, String pool, String name, String type, Pod.Builder... pods) {
        Node n = c.nodeOf(name, type, "on-demand", Map.of());
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.put(WellKnownLabels.NODEPOOL, pool);
        return c.node(new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), true, false,
                false, n.createdAt()), pods);
    }

    static int indexOf(TestCluster c, String name) {
        for (int i = 0; i < c.nodes.size(); i++) {
            if (c.nodes.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    static void claim(TestCluster c, String name, UnaryOperator<ClusterNode> edit) {
        int i = indexOf(c, name);
        c.nodes.set(i, edit.apply(c.nodes.get(i)));
    }

    static ClusterNode initializedAt(ClusterNode n, Instant at) {
        return new ClusterNode(n.node(), n.pods(), n.claim(), at, n.nominated(), n.lastPodEventAt(), n.fromConsolidation());
    }

    static ClusterNode lastPodEventAt(ClusterNode n, Instant at) {
        return new ClusterNode(n.node(), n.pods(), n.claim(), n.initializedAt(), n.nominated(), at, n.fromConsolidation());
    }

    static ClusterNode nominated(ClusterNode n) {
        return new ClusterNode(n.node(), n.pods(), n.claim(), n.initializedAt(), true, n.lastPodEventAt(), n.fromConsolidation());
    }

    static ClusterNode unmanaged(ClusterNode n) {
        return new ClusterNode(n.node(), n.pods(), null, n.initializedAt(), false, null, false);
    }

    static ClusterNode withNode(ClusterNode n, UnaryOperator<Node> edit) {
        return new ClusterNode(edit.apply(n.node()), n.pods(), n.claim(), n.initializedAt(), n.nominated(), n.lastPodEventAt(),
                n.fromConsolidation());
    }

    static Node notReady(Node n) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), false, false, false, n.createdAt());
    }

    static Node deleting(Node n) {
        return new Node(n.name(), n.providerId(), n.labels(), n.annotations(), n.taints(), n.allocatable(), true, false, true, n.createdAt());
    }

    static Node withLabels(Node n, Map<String, String> set, String... remove) {
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.putAll(set);
        for (String k : remove) {
            labels.remove(k);
        }
        return new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), n.ready(), false,
                n.deleting(), n.createdAt());
    }

    /** A managed node whose claim has not initialized: NotReady, no initialized label, no initialization time. */
    static ClusterNode uninitialized(ClusterNode n) {
        Node node = withLabels(notReady(n.node()), Map.of(), Node.INITIALIZED_LABEL);
        return new ClusterNode(node, n.pods(), n.claim(), null, false, null, false);
    }

    /** The pod on {@code node} named {@code key}, edited. */
    static void pod(TestCluster c, String node, int index, UnaryOperator<Pod.Builder> edit) {
        int i = indexOf(c, node);
        ClusterNode n = c.nodes.get(i);
        List<Pod> pods = new java.util.ArrayList<>(n.pods());
        pods.set(index, edit.apply(pods.get(index).toBuilder()).build());
        c.nodes.set(i, new ClusterNode(n.node(), pods, n.claim(), n.initializedAt(), n.nominated(), n.lastPodEventAt(),
                n.fromConsolidation()));
    }

    static Pod.Status terminating(Instant since) {
        return new Pod.Status("Running", false, TestCluster.NOW.minus(Duration.ofHours(1)), since, null);
    }

    static Pod.Status runningSince(Instant created) {
        return new Pod.Status("Running", false, created, null, null);
    }

    static Pod.Status finished() {
        return new Pod.Status("Succeeded", false, TestCluster.NOW.minus(Duration.ofHours(1)), null, null);
    }

    static List<String> nodes(ConsolidationDecision d) {
        return d.command().map(ConsolidationCommand::nodes).orElse(List.of());
    }

    static String why(ConsolidationDecision d, String node) {
        return d.verdict(node).map(Verdict::reason).orElse("(no verdict; command " + nodes(d) + ")");
    }

    // Shared by the two halves of the ported consolidation_test.go (Suite: Budgets, Replace; Moves: the rest).

    static ConsolidationCommand command(ConsolidationDecision d) {
        assertThat(d.command()).as("a command; verdicts %s", d.verdicts()).isPresent();
        return d.command().get();
    }

    static InstanceType type(String name, int cpu, Offering... offerings) {
        return new InstanceType(name, Map.of(WellKnownLabels.ARCH, "amd64", WellKnownLabels.OS, "linux"),
                new Resources(cpu * 1000L, cpu * 2L * TestCluster.GI, 100 * TestCluster.GI, 110, Map.of()), Resources.ZERO,
                List.of(offerings));
    }

    static Offering offering(String zone, String capacityType, double price, boolean available) {
        return new Offering(zone, null, capacityType, price, available);
    }

    static final String ZONE_A = TestCluster.ZONES.get(0);
    static final String ZONE_B = TestCluster.ZONES.get(1);

    /** The default pool with a template requirement. */
    static void require(TestCluster c, Requirement r) {
        NodePool p = c.pools.get("default");
        NodePool.Template t = p.template();
        c.pools.put("default", new NodePool(p.name(), p.annotations(), new NodePool.Template(t.labels(), t.annotations(),
                t.taints(), t.startupTaints(), List.of(r), t.nodeClassRef(), t.expireAfter(), t.terminationGracePeriod()),
                p.disruption(), p.limits(), p.weight(), null));
    }
}
