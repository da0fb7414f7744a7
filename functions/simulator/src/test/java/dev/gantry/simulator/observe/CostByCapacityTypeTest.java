package dev.gantry.simulator.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary's cost by capacity type (issue #29 §3): keyed by the value, so a new type needs no change. */
class CostByCapacityTypeTest {
    private static final Instant T0 = Instant.parse("2026-12-05T00:00:00Z");

    @Test
    void eachCapacityTypeAccruesAtItsOwnRateAndANewTypeIsJustAnotherKey() {
        CostByCapacityType c = new CostByCapacityType(T0);
        c.rates(T0, Map.of("spot", 0.3, "on-demand", 1.0));
        c.rates(T0.plus(Duration.ofHours(2)), Map.of("on-demand", 1.0, "reserved", 0.5));
        c.rates(T0.plus(Duration.ofHours(3)), Map.of());
        assertThat(c.total()).containsOnlyKeys("on-demand", "reserved", "spot");
        assertThat(c.total().get("spot")).isCloseTo(0.6, within(1e-9));
        assertThat(c.total().get("on-demand")).isCloseTo(3.0, within(1e-9));
        assertThat(c.total().get("reserved")).isCloseTo(0.5, within(1e-9));
    }
}
