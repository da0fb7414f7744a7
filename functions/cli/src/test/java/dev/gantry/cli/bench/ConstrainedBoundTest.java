package dev.gantry.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import org.junit.jupiter.api.Test;

/** The constraint-aware bound sits between the packing bound and any plan that keeps the constraints (Gantry's). */
class ConstrainedBoundTest {
    private static final long MIB = 1L << 20;

    @Test
    void hostnameAntiAffinityCostsAtLeastOneNodePerReplica() {
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get("real 250 plain + n hostname-anti-affinity");
        SchedulingInput input = c.input(40);
        SchedulingResult plan = Scheduler.solve(input);
        // The cheapest node that holds one 500m/512Mi replica, once per replica.
        double perNode = c.types().stream().filter(t -> Resources.of(500, 512 * MIB).with("pods", 1).fitsIn(SchedulingBenchmark.room(input, t)))
                .map(t -> t.cheapestOffering(c.pool().requirements())).filter(o -> o != null).mapToDouble(o -> o.pricePerHour()).min().orElseThrow();

        double bound = ConstrainedBound.of(input, plan);

        assertThat(bound).isGreaterThanOrEqualTo(40 * perNode - 1e-9).isGreaterThan(SchedulingBenchmark.packingBound(input, plan))
                .isLessThanOrEqualTo(plan.totalPricePerHour() + 1e-9);
    }

    /**
     * Zonal spread pins replicas to each zone's own offerings, so the bound can only rise over the packing bound's. With
     * a zone's resource as large as 2^40 per node it fell to a third of it (the LP's scale spoilt): now a node has as
     * many as its pod slots.
     */
    @Test
    void zonalSpreadIsNeverBelowThePackingBoundNorAbovePlan() {
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get("real 250 plain + n zone-spread");
        SchedulingInput input = c.input(600);
        SchedulingResult plan = Scheduler.solve(input);

        double bound = ConstrainedBound.of(input, plan);

        assertThat(bound).isGreaterThanOrEqualTo(SchedulingBenchmark.packingBound(input, plan) - 1e-9)
                .isLessThanOrEqualTo(plan.totalPricePerHour() + 1e-9);
    }

    @Test
    void unconstrainedPodsGetThePackingBound() {
        SchedulingBenchmark.Case c = SchedulingBenchmark.cases().get("real generic");
        SchedulingInput input = c.input(200);
        SchedulingResult plan = Scheduler.solve(input);

        assertThat(ConstrainedBound.of(input, plan)).isCloseTo(SchedulingBenchmark.packingBound(input, plan), org.assertj.core.data.Offset.offset(1e-9));
    }
}
