package dev.gantry.core.scheduling;

import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Node;
import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One test per scheduler bug the category suites found, named after what broke. */
class SchedulingRegressionTest {
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podCountedByAnAffinityGroupIsNotPinnedToAZoneItsNodeSelectorExcludes(Strategy s) {
        // Topology pinned a counted pod to the least-loaded zone of the claim, ignoring the pod's own zone selector.
        var r = scenario().pods(pod("db", 2000, 2048).labels(Map.of("app", "db")).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build(),
                pod("web", 500, 512).podAffinity(List.of(PodAffinityTerm.required(selector("app", "db"), WellKnownLabels.ZONE))).build())
                .pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(zoneOf(claimOf(r, "db"))).isEqualTo(ZONES.get(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void preferredNodeAffinityDoesNotShrinkTheDomainsOfAZonalSpread(Strategy s) {
        var spread = TopologySpread.of(1, WellKnownLabels.ZONE, true, selector("app", "web"));
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).topologySpread(List.of(spread))
                .preferredNodeAffinity(List.of(new Pod.WeightedRequirements(10, reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(0)))))
                .build()).toList();
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertThat(podsPerZone(r).values()).containsExactly(2L, 2L, 2L);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void hostnameNodeSelectorDoesNotLaunchANewNode(Strategy s) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.HOSTNAME, "red-node")).build()).pool(pool("default")).solve(s);
        assertThat(reasonFor(r, "p")).contains("hostname");
        assertThat(r.newClaims()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void daemonSetSelectingACustomLabelThePoolDoesNotSetAddsNoOverhead(Strategy s) {
        var ds = daemonSet("agent", Pod.builder("kube-system", "agent").requests(Resources.of(1000, GI)).nodeSelector(Map.of("team", "a"))
                .owner("DaemonSet", "agent").build());
        var r = scenario().pods(pod("p", 1500, 1024).build()).daemonSet(ds).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "p").requests().cpuMillis()).isEqualTo(1500);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void minValuesIsEnforcedWhenAPodNarrowsTheOptions(Strategy s) {
        var r = scenario().pods(pod("p", 3000, 1024).build())
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_TYPE, 3, "c5.large", "m5.xlarge", "m5.2xlarge")).solve(s);
        assertThat(reasonFor(r, "p")).isEqualTo("NodePool default requires minValues 3 for node.kubernetes.io/instance-type; "
                + "the instance types that fit offer only 2");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeThatIsStillRegisteringCountsAsCapacityDespiteItsNotReadyAndStartupTaints(Strategy s) {
        // A registering node carries node.kubernetes.io/not-ready and the pool's startup taints; treating them as hard
        // made the provisioner launch a second node for the same pods (seen in the simulator), removed as empty later.
        Node starting = new Node("n1", "aws:///test-zone-1a/i-n1", Map.of(WellKnownLabels.ZONE, ZONES.get(0),
                WellKnownLabels.HOSTNAME, "n1", WellKnownLabels.ARCH, "amd64", WellKnownLabels.NODEPOOL, "default"), Map.of(),
                List.of(new Taint("node.kubernetes.io/not-ready", "", Taint.Effect.NoSchedule),
                        new Taint("example.com/agent-not-ready", "", Taint.Effect.NoSchedule)),
                new Resources(4000, 16 * GI, 100 * GI, 110, Map.of()), false, false, false, java.time.Instant.EPOCH);
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(starting))
                .pool(pool("default").startupTaint("example.com/agent-not-ready", Taint.Effect.NoSchedule)).solve(s);
        assertThat(r.newClaims()).isEmpty();
        assertThat(nodeOf(r, "web")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anInitializedNodeKeepsItsTaintsForPodsThatDoNotTolerateThem(Strategy s) {
        Node ready = node("n1", ZONES.get(0), 4, 16, Map.of(WellKnownLabels.NODEPOOL, "default", Node.INITIALIZED_LABEL, "true"),
                List.of(new Taint("example.com/agent-not-ready", "", Taint.Effect.NoSchedule)));
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(ready))
                .pool(pool("default").startupTaint("example.com/agent-not-ready", Taint.Effect.NoSchedule)).solve(s);
        assertThat(nodeOf(r, "web")).isNull();
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeThatWasInitializedAndWentNotReadyIsNotCountedAsCapacity(Strategy s) {
        // Ignoring not-ready taints on every unready node planned pods onto nodes whose instances had died (zero-nodes).
        Node dead = new Node("n1", "aws:///test-zone-1a/i-n1", Map.of(WellKnownLabels.ZONE, ZONES.get(0),
                WellKnownLabels.HOSTNAME, "n1", WellKnownLabels.ARCH, "amd64", WellKnownLabels.NODEPOOL, "default",
                "karpenter.sh/initialized", "true"), Map.of(),
                List.of(new Taint("node.kubernetes.io/not-ready", "", Taint.Effect.NoSchedule)),
                new Resources(4000, 16 * GI, 100 * GI, 110, Map.of()), false, false, false, java.time.Instant.EPOCH);
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(dead)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web")).isNull();
        assertThat(r.newClaims()).hasSize(1);
    }
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aReadyNodeNotYetInitializedStillHasItsStartupTaintsIgnored(Strategy s) {
        // karpenter: statenode.go Taints(): until karpenter.sh/initialized, startup and ephemeral taints are ignored, Ready or not
        Node ready = node("n1", ZONES.get(0), 4, 16, Map.of(WellKnownLabels.NODEPOOL, "default"),
                List.of(new Taint("example.com/agent-not-ready", "", Taint.Effect.NoSchedule)));
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(ready))
                .pool(pool("default").startupTaint("example.com/agent-not-ready", Taint.Effect.NoSchedule)).solve(s);
        assertThat(r.newClaims()).isEmpty();
        assertThat(nodeOf(r, "web")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeStillBootingCountsWithItsInstanceTypesAllocatableUntilItReportsOne(Strategy s) {
        // A booting node's status.allocatable is empty; Karpenter takes the NodeClaim's. Without it a second node launched.
        Node booting = new Node("n1", "aws:///test-zone-1a/i-n1", Map.of(WellKnownLabels.ZONE, ZONES.get(0),
                WellKnownLabels.HOSTNAME, "n1", WellKnownLabels.ARCH, "amd64", WellKnownLabels.NODEPOOL, "default",
                WellKnownLabels.INSTANCE_TYPE, "m5.xlarge"), Map.of(),
                List.of(new Taint("node.kubernetes.io/not-ready", "", Taint.Effect.NoSchedule)), Resources.ZERO, false, false, false,
                java.time.Instant.EPOCH);
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(booting)).pool(pool("default")).solve(s);
        assertThat(r.newClaims()).isEmpty();
        assertThat(nodeOf(r, "web")).isEqualTo("n1");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aNodeNoPoolLaunchedKeepsItsNotReadyTaint(Strategy s) {
        // karpenter: statenode.go Initialized(): unmanaged nodes always count as initialized
        Node unmanaged = node("n1", ZONES.get(0), 4, 16, Map.of(),
                List.of(new Taint("node.kubernetes.io/not-ready", "", Taint.Effect.NoSchedule)));
        var r = scenario().pods(pod("web", 1000, 1024).build()).node(existing(unmanaged)).pool(pool("default")).solve(s);
        assertThat(nodeOf(r, "web")).isNull();
        assertThat(r.newClaims()).hasSize(1);
    }
}
