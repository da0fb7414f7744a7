package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Container;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube-scheduler's effective request rule ({@link Container#podRequests}) and the scheduler sizing nodes by it. */
class EffectiveRequestsTest {
    private static Container c(String name, String cpu, String mem) {
        return new Container(name, Map.of("cpu", Quantity.parse(cpu), "memory", Quantity.parse(mem)), Map.of(), false, List.of());
    }

    private static Container sidecar(String name, String cpu, String mem) {
        return new Container(name, Map.of("cpu", Quantity.parse(cpu), "memory", Quantity.parse(mem)), Map.of(), true, List.of());
    }

    @Test
    void sumsAppContainers() {
        var r = Container.podRequests(List.of(), List.of(c("a", "500m", "256Mi"), c("b", "250m", "256Mi")), null);
        assertThat(r).isEqualTo(Resources.of(750, 512 * MI));
    }

    @Test
    void takesTheLargestInitContainerWhenItExceedsTheAppSum() {
        var r = Container.podRequests(List.of(c("init", "2", "1Gi"), c("init2", "1", "3Gi")), List.of(c("app", "500m", "256Mi")), null);
        assertThat(r).isEqualTo(Resources.of(2000, 3 * GI));
    }

    @Test
    void addsSidecarsToTheAppContainers() {
        var r = Container.podRequests(List.of(sidecar("proxy", "100m", "64Mi")), List.of(c("app", "500m", "256Mi")), null);
        assertThat(r).isEqualTo(Resources.of(600, 320 * MI));
    }

    @Test
    void countsSidecarsStartedBeforeAnInitContainerAlongsideIt() {
        var r = Container.podRequests(List.of(sidecar("proxy", "1", "64Mi"), c("migrate", "2", "64Mi")), List.of(c("app", "500m", "64Mi")), null);
        assertThat(r.cpuMillis()).isEqualTo(3000);
    }

    @Test
    void ignoresSidecarsStartedAfterAnInitContainerForThatInitContainer() {
        var r = Container.podRequests(List.of(c("migrate", "2", "64Mi"), sidecar("proxy", "1", "64Mi")), List.of(c("app", "500m", "64Mi")), null);
        assertThat(r.cpuMillis()).isEqualTo(2000);
    }

    @Test
    void defaultsRequestsFromLimitsForALimitsOnlyContainer() {
        // Seed 002's nginx: limits cpu 0.25, memory 0.5Gi, no requests.
        var nginx = new Container("nginx", Map.of(), Map.of("cpu", Quantity.parse("0.25"), "memory", Quantity.parse("0.5Gi")), false, List.of());
        assertThat(Container.podRequests(List.of(), List.of(nginx), null)).isEqualTo(Resources.of(250, 512 * MI));
    }

    @Test
    void keepsExplicitRequestsOverLimits() {
        var container = new Container("app", Map.of("cpu", Quantity.parse("100m")), Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("1Gi")),
                false, List.of());
        assertThat(Container.podRequests(List.of(), List.of(container), null)).isEqualTo(Resources.of(100, GI));
    }

    @Test
    void addsPodOverhead() {
        var r = Container.podRequests(List.of(), List.of(c("app", "500m", "256Mi")), Resources.of(250, 160 * MI));
        assertThat(r).isEqualTo(Resources.of(750, 416 * MI));
    }

    @Test
    void sizesTheNodeForALargeInitContainer() {
        var requests = Container.podRequests(List.of(c("init", "6", "1Gi")), List.of(c("app", "500m", "256Mi")), null);
        var r = scenario().pods(Pod.builder("default", "p").requests(requests).build())
                .pool(pool("default").req(WellKnownLabels.ARCH, Operator.In, "amd64").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve();
        assertThat(claimOf(r, "p").instanceType().name()).isEqualTo("c5.2xlarge");
    }

    @Test
    void doesNotScheduleAnInitContainerLargerThanEveryType() {
        var requests = Container.podRequests(List.of(c("init", "40", "1Gi")), List.of(c("app", "500m", "256Mi")), null);
        var r = scenario().pods(Pod.builder("default", "p").requests(requests).build()).pool(pool("default")).solve();
        assertThat(reasonFor(r, "p")).isEqualTo("no instance type offers 40 cpu");
    }

    @Test
    void schedulesALimitsOnlyPodOnAClaimThatHoldsItsDefaultedRequests() {
        var nginx = new Container("nginx", Map.of(), Map.of("cpu", Quantity.parse("0.25"), "memory", Quantity.parse("0.5Gi")), false, List.of());
        var pods = java.util.stream.IntStream.range(0, 10).mapToObj(i -> Pod.builder("default", "nginx-" + i)
                .requests(Container.podRequests(List.of(), List.of(nginx), null)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve();
        assertAllScheduled(r);
        for (var claim : r.newClaims()) {
            assertThat(claim.requests().cpuMillis()).isEqualTo(250L * claim.pods().size());
            assertThat(claim.requests().fitsIn(claim.instanceType().allocatable())).isTrue();
        }
    }
}
