package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.NodePool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gantry's groups beyond the prefixes ({@link GantrySearch#groups}): under a small budget, the savings-ratio order's
 * first candidates can hide every move, as on the diurnal day's afternoon (twenty full m5a.large kept for hours).
 */
class GantryGroupSearchTest {
    /** Per pod, the bigger type is cheaper: 4 cpu for $0.153 against 2 cpu for $0.086. A budget of three nodes. */
    private static TestCluster cluster() {
        TestCluster c = new TestCluster();
        c.type("m.large", 2, 8, 0.086).type("c.xlarge", 4, 8, 0.153);
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("3", Optional.empty(), Optional.empty(), List.of())), Map.of());
        // First in the order (price over few pods): c.xlarge nodes full with two 2-cpu pods, which nothing cheaper holds.
        for (int i = 0; i < 3; i++) {
            c.node("big-" + i, "c.xlarge", c.pod(1950, 256), c.pod(1950, 256));
        }
        // Then full m.large nodes: three of them (12 pods, $0.258) go onto a c.xlarge and an m.large ($0.239).
        for (int i = 0; i < 4; i++) {
            c.node("m-" + i, "m.large", c.pod(480, 256), c.pod(480, 256), c.pod(480, 256), c.pod(480, 256));
        }
        return c;
    }

    @Test
    void aRunOfFullNodesOfADearTypeIsRepackedWhenTheFirstCandidatesCannotMove() {
        TestCluster c = cluster();
        assertThat(c.reference().command()).as("Karpenter's prefixes and single moves find nothing").isEmpty();
        ConsolidationCommand cmd = c.decide().command().orElseThrow();
        assertThat(cmd.nodes()).hasSize(3).allSatisfy(n -> assertThat(n).startsWith("m-"));
        assertThat(cmd.replacements()).hasSize(2);
        assertThat(cmd.priceAfter()).isLessThan(cmd.priceBefore());
        assertThat(cmd.savings()).isCloseTo(0.258 - 0.239, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void aGroupStaysWithinItsPoolsBudget() {
        TestCluster c = cluster();
        c.pool("default", NodePool.ConsolidationPolicy.WhenEmptyOrUnderutilized, Optional.of(Duration.ZERO),
                List.of(new NodePool.Budget("2", Optional.empty(), Optional.empty(), List.of())), Map.of());
        // Two m.large (8 pods, $0.172) can only go onto a c.xlarge ($0.153) if 8 × 480m fit 4 cpu: they do.
        ConsolidationDecision d = c.decide();
        assertThat(d.command()).hasValueSatisfying(cmd -> assertThat(cmd.nodes()).hasSizeLessThanOrEqualTo(2));
    }
}
