package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Binpacking" and "Instance Type Compatibility" cases. */
class BinPackingTest {
    private static PoolBuilder onDemandAmd64() {
        return pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")
            .req(WellKnownLabels.ARCH, Operator.In, "amd64");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesSmallPodOnCheapestOffering(Strategy s) {
        var r = scenario().pods(pod("a", 500, 512).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo("m6g.large");
        assertThat(claimOf(r, "a").offering().capacityType()).isEqualTo("spot");
    }

    @ParameterizedTest
    @CsvSource({"amd64,c5.large", "arm64,m6g.large"})
    void schedulesOnCheapestTypeOfThePodsArch(String arch, String expected) {
        var r = scenario().pods(pod("a", 500, 512).nodeSelector(Map.of(WellKnownLabels.ARCH, arch)).build()).pool(pool("default")).solve();
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"1000,1024,c5.large", "3000,1024,c5.xlarge", "1000,12288,r5.large", "6000,20480,m5.2xlarge", "12000,1024,m5.4xlarge"})
    void picksCheapestTypeWhoseAllocatableHoldsThePod(long cpu, long memMi, String expected) {
        var r = scenario().pods(pod("a", cpu, memMi).build()).pool(onDemandAmd64()).solve(Strategy.KARPENTER_GREEDY);
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void everyInstanceTypeOptionFitsTheClaimAndIsOrderedByPrice(Strategy s) {
        var r = scenario().pods(pods("web", 3, 1000, 1024, Map.of())).pool(pool("default")).solve(s);
        for (var c : r.newClaims()) {
            assertThat(c.instanceTypeOptions()).isNotEmpty().hasSizeLessThanOrEqualTo(Scheduler.MAX_INSTANCE_TYPE_OPTIONS);
            assertThat(c.instanceTypeOptions().get(0)).isSameAs(c.instanceType());
            double last = 0;
            for (var t : c.instanceTypeOptions()) {
                assertThat(c.requests().fitsIn(t.allocatable())).as("%s holds %s", t, c.requests()).isTrue();
                double price = t.cheapestOffering(c.requirements()).pricePerHour();
                assertThat(price).isGreaterThanOrEqualTo(last);
                last = price;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void packsManySmallPodsOntoOneNodeWhenOneTypeHoldsThemAll(Strategy s) {
        var r = scenario().pods(pods("web", 4, 250, 256, Map.of())).pool(onDemandAmd64()).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
        assertThat(claimOf(r, "web-0").instanceType().name()).isEqualTo("c5.large");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void createsNewNodesWhenTheOnlyTypeIsAtCapacity(Strategy s) {
        var r = scenario().pods(pods("web", 5, 1000, 1024, Map.of()))
                .pool(onDemandAmd64().req(WellKnownLabels.INSTANCE_TYPE, Operator.In, "c5.large")).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerClaim(r)).containsExactly(2, 2, 1);
    }

    @Test
    void greedyKeepsAddingPodsToAClaimWhileAnyTypeStillFits() {
        var r = scenario().pods(pods("web", 10, 1000, 1024, Map.of())).pool(onDemandAmd64()).solve(Strategy.KARPENTER_GREEDY);
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.newClaims().get(0).instanceType().name()).isEqualTo("m5.4xlarge");
    }

    @Test
    void gantryRightSizesCheaperThanTheGreedyOversizedLastNode() {
        var in = scenario().pods(pods("web", 10, 1000, 1024, Map.of())).pool(onDemandAmd64()).input();
        var greedy = Scheduler.solve(in, Strategy.KARPENTER_GREEDY);
        var gantry = Scheduler.solve(in, Strategy.GANTRY);
        assertAllScheduled(gantry);
        assertThat(gantry.totalPricePerHour()).isLessThan(greedy.totalPricePerHour());
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void packsSmallAndLargePodsTogether(Strategy s) {
        List<Pod> pods = new ArrayList<>(pods("small", 4, 500, 512, Map.of()));
        pods.add(pod("large", 6000, 6144).build());
        var r = scenario().pods(pods).pool(onDemandAmd64()).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.newClaims().get(0).instanceType().name()).isEqualTo("c5.2xlarge");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void handlesZeroQuantityRequests(Strategy s) {
        var r = scenario().pods(Pod.builder("default", "zero").requests(Resources.ZERO).build()).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(1);
    }

    @ParameterizedTest
    @CsvSource({"64000,1024,no instance type offers 64 cpu", "1000,307200,no instance type offers 300Gi memory"})
    void doesNotSchedulePodsThatExceedEveryInstanceType(long cpu, long memMi, String reason) {
        var r = scenario().pods(pod("huge", cpu, memMi).build()).pool(pool("default")).solve();
        assertThat(reasonFor(r, "huge")).isEqualTo(reason);
        assertThat(r.newClaims()).isEmpty();
    }

    @Test
    void doesNotSchedulePodsThatExceedEveryTypesEphemeralStorage() {
        var r = scenario().pods(pod("disk").requests(new Resources(1000, GI, 200 * GI, 0, Map.of())).build()).pool(pool("default")).solve();
        assertThat(reasonFor(r, "disk")).isEqualTo("no instance type offers 200Gi ephemeral-storage");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fitsEphemeralStorageRequestsIntoAllocatable(Strategy s) {
        var pods = List.of(pod("a").requests(new Resources(500, GI, 60 * GI, 0, Map.of())).build(),
                pod("b").requests(new Resources(500, GI, 60 * GI, 0, Map.of())).build());
        var r = scenario().pods(pods).pool(pool("default")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).as("100Gi disks hold one 60Gi pod each").hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void createsNewNodesWhenANodeIsAtItsPodsCapacity(Strategy s) {
        var tiny = List.of(type("t3.nano", 2, 4, 0.005, "amd64", Map.of(), 4));
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(pod("p-" + i).requests(new Resources(10, MI, 0, 1, Map.of())).build());
        }
        var r = scenario().pods(pods).pool(pool("default").offer(tiny)).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerClaim(r)).containsExactly(4, 2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsEachPodAgainstThePodsCapacityEvenWithoutAnExplicitPodsRequest(Strategy s) {
        var tiny = List.of(type("t3.nano", 2, 4, 0.005, "amd64", Map.of(), 4));
        var r = scenario().pods(pods("p", 6, 10, 1, Map.of())).pool(pool("default").offer(tiny)).solve(s);
        assertAllScheduled(r);
        assertThat(podsPerClaim(r)).containsExactly(4, 2);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesPodsWithDifferentArchsOnDifferentInstances(Strategy s) {
        var r = scenario().pods(pod("amd").nodeSelector(Map.of(WellKnownLabels.ARCH, "amd64")).build(),
                pod("arm").nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64")).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "amd")).isNotSameAs(claimOf(r, "arm"));
        assertThat(label(claimOf(r, "arm"), WellKnownLabels.ARCH)).isEqualTo("arm64");
        assertThat(label(claimOf(r, "amd"), WellKnownLabels.ARCH)).isEqualTo("amd64");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesPodsWithDifferentInstanceTypeSelectorsOnDifferentInstances(Strategy s) {
        var r = scenario().pods(pod("a").nodeSelector(Map.of(WellKnownLabels.INSTANCE_TYPE, "m5.large")).build(),
                pod("b").nodeSelector(Map.of(WellKnownLabels.INSTANCE_TYPE, "c5.large")).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo("m5.large");
        assertThat(claimOf(r, "b").instanceType().name()).isEqualTo("c5.large");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesPodsThatDoNotFitOneInstanceTogetherOnSeparateInstances(Strategy s) {
        var r = scenario().pods(pod("a", 9000, 1024).build(), pod("b", 9000, 1024).build())
                .pool(onDemandAmd64().req(WellKnownLabels.INSTANCE_FAMILY, Operator.In, "m5", "c5")).solve(s);
        assertAllScheduled(r);
        assertThat(claimOf(r, "a")).isNotSameAs(claimOf(r, "b"));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void claimRequestsAreTheSumOfItsPods(Strategy s) {
        var r = scenario().pods(pods("web", 3, 500, 256, Map.of())).pool(onDemandAmd64()).solve(s);
        var c = r.newClaims().get(0);
        assertThat(c.requests().cpuMillis()).isEqualTo(500L * c.pods().size());
        assertThat(c.requests().memoryBytes()).isEqualTo(256L * MI * c.pods().size());
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void totalPriceIsTheSumOfTheClaimsExpectedOfferings(Strategy s) {
        var r = scenario().pods(pods("web", 7, 1500, 2048, Map.of())).pool(pool("default")).solve(s);
        double sum = r.newClaims().stream().mapToDouble(SchedulingResult.NodeClaimPlan::pricePerHour).sum();
        assertThat(r.totalPricePerHour()).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.lowerBoundPerHour()).isLessThanOrEqualTo(r.totalPricePerHour() + 1e-9);
    }

    @Test
    void solvingTheSameInputTwiceGivesTheSameClaims() {
        var in = scenario().pods(pods("web", 12, 700, 900, Map.of())).pool(pool("default")).input();
        var a = Scheduler.solve(in);
        var b = Scheduler.solve(in);
        assertThat(a.newClaims().stream().map(SchedulingResult.NodeClaimPlan::name).toList())
                .isEqualTo(b.newClaims().stream().map(SchedulingResult.NodeClaimPlan::name).toList());
        assertThat(a.totalPricePerHour()).isEqualTo(b.totalPricePerHour());
    }
}
