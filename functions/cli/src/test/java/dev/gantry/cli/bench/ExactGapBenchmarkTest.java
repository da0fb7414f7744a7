package dev.gantry.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExactGapBenchmarkTest {
    private static SchedulingInput sample(String caseName, int k, long seed) {
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get(caseName);
        List<Pod> pods = ExactGapBenchmark.sample(c.pods().apply(10_000), k, seed);
        return new SchedulingInput(pods, List.of(), List.of(), c.daemons(), List.of(new SchedulingInput.PoolOffer(c.pool(), c.types())), Map.of());
    }

    @Test
    void bracketsTheOptimumBetweenTheBoundsAndGantrysPlan() {
        SchedulingInput input = sample("real generic", 20, 3);
        SchedulingResult plan = Scheduler.solve(input);

        ExactPlacement.Result opt = ExactGapBenchmark.exact(input);

        assertThat(opt.lower()).isGreaterThanOrEqualTo(plan.lowerBoundPerHour() - 1e-9).isLessThanOrEqualTo(opt.upper() + 1e-9);
        assertThat(opt.upper()).isLessThanOrEqualTo(plan.totalPricePerHour() + 1e-9);
    }
}
