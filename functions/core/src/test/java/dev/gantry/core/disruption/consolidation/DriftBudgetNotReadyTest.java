package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.disruption.DisruptionBudgets;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NotReady nodes and the {@code Drifted} budget (aws/karpenter-provider-aws#6472). Karpenter v1.14 counts every NotReady
 * node of a pool as disrupting (kubernetes-sigs/karpenter {@code pkg/controllers/disruption/helpers.go},
 * {@code BuildDisruptionBudgetMapping}: a node whose Ready condition is not True, or marked for deletion, is subtracted
 * from the allowance), so as many NotReady nodes as the budget allows stop drift for good. Gantry's rule
 * ({@link DisruptionBudgets#allowedForDrift}): NotReady nodes count only up to one less than the allowance; deleting
 * nodes count in full; a budget of zero allows nothing.
 */
class DriftBudgetNotReadyTest {
    static final Instant NOW = LifecycleFixtures.T0;
    final List<ConsolidationInput.ClusterNode> nodes = new ArrayList<>();

    static NodePool pool(String budget) {
        return LifecycleFixtures.poolWith("default", new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty,
                Optional.of(Duration.ofHours(1)), List.of(new NodePool.Budget(budget, Optional.empty(), Optional.empty(), List.of()))),
                Optional.empty(), Optional.empty(), Map.of());
    }

    void node(String name, boolean ready, boolean deleting) {
        Map<String, String> labels = new HashMap<>(Map.of(WellKnownLabels.NODEPOOL, "default", WellKnownLabels.INSTANCE_TYPE, "big",
                WellKnownLabels.ZONE, "us-east-1a", WellKnownLabels.CAPACITY_TYPE, "on-demand", WellKnownLabels.ARCH, "amd64",
                WellKnownLabels.OS, "linux", Node.INITIALIZED_LABEL, "true"));
        Node n = new Node("node-" + name, "aws:///us-east-1a/i-" + name, labels, Map.of(), List.of(),
                DriftReplacementTest.BIG.allocatable(), ready, false, deleting, NOW.minusSeconds(3600), List.of(), null);
        nodes.add(new ConsolidationInput.ClusterNode(n, List.of(), name, NOW.minusSeconds(3600), false, null, false));
    }

    ConsolidationDecision decide(NodePool pool, String... drifted) {
        Resources usage = Resources.of(2000L * nodes.size(), 8 * DriftReplacementTest.GI * nodes.size());
        ConsolidationInput in = new ConsolidationInput(nodes, List.of(new SchedulingInput.PoolOffer(pool,
                List.of(DriftReplacementTest.BIG), usage, nodes.size())), List.of(), List.of(), Map.of(),
                ConsolidationSettings.DEFAULT, NOW);
        return DriftReplacement.decide(in, List.of(drifted));
    }

    /** Ten nodes under the default 10% budget (one), one of them NotReady: Karpenter's allowance is 0, Gantry's 1. */
    @Test
    void aNotReadyNodeDoesNotStopTheRolloutOfHealthyDriftedNodes() {
        node("sick", false, false);
        for (int i = 0; i < 9; i++) {
            node("n" + i, true, false);
        }
        assertThat(DisruptionBudgets.allowed(pool("10%"), NodePool.Reason.Drifted, 10, 1, NOW)).as("Karpenter's count").isZero();
        ConsolidationDecision d = decide(pool("10%"), "n0", "n1");
        assertThat(d.command()).hasValueSatisfying(c -> assertThat(c.nodes()).containsExactly("node-n0"));
    }

    @Test
    void aDriftedNotReadyNodeIsItselfReplaced() {
        node("sick", false, false);
        for (int i = 0; i < 9; i++) {
            node("n" + i, true, false);
        }
        ConsolidationDecision d = decide(pool("10%"), "sick");
        assertThat(d.command()).hasValueSatisfying(c -> assertThat(c.nodes()).containsExactly("node-sick"));
    }

    @Test
    void aNodeBeingDeletedStillUsesTheBudgetInFull() {
        node("going", true, true);
        for (int i = 0; i < 9; i++) {
            node("n" + i, true, false);
        }
        ConsolidationDecision d = decide(pool("10%"), "n0");
        assertThat(d.command()).isEmpty();
        assertThat(d.verdicts()).anySatisfy(v -> assertThat(v.reason()).contains("budget for Drifted allows no more"));
    }

    @Test
    void notReadyNodesCountOnlyUpToOneLessThanTheAllowance() {
        NodePool three = pool("3");
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 0, 0, NOW)).isEqualTo(3);
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 0, 1, NOW)).isEqualTo(2);
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 0, 5, NOW)).isEqualTo(1);
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 1, 5, NOW)).isEqualTo(1);
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 2, 5, NOW)).isEqualTo(1);
        assertThat(DisruptionBudgets.allowedForDrift(three, 10, 3, 5, NOW)).isZero();
        assertThat(DisruptionBudgets.allowedForDrift(pool("0"), 10, 0, 5, NOW)).isZero();
        // Other reasons keep Karpenter's count.
        assertThat(DisruptionBudgets.allowed(three, NodePool.Reason.Underutilized, 10, 5, NOW)).isZero();
    }
}
