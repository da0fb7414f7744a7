package dev.gantry.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.core.model.Resources;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExactPlacementTest {
    private static final long GI = 1L << 30;

    /** 4 vCPU for $1.00, 2 vCPU for $0.60, and a 1 vCPU type cheapest per vCPU but too small for any pod. */
    private static final List<ExactPlacement.Column> COLUMNS = List.of(
            new ExactPlacement.Column("large", new Resources(4000, 4 * GI, 0, 10, java.util.Map.of()), 1.00),
            new ExactPlacement.Column("small", new Resources(2000, 2 * GI, 0, 10, java.util.Map.of()), 0.60),
            new ExactPlacement.Column("tiny", new Resources(1000, 8 * GI, 0, 10, java.util.Map.of()), 0.20));

    private static List<ExactPlacement.PodClass> pods(int n) {
        boolean[] all = new boolean[COLUMNS.size()];
        Arrays.fill(all, true);
        return List.of(new ExactPlacement.PodClass(Resources.of(1500, GI), n, all));
    }

    @Test
    void provesTheOptimumWhereTheConfigurationLpIsWhole() {
        // Two 1.5 vCPU pods per large node: $2.00 for four, and no placement is cheaper (the tiny type holds none).
        ExactPlacement.Result r = ExactPlacement.solve(pods(4), COLUMNS);

        assertThat(r.upper()).isCloseTo(2.00, within(1e-9));
        assertThat(r.lower()).isCloseTo(2.00, within(1e-6));
        assertThat(r.fleet()).containsExactly(java.util.Map.entry("large", 2));
    }

    @Test
    void bracketsTheOptimumOfAnOddCount() {
        // Three pods: a large node and a small one ($1.60) beat three small ones ($1.80) and two large ones ($2.00);
        // the configuration LP is $1.50 (one and a half large nodes).
        ExactPlacement.Result r = ExactPlacement.solve(pods(3), COLUMNS);

        assertThat(r.upper()).isCloseTo(1.60, within(1e-9));
        assertThat(r.lower()).isBetween(1.50 - 1e-6, 1.60);
    }

    @Test
    void keepsPodsOffTheColumnsTheyMayNotUse() {
        // The pod may only use the small type: three small nodes.
        ExactPlacement.Result r = ExactPlacement.solve(List.of(new ExactPlacement.PodClass(Resources.of(1500, GI), 3,
                new boolean[]{false, true, true})), COLUMNS);

        assertThat(r.upper()).isCloseTo(1.80, within(1e-9));
        assertThat(r.lower()).isCloseTo(1.80, within(1e-6));
    }
}
