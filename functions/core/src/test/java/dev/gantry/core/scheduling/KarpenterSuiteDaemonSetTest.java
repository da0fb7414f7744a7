package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** DaemonSet cases ported from Karpenter's provisioning suite_test.go and scheduling suite_test.go. */
class KarpenterSuiteDaemonSetTest {
    static Pod daemon(String name, long cpu, long memMi, List<HostPort> ports) {
        return Pod.builder("kube-system", name).requests(Resources.of(cpu, memMi * MI)).hostPorts(ports).owner("DaemonSet", name).build();
    }

    // karpenter: provisioning/suite_test.go "should account for daemonset hostports"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPodBindingADaemonSetsHostPortIsNotPlannedOntoANewNodeWithThatDaemonSet(Strategy s) {
        var r = scenario().daemonSet(daemonSet("agent", daemon("agent", 2000, 2048, List.of(new HostPort(8080, "TCP", null)))))
                .pods(pod("p", 1000, 1024).hostPorts(List.of(new HostPort(8080, "TCP", null))).build()).pool(pool("default")).solve(s);
        assertThat(r.newClaims()).isEmpty();
        assertThat(reasonFor(r, "p")).contains("host port");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aDaemonSetsHostPortOnlyBlocksTheInstanceTypesItRunsOn(Strategy s) {
        var gpuOnly = Pod.builder("kube-system", "gpu-agent").requests(Resources.of(100, 64 * MI))
                .hostPorts(List.of(new HostPort(9400, "TCP", null))).owner("DaemonSet", "gpu-agent")
                .requiredNodeAffinity(List.of(reqs(dev.gantry.core.requirements.WellKnownLabels.INSTANCE_GPU_COUNT, Operator.Exists))).build();
        var r = scenario().daemonSet(daemonSet("gpu-agent", gpuOnly))
                .pods(pod("p", 1000, 1024).hostPorts(List.of(new HostPort(9400, "TCP", null))).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(claimOf(r, "p").instanceType().name()).doesNotStartWith("p3");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aDaemonSetsHostPortOnAnotherProtocolDoesNotBlock(Strategy s) {
        var r = scenario().daemonSet(daemonSet("dns", daemon("dns", 100, 64, List.of(new HostPort(53, "UDP", null)))))
                .pods(pod("p", 1000, 1024).hostPorts(List.of(new HostPort(53, "TCP", null))).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
    }

    static Pod requiring(String name, String label) {
        return Pod.builder("kube-system", name).requests(Resources.of(1000, 0)).owner("DaemonSet", name)
                .requiredNodeAffinity(List.of(reqs(label, Operator.In, "true"))).build();
    }

    // karpenter: scheduling/suite_test.go "Should properly handle DaemonSet resources with Node Affinity for `karpenter.sh/initialized` and `karpenter.sh/registered`"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsThatRequireTheInitializedOrRegisteredLabel(Strategy s) {
        var r = scenario().daemonSet(daemonSet("ds1", requiring("ds1", Node.INITIALIZED_LABEL)))
                .daemonSet(daemonSet("ds2", requiring("ds2", Node.REGISTERED_LABEL)))
                .pods(pod("p", 2000, 0).build()).pool(pool("default")).solve(s);
        var claim = claimOf(r, "p");
        assertThat(claim.instanceType().capacity().cpuMillis()).isGreaterThanOrEqualTo(4000);
        assertThat(claim.requests().cpuMillis()).isEqualTo(4000);
        // The simulation-only labels do not leak into what the claim requires.
        assertThat(claim.requirements().has(Node.INITIALIZED_LABEL)).isFalse();
        assertThat(claim.requirements().has(Node.REGISTERED_LABEL)).isFalse();
    }

    // karpenter: provisioning/suite_test.go "should account for daemonsets (with startup taint)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsOnAPoolWithAStartupTaint(Strategy s) {
        var r = scenario().daemonSet(daemonSet("ds", 2000, 2048)).pods(pod("p", 1000, 1024).build())
                .pool(pool("default").startupTaint("foo.com/taint", Taint.Effect.NoSchedule)
                        .req(dev.gantry.core.requirements.WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve(s);
        assertThat(claimOf(r, "p").instanceType().capacity().cpuMillis()).isGreaterThanOrEqualTo(4000);
    }
}
