package dev.gantry.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link InstanceType#withUnavailable}: the one way a plan leaves offerings out (ICE marks, a split's fallback, rebalance). */
class InstanceTypeUnavailableTest {
    private final InstanceType t = new InstanceType("m5.large", Map.of(), new Resources(2000, 8L << 30, 0, 110, Map.of()),
            Resources.ZERO, List.of(Offering.of("a", "spot", 0.03), Offering.of("a", "on-demand", 0.096), Offering.of("b", "spot", 0.03)));

    @Test
    void marksOnlyTheOfferingsItIsToldAndKeepsTheirOrder() {
        InstanceType out = t.withUnavailable(o -> o.capacityType().equals("spot"));
        assertThat(out.offerings()).extracting(Offering::available).containsExactly(false, true, false);
        assertThat(out.offerings()).extracting(Offering::zone).containsExactly("a", "a", "b");
    }

    @Test
    void isTheSameTypeWhenNothingIsMarked() {
        assertThat(t.withUnavailable(o -> false)).isSameAs(t);
        InstanceType once = t.withUnavailable(o -> o.zone().equals("b"));
        assertThat(once.withUnavailable(o -> o.zone().equals("b"))).isSameAs(once);
    }
}
