package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Daemonsets": each new node reserves room for the DaemonSets that would land on it, and only those. */
class DaemonSetTest {
    private static PoolBuilder onDemandAmd64() {
        return pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")
            .req(WellKnownLabels.ARCH, Operator.In, "amd64");
    }

    private static Pod.Builder daemon(String name, long cpu, long memMi) {
        return Pod.builder("kube-system", name).requests(Resources.of(cpu, memMi * MI)).owner("DaemonSet", name);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void accountsForDaemonSetsOnNewNodes(Strategy s) {
        var r = scenario().pods(pod("p", 1500, 1024).build()).daemonSet(daemonSet("agent", 1000, 1024)).pool(onDemandAmd64()).solve(s);
        var c = claimOf(r, "p");
        assertThat(c.instanceType().name()).isEqualTo("c5.xlarge");
        assertThat(c.requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotCountDaemonOverheadTwiceForSeveralPods(Strategy s) {
        var r = scenario().pods(pods("web", 3, 500, 512, Map.of())).daemonSet(daemonSet("agent", 500, 512)).pool(onDemandAmd64()).solve(s);
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.newClaims().get(0).requests().cpuMillis()).isEqualTo(2000);
        assertThat(r.newClaims().get(0).instanceType().name()).isEqualTo("c5.large");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleIfDaemonOverheadLeavesNoRoom(Strategy s) {
        var r = scenario().pods(pod("p", 8000, 1024).build()).daemonSet(daemonSet("hog", 31_000, 1024)).pool(onDemandAmd64()).solve(s);
        assertNotScheduled(r, "p");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresDaemonSetsThatDoNotTolerateThePoolsTaints(Strategy s) {
        var pool = onDemandAmd64().taint("dedicated", "x", Taint.Effect.NoSchedule);
        var r = scenario().pods(pod("p", 1500, 1024).tolerations(List.of(Toleration.exists("dedicated"))).build())
                .daemonSet(daemonSet("agent", 1000, 1024)).pool(pool).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(1500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsThatTolerateThePoolsTaints(Strategy s) {
        var pool = onDemandAmd64().taint("dedicated", "x", Taint.Effect.NoSchedule);
        var r = scenario().pods(pod("p", 1500, 1024).tolerations(List.of(Toleration.exists("dedicated"))).build())
                .daemonSet(daemonSet("agent", daemon("agent", 1000, 1024).tolerations(List.of(Toleration.exists(""))).build()))
                .pool(pool).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsDespiteAPreferNoScheduleTaint(Strategy s) {
        var pool = onDemandAmd64().taint("soft", "x", Taint.Effect.PreferNoSchedule);
        var r = scenario().pods(pod("p", 1500, 1024).tolerations(List.of(Toleration.exists("soft"))).build())
                .daemonSet(daemonSet("agent", 1000, 1024)).pool(pool).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsWhoseNodeSelectorMatchesThePoolsLabels(Strategy s) {
        var r = scenario().pods(pod("p", 1500, 1024).build())
                .daemonSet(daemonSet("agent", daemon("agent", 1000, 1024).nodeSelector(Map.of("team", "a")).build()))
                .pool(onDemandAmd64().label("team", "a")).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresDaemonSetsWhoseNodeSelectorExcludesThePool(Strategy s) {
        var r = scenario().pods(pod("p", 1500, 1024).build())
                .daemonSet(daemonSet("agent", daemon("agent", 1000, 1024).nodeSelector(Map.of("team", "b")).build()))
                .pool(onDemandAmd64().label("team", "a")).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(1500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void filtersDaemonSetsByInstanceTypeRequirements(Strategy s) {
        var armAgent = daemonSet("arm-agent", daemon("arm-agent", 1500, 1024).nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build());
        var r = scenario().pods(pod("amd", 1000, 1024).nodeSelector(Map.of(WellKnownLabels.ARCH, "amd64")).build(),
                pod("arm", 1000, 1024).nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build())
                .daemonSet(armAgent).pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve(s);
        assertThat(claimOf(r, "amd").instanceType().name()).isEqualTo("c5.large");
        assertThat(claimOf(r, "arm").instanceType().name()).isEqualTo("m6g.xlarge");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsDaemonSetsWithNotInOnAnUndefinedKey(Strategy s) {
        var ds = daemonSet("agent", daemon("agent", 1000, 1024).requiredNodeAffinity(List.of(reqs("undefined", Operator.NotIn, "x"))).build());
        var r = scenario().pods(pod("p", 1500, 1024).build()).daemonSet(ds).pool(onDemandAmd64()).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsADaemonSetWithSeveralNodeAffinityTermsIfAnyMatches(Strategy s) {
        var ds = daemonSet("agent", daemon("agent", 1000, 1024).requiredNodeAffinity(List.of(reqs("team", Operator.In, "other"),
                reqs(WellKnownLabels.ARCH, Operator.In, "amd64"))).build());
        var r = scenario().pods(pod("p", 1500, 1024).build()).daemonSet(ds).pool(onDemandAmd64()).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(2500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotSubtractDaemonOverheadFromExistingNodes(Strategy s) {
        var r = scenario().pods(pod("p", 2000, 1024).build()).node(existing(node("n1", ZONES.get(0), 2, 8)))
                .daemonSet(daemonSet("agent", 1000, 1024)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "p")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ignoresDaemonSetsSelectingALabelThePoolDoesNotSet(Strategy s) {
        var r = scenario().pods(pod("p", 1500, 1024).build())
                .daemonSet(daemonSet("agent", daemon("agent", 1000, 1024).nodeSelector(Map.of("team", "a")).build()))
                .pool(onDemandAmd64()).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(1500);
    }
}
