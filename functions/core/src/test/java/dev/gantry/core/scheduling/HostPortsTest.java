package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Two pods that claim the same host port (same port and protocol, overlapping IPs) never share a node. */
class HostPortsTest {
    private static PoolBuilder onDemand() {
        return pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand");
    }

    static Stream<Arguments> portPairs() {
        return Stream.of(
                Arguments.of("same port, same protocol", new HostPort(80, "TCP", null), new HostPort(80, "TCP", null), true),
                Arguments.of("same port, any IP against one IP", new HostPort(80, "TCP", "10.0.0.1"), new HostPort(80, "TCP", null), true),
                Arguments.of("same port, same IP", new HostPort(80, "TCP", "10.0.0.1"), new HostPort(80, "TCP", "10.0.0.1"), true),
                Arguments.of("same port, different protocol", new HostPort(53, "UDP", null), new HostPort(53, "TCP", null), false),
                Arguments.of("same port, different IPs", new HostPort(80, "TCP", "10.0.0.1"), new HostPort(80, "TCP", "10.0.0.2"), false),
                Arguments.of("different ports", new HostPort(80, "TCP", null), new HostPort(443, "TCP", null), false));
    }

    @ParameterizedTest(name = "{0}: separate nodes = {3}")
    @MethodSource("portPairs")
    void separatesPodsOnlyWhenTheirHostPortsConflict(String why, HostPort a, HostPort b, boolean separate) {
        for (Strategy s : Strategy.values()) {
            var r = scenario().pods(pod("a", 500, 512).hostPorts(List.of(a)).build(), pod("b", 500, 512).hostPorts(List.of(b)).build())
                    .pool(onDemand()).solve(s);
            assertAllScheduled(r);
            assertThat(claimOf(r, "a") != claimOf(r, "b")).as("%s with %s", why, s).isEqualTo(separate);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("portPairs")
    void usesAnExistingNodeUnlessABoundPodHoldsAConflictingPort(String why, HostPort bound, HostPort wanted, boolean conflict) {
        var n = existing(node("n1", ZONES.get(0), 8, 32), pod("bound", 500, 512).hostPorts(List.of(bound)).build());
        var r = scenario().pods(pod("p", 500, 512).hostPorts(List.of(wanted)).build()).node(n).pool(onDemand()).solve();
        assertThat(nodeOf(r, "p") == null).as(why).isEqualTo(conflict);
    }
}
