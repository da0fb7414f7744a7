package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.scheduling.SchedulingInput;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Drift of a static NodePool's nodes: Karpenter core pkg/controllers/disruption/staticdrift.go. */
class StaticDriftTest {
    /** Drift's fixtures: nodes of the type BIG in pool default. */
    final DriftReplacementTest f = new DriftReplacementTest();

    static NodePool fixed(int replicas, Map<String, Quantity> limits, String budget) {
        NodePool p = DriftReplacementTest.pool(Optional.empty());
        return new NodePool(p.name(), p.annotations(), p.template(), new NodePool.Disruption(NodePool.ConsolidationPolicy.WhenEmpty,
                Optional.of(Duration.ZERO), List.of(new NodePool.Budget(budget, Optional.empty(), Optional.empty(), List.of()))),
                limits, null, null, replicas);
    }

    ConsolidationDecision decideStatic(NodePool pool, String... drifted) {
        ConsolidationInput in = new ConsolidationInput(f.nodes, List.of(new SchedulingInput.PoolOffer(pool, List.of(DriftReplacementTest.BIG), null, f.nodes.size())),
                List.of(), List.of(), Map.of(), ConsolidationSettings.DEFAULT, DriftReplacementTest.NOW);
        return DriftReplacement.decide(in, List.of(drifted));
    }

    @Test
    void aDriftedStaticNodeIsReplacedByATemplateClaimWithNoPods() {
        f.node("a", Map.of(), DriftReplacementTest.pod("p1", 1500, Map.of()));
        f.node("b", Map.of());
        ConsolidationDecision d = decideStatic(fixed(2, Map.of(), "1"), "a");
        assertThat(d.command()).hasValueSatisfying(c -> {
            assertThat(c.nodes()).containsExactly("node-a");
            assertThat(c.reason()).isEqualTo(NodePool.Reason.Drifted);
            assertThat(c.replacements()).singleElement().satisfies(r -> {
                assertThat(r.pods()).isEmpty();
                assertThat(r.nodePool()).isEqualTo("default");
                assertThat(r.instanceType().name()).isEqualTo("big");
            });
        });
    }

    @Test
    void noStaticDriftBeyondLimitsNodesOrTheBudgetOrDuringAScaleDown() {
        f.node("a", Map.of());
        f.node("b", Map.of());
        assertThat(decideStatic(fixed(2, Map.of("nodes", Quantity.of(2)), "1"), "a").command()).as("limits.nodes").isEmpty();
        assertThat(decideStatic(fixed(2, Map.of(), "0"), "a").command()).as("budget").isEmpty();
        assertThat(decideStatic(fixed(1, Map.of(), "1"), "a").command()).as("scale-down under way").isEmpty();
        assertThat(decideStatic(fixed(2, Map.of("nodes", Quantity.of(3)), "1"), "a").command()).isPresent();
    }
}
