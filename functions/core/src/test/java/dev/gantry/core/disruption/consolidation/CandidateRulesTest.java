package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CandidateRulesTest {

    private static ClusterNode with(ClusterNode n, Instant initializedAt, boolean nominated, boolean fromConsolidation) {
        return new ClusterNode(n.node(), n.pods(), n.claim(), initializedAt, nominated, n.lastPodEventAt(), fromConsolidation);
    }

    @Test // karpenter: consolidation_test.go "should not consider candidates that are not initialized" / nominated / deleting
    void uninitializedNominatedAndDeletingNodesAreNotCandidates() {
        TestCluster c = TestCluster.standard();
        c.node("a", "xlarge", c.pod(500)).node("b", "xlarge", c.pod(500)).node("d", "xlarge", c.pod(500));
        Node deleting = c.nodeOf("gone", "xlarge", "on-demand", Map.of());
        c.node(new Node(deleting.name(), deleting.providerId(), deleting.labels(), deleting.annotations(), deleting.taints(),
                deleting.allocatable(), true, false, true, deleting.createdAt()), c.pod(500));
        c.nodes.set(0, with(c.nodes.get(0), null, false, false));
        c.nodes.set(1, with(c.nodes.get(1), c.nodes.get(1).initializedAt(), true, false));
        ConsolidationDecision d = c.decide();
        assertThat(d.verdict("a").orElseThrow().reason()).isEqualTo("node isn't initialized");
        assertThat(d.verdict("b").orElseThrow().reason()).contains("nominated");
        assertThat(d.verdict("gone").orElseThrow().reason()).contains("deleting");
        assertThat(d.command().orElseThrow().nodes()).containsExactly("d");
    }

    @Test // karpenter: consolidation_test.go "should not consolidate nodes that are not managed by Karpenter"
    void unmanagedNodesAreDestinationsButNeverCandidates() {
        TestCluster c = TestCluster.standard();
        c.node("mine", "xlarge", c.pod(500));
        ClusterNode unmanaged = c.nodes.get(0);
        c.node("theirs", "xlarge", c.pod(500));
        ClusterNode t = c.nodes.get(1);
        c.nodes.set(1, new ClusterNode(t.node(), t.pods(), null, t.initializedAt(), false, null, false));
        ConsolidationDecision d = c.decide();
        assertThat(d.command().orElseThrow().nodes()).containsExactly(unmanaged.name());
        assertThat(d.command().get().destinations()).containsValue("theirs");
        assertThat(d.verdict("theirs")).isEmpty();
    }

    @Test // karpenter: multinodeconsolidation.go filterOutSameInstanceType ("won't merge 2 nodes into 1 of the same type")
    void multiNodeNeverReplacesWithTheCandidatesOwnType() {
        TestCluster c = TestCluster.standard();
        // Together a and b fit one 2xlarge, cheaper than both, but a is a 2xlarge: the merge is refused and a alone
        // is replaced by an xlarge instead.
        c.node("a", "2xlarge", c.pod(2500)).node("b", "xlarge", c.pod(2500));
        ConsolidationCommand cmd = c.reference().command().orElseThrow();
        assertThat(cmd.method()).isEqualTo(ConsolidationCommand.Method.SINGLE_NODE);
        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements().get(0).instanceType().name()).isEqualTo("xlarge");
    }

    @Test // karpenter: consolidation_test.go "should allow all nodes ... during a budget schedule" (UTC cron windows)
    void aScheduledBudgetBlocksOnlyInsideItsWindow() {
        for (String schedule : List.of("0 12 * * *", "0 3 * * *")) {
            TestCluster c = TestCluster.standard();
            c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO), List.of(
                    new NodePool.Budget("0", Optional.of(schedule), Optional.of(Duration.ofHours(1)), List.of(NodePool.Reason.Underutilized)),
                    NodePool.Budget.DEFAULT), Map.of());
            c.node("a", "xlarge", c.pod(1000)).node("b", "xlarge", c.pod(500));
            ConsolidationDecision d = c.decide(); // NOW is 12:00 UTC
            assertThat(d.command().isPresent()).as(schedule).isEqualTo(schedule.equals("0 3 * * *"));
        }
    }

    @Test // gantry: churn guard for replacements launched by consolidation
    void aReplacementLaunchedByConsolidationWaitsConsolidateAfterFromItsInitialization() {
        TestCluster c = TestCluster.standard();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ofMinutes(10)),
                List.of(NodePool.Budget.DEFAULT), Map.of());
        c.node("a", "xlarge", c.pod(1000)).node("fresh", "2xlarge", c.pod(500));
        c.nodes.set(1, with(c.nodes.get(1), TestCluster.NOW.minus(Duration.ofMinutes(5)), false, true));
        ConsolidationDecision d = c.decide();
        assertThat(d.verdict("fresh").orElseThrow().reason()).contains("consolidateAfter");
        assertThat(d.command().map(ConsolidationCommand::nodes).orElse(List.of())).doesNotContain("fresh");
    }

    @Test // karpenter: disruption events: every managed node left alone is explained
    void everyManagedNodeOutsideTheCommandHasAVerdict() {
        TestCluster c = TestCluster.standard();
        c.node("a", "2xlarge", c.pod(7000)).node("b", "xlarge", c.pod(500)).node("d", "small", c.pod(900)).node("e", "large");
        ConsolidationDecision d = c.decide();
        Set<String> explained = d.verdicts().stream().map(Verdict::node).collect(Collectors.toSet());
        Set<String> moved = Set.copyOf(d.command().orElseThrow().nodes());
        assertThat(c.nodes).allSatisfy(n -> assertThat(explained.contains(n.name()) ^ moved.contains(n.name())).as(n.name()).isTrue());
    }
}
