package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Resource Limits": a pool never launches past its limits, counting what it already runs and what is in flight. */
class LimitsTest {
    private static PoolBuilder smallOnly() {
        return pool("default").req(WellKnownLabels.INSTANCE_TYPE, Operator.In, "c5.large");
    }

    private static double cpuLaunched(SchedulingResult r) {
        return r.newClaims().stream().mapToLong(c -> c.instanceType().capacity().cpuMillis()).sum();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleWhenLimitsAreAlreadyExceeded(Strategy s) {
        var offer = new SchedulingInput.PoolOffer(pool("default").limit("cpu", "20").build(), catalogue(), Resources.of(24_000, 64 * GI), 3);
        var r = scenario().pods(pod("p").build()).pool(offer).solve(s);
        assertThat(reasonFor(r, "p")).startsWith("NodePool default would exceed its cpu limit (20)");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesWhenTheLimitWouldBeMet(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("default").limit("cpu", "2")).solve(s);
        assertAllScheduled(r);
        assertThat(claimOf(r, "p").instanceTypeOptions()).allSatisfy(t -> assertThat(t.capacity().cpuMillis()).isLessThanOrEqualTo(2000));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesPartiallyWhenTheLimitWouldBeExceeded(Strategy s) {
        var pods = IntStream.range(0, 6).mapToObj(i -> pod("p-" + i, 2000, 1024).build()).toList();
        var r = scenario().pods(pods).pool(smallOnly().limit("cpu", "8")).solve(s);
        assertThat(r.placedCount()).isEqualTo(4);
        assertThat(r.unschedulable()).hasSize(2).allSatisfy(u -> assertThat(u.reason()).startsWith("NodePool default would exceed its cpu limit (8)"));
        assertThat(cpuLaunched(r)).isLessThanOrEqualTo(8000);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsInFlightAndExistingUsageAgainstTheLimit(Strategy s) {
        var offer = new SchedulingInput.PoolOffer(smallOnly().limit("cpu", "8").build(), catalogue(), Resources.of(6000, 12 * GI), 3);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("p-" + i, 2000, 1024).build()).toList();
        var r = scenario().pods(pods).pool(offer).solve(s);
        assertThat(r.placedCount()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsAMemoryLimit(Strategy s) {
        var r = scenario().pods(pod("p", 500, 6 * 1024).build()).pool(pool("default").limit("memory", "4Gi")).solve(s);
        assertThat(reasonFor(r, "p")).startsWith("NodePool default would exceed its memory limit (4Gi)");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsAGpuLimit(Strategy s) {
        var r = scenario().pods(pod("gpu").requests(Resources.of(1000, GI).with(Resources.NVIDIA_GPU, 2)).build())
                .pool(pool("default").limit(Resources.NVIDIA_GPU, "2")).solve(s);
        assertThat(reasonFor(r, "gpu")).startsWith("NodePool default would exceed its nvidia.com/gpu limit (2)");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsANodesLimit(Strategy s) {
        var anti = PodAffinityTerm.required(selector("app", "web"), WellKnownLabels.HOSTNAME);
        var pods = IntStream.range(0, 3).mapToObj(i -> pod("web-" + i, 500, 512, Map.of("app", "web")).podAntiAffinity(List.of(anti)).build()).toList();
        var r = scenario().pods(pods).pool(pool("default").limit("nodes", "2")).solve(s);
        assertThat(r.newClaims()).hasSize(2);
        assertThat(r.unschedulable()).hasSize(1);
        assertThat(r.unschedulable().get(0).reason()).contains("nodes limit");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsExistingNodesAgainstANodesLimit(Strategy s) {
        var offer = new SchedulingInput.PoolOffer(pool("default").limit("nodes", "2").build(), catalogue(), Resources.ZERO, 2);
        var r = scenario().pods(pod("p").build()).pool(offer).solve(s);
        assertThat(reasonFor(r, "p")).isEqualTo("NodePool default would exceed its nodes limit");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fallsBackToAnotherPoolWhenTheFirstIsAtItsLimit(Strategy s) {
        var full = new SchedulingInput.PoolOffer(pool("first").weight(100).limit("cpu", "4").build(), catalogue(), Resources.of(4000, 8 * GI), 1);
        var r = scenario().pods(pod("p").build()).pool(full).pool(pool("second")).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("second");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void excludesInstanceTypesLargerThanTheRemainingLimitFromOptions(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("default").limit("cpu", "4")).solve(s);
        assertThat(claimOf(r, "p").instanceTypeOptions()).isNotEmpty()
                .allSatisfy(t -> assertThat(t.capacity().cpuMillis()).isLessThanOrEqualTo(4000));
    }
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesNothingOnAPoolWhoseCpuLimitIsZero(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("off").limit("cpu", "0")).solve(s);
        assertThat(r.newClaims()).isEmpty();
        assertThat(reasonFor(r, "p")).isEqualTo("NodePool off would exceed its cpu limit (0)");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void placesNothingOnAPoolWhoseMemoryOrPodsLimitIsZero(Strategy s) {
        for (String resource : List.of("memory", "pods")) {
            var r = scenario().pods(pod("p").build()).pool(pool("off").limit(resource, "0")).solve(s);
            assertThat(r.newClaims()).as(resource).isEmpty();
            assertThat(reasonFor(r, "p")).as(resource).isEqualTo("NodePool off would exceed its " + resource + " limit (0)");
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fallsBackFromAPoolTurnedOffByAZeroLimitToTheNextPool(Strategy s) {
        var r = scenario().pods(pod("p").build()).pool(pool("off").weight(100).limit("cpu", "0")).pool(pool("on")).solve(s);
        assertThat(claimOf(r, "p").nodePool()).isEqualTo("on");
    }

    private static List<dev.gantry.core.model.Pod> antiAffinePods(int n, long cpuMillis) {
        var anti = PodAffinityTerm.required(selector("app", "api"), WellKnownLabels.HOSTNAME);
        return IntStream.range(0, n).mapToObj(i -> pod("api-" + i, cpuMillis, 512, Map.of("app", "api"))
                .podAntiAffinity(List.of(anti)).build()).toList();
    }

    /**
     * Issue #23: each new claim was counted at its largest allowed type (16 vCPU here), so a 16-vCPU limit refused the
     * second of six 2-vCPU nodes. Near the limit the earlier claims narrow to types no larger than the one they are
     * expected to launch, and all six fit.
     */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void nearALimitEarlierClaimsNarrowToTheirExpectedSizeBeforeAPodIsRefused(Strategy s) {
        var r = scenario().pods(antiAffinePods(6, 1500)).pool(pool("default").limit("cpu", "16")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(6);
        // Whatever CreateFleet picks among each claim's options, the pool stays within its limit.
        assertThat(r.newClaims().stream().mapToLong(c -> c.instanceTypeOptions().stream()
                .mapToLong(t -> t.capacity().cpuMillis()).max().orElseThrow()).sum()).isLessThanOrEqualTo(16_000);
    }

    /**
     * When the claims cannot narrow (minValues keeps three types of 2, 4 and 8 vCPU on each), a pod that fits at the
     * claims' expected types waits for their capacity to be confirmed, and the reason gives the figures.
     */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPodThatOnlyTheConservativeCountKeepsOutWaitsForCapacityToBeConfirmed(Strategy s) {
        var r = scenario().pods(antiAffinePods(3, 1500))
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_TYPE, 3, "c5.large", "m5.xlarge", "m5.2xlarge").limit("cpu", "16"))
                .solve(s);
        assertThat(r.newClaims()).hasSize(2);
        assertThat(r.unschedulable()).singleElement().extracting(SchedulingResult.Unschedulable::reason).isEqualTo(
                "NodePool default is waiting for capacity to be confirmed: cpu 0 in use, 16 counted at most for new nodes "
                        + "(4 expected), limit 16; a node for the pod (2) fits once their types are known");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aLimitReallyReachedSaysWhatIsInUseAndWhatTheNewNodesTake(Strategy s) {
        var offer = new SchedulingInput.PoolOffer(smallOnly().limit("cpu", "8").build(), catalogue(), Resources.of(4000, 8 * GI), 2);
        var r = scenario().pods(antiAffinePods(3, 1500)).pool(offer).solve(s);
        assertThat(r.unschedulable()).singleElement().extracting(SchedulingResult.Unschedulable::reason).isEqualTo(
                "NodePool default would exceed its cpu limit (8): 4 in use, 4 for new nodes, a node for the pod adds at least 2");
    }

    /** CreateFleet is offered at most 60 types: the claim counts the largest of those, not of every type that fits. */
    @org.junit.jupiter.api.Test
    void aClaimCountsTheLargestOfTheTypesItWouldBeLaunchedWith() {
        var offer = new SchedulingInput.PoolOffer(pool("default").limit("cpu", "1000").build(), manyTypes(100, 10));
        Packer packer = new Packer(new SchedulingInput(List.of(pod("p", 1000, 512).build()), List.of(), List.of(), List.of(),
                List.of(offer), Map.of()));
        packer.run(List.of(pod("p", 1000, 512).build()));
        assertThat(packer.claims).singleElement().satisfies(c -> {
            assertThat(c.options).hasSize(100);
            assertThat(c.reserved.cpuMillis()).isEqualTo(61_000); // the 60 cheapest have 2 to 61 vCPU; the largest 101
        });
    }
}
