package dev.gantry.core.disruption.consolidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GantryNeverWorseTest {
    private static final String[] TYPES = {"small", "large", "xlarge", "2xlarge"};
    private static final int[] CPU = {1000, 2000, 4000, 8000};

    /** A fragmented cluster: nodes of random sizes, each filled to a random fraction with pods of a few shapes. */
    private static TestCluster fragmented(long seed) {
        Random r = new Random(seed);
        TestCluster c = TestCluster.standard(r.nextBoolean());
        int nodes = 4 + r.nextInt(12);
        for (int i = 0; i < nodes; i++) {
            int t = 1 + r.nextInt(3);
            long room = (long) (CPU[t] * (0.1 + 0.6 * r.nextDouble()));
            List<Pod.Builder> pods = new ArrayList<>();
            long used = 0;
            while (true) {
                long cpu = new long[]{100, 250, 500, 1000}[r.nextInt(4)];
                if (used + cpu > room) {
                    break;
                }
                used += cpu;
                pods.add(c.pod(cpu, 128L << r.nextInt(4)));
            }
            String capacity = c.spot && r.nextInt(3) == 0 ? "spot" : "on-demand";
            c.node(c.nodeOf("n" + i, TYPES[t], capacity, java.util.Map.of()), pods.toArray(Pod.Builder[]::new));
        }
        return c;
    }

    @Test
    void gantrysMoveSavesAtLeastAsMuchAsKarpentersOnRandomFragmentedClusters() {
        int moves = 0;
        for (long seed = 0; seed < 40; seed++) {
            TestCluster c = fragmented(seed);
            ConsolidationDecision karpenter = c.reference();
            ConsolidationDecision gantry = c.decide();
            double k = karpenter.command().map(ConsolidationCommand::savings).orElse(0.0);
            double g = gantry.command().map(ConsolidationCommand::savings).orElse(0.0);
            assertThat(g).as("seed %d: gantry %s, karpenter %s", seed, gantry.command(), karpenter.command()).isGreaterThanOrEqualTo(k - 1e-9);
            gantry.command().ifPresent(cmd -> assertThat(cmd.priceAfter()).isLessThan(cmd.priceBefore()));
            moves += gantry.command().isPresent() ? 1 : 0;
        }
        assertThat(moves).as("the generator makes clusters worth consolidating").isGreaterThan(20);
    }
}
