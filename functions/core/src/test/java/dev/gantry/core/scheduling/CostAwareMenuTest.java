package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.type;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The menu a group's bins are chosen from (Gantry's own rule): a type that holds no pod of the group, such as t4g.nano
 * with about 15 MiB of allocatable memory, covers the group's aggregate cpu for next to nothing, and on the menu it set
 * the unit prices ({@link LowerBound#unitPrices}) that {@link TailExchange} trades by at a price no pod can get.
 */
class CostAwareMenuTest {
    @Test
    void aTypeThatHoldsNoPodOfTheGroupIsNotOnTheMenuButStillCoversTheFleet() {
        InstanceType base = type("t4g.nano", 2, 1, 0.0042);
        InstanceType nano = new InstanceType("t4g.nano", base.labels(), new Resources(2_000, 15L << 20, 100L << 30, 110, Map.of()),
                Resources.ZERO, base.offerings(), base.undefinedLabels());
        InstanceType large = type("m5.large", 2, 8, 0.096);
        List<InstanceType> types = List.of(nano, large);
        PoolContext pool = new PoolContext(Fixtures.pool("default").offer(types), List.of());
        Resources pod = Resources.of(500, 256L << 20);

        CostAwarePacking.Menu menu = CostAwarePacking.menu(pool, types, Requirements.NONE, pod.times(40), List.of(pod));

        assertThat(menu.byEfficiency()).containsExactly(large);
        assertThat(menu.covering()).containsExactlyInAnyOrder(nano, large);
    }

    @Test
    void theFrontierDropsATypeAnotherHoldsAsMuchAsForNoMore() {
        InstanceType small = type("m5.large", 2, 8, 0.096);
        InstanceType dear = type("m4.large", 2, 8, 0.100);
        InstanceType big = type("m5.xlarge", 4, 16, 0.192);
        List<InstanceType> types = List.of(small, dear, big);
        PoolContext pool = new PoolContext(Fixtures.pool("default").offer(types), List.of());
        Resources pod = Resources.of(500, 256L << 20);

        CostAwarePacking.Menu menu = CostAwarePacking.menu(pool, types, Requirements.NONE, pod.times(40), List.of(pod));

        assertThat(menu.frontier()).containsExactly(small, big);
    }
}
