package dev.gantry.simulator.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.gantry.simulator.observe.SpotSplitDrift.Running;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The summary's spot-split drift (issue #29 §4; Gantry's own figures): the largest deviation, the time-weighted mean
 * absolute deviation, and the time outside one node's worth of the target, each share held until the next step.
 */
class SpotSplitDriftTest {
    private static final Instant T0 = Instant.parse("2026-12-05T00:00:00Z");
    private static final Map<String, Integer> SEVENTY = Map.of("split", 70);

    private static List<Running> nodes(int spot, int onDemand) {
        List<Running> out = new java.util.ArrayList<>();
        for (int i = 0; i < spot; i++) {
            out.add(new Running("split", true, 2000));
        }
        for (int i = 0; i < onDemand; i++) {
            out.add(new Running("split", false, 2000));
        }
        return out;
    }

    @Test
    void deviationIsMeasuredOverTimeAgainstOneNodesWorth() {
        SpotSplitDrift d = new SpotSplitDrift();
        d.measure(T0, nodes(7, 3), SEVENTY);                              // 70%: on target for 10 min
        d.measure(T0.plus(Duration.ofMinutes(10)), nodes(0, 10), SEVENTY); // spot gone: 0%, -70 pts, one node is 10 pts
        d.measure(T0.plus(Duration.ofMinutes(15)), nodes(6, 4), SEVENTY);  // 60%: -10 pts, exactly one node: inside
        d.measure(T0.plus(Duration.ofMinutes(25)), nodes(6, 4), SEVENTY);

        SpotSplitDrift.Pool p = d.pools().get("split");
        assertThat(p.maxDeviationPoints()).isCloseTo(-70, within(1e-9));
        assertThat(p.secondsOutsideOneNode()).isCloseTo(300, within(1e-9));
        assertThat(p.secondsMeasured()).isCloseTo(1500, within(1e-9));
        // (0 × 600 + 70 × 300 + 10 × 600) / 1500
        assertThat(p.meanAbsDeviationPoints()).isCloseTo(18, within(1e-9));
        assertThat(p.shareAtEnd()).isCloseTo(60, within(1e-9));
    }

    @Test
    void anEmptyPoolHasNoShareAndAPoolWithoutASplitIsNotReported() {
        SpotSplitDrift d = new SpotSplitDrift();
        d.measure(T0, List.of(), SEVENTY);
        d.measure(T0.plus(Duration.ofMinutes(5)), nodes(1, 0), SEVENTY);
        d.measure(T0.plus(Duration.ofMinutes(6)), nodes(1, 0), SEVENTY);
        assertThat(d.pools()).containsOnlyKeys("split");
        assertThat(d.pools().get("split").secondsMeasured()).isCloseTo(60, within(1e-9));
        assertThat(new SpotSplitDrift().pools()).isEmpty();
    }
}
