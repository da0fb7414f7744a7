package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's minValues: a claim keeps at least N distinct values of a key among its instance-type options, or does not launch. */
class MinValuesTest {
    private static Set<String> values(SchedulingResult.NodeClaimPlan c, String key) {
        return c.instanceTypeOptions().stream().map(t -> t.labels().get(key)).collect(Collectors.toSet());
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void keepsAtLeastMinValuesInstanceTypes(Strategy s) {
        var r = scenario().pods(pod("p", 500, 512).build())
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_TYPE, 3, "c5.large", "m5.large", "r5.large")).solve(s);
        assertThat(claimOf(r, "p").instanceTypeOptions()).extracting(InstanceType::name).containsExactlyInAnyOrder("c5.large", "m5.large", "r5.large");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleWhenThePodLeavesFewerTypesThanMinValues(Strategy s) {
        var r = scenario().pods(pod("p", 3000, 1024).build())
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_TYPE, 3, "c5.large", "m5.xlarge", "m5.2xlarge")).solve(s);
        assertThat(reasonFor(r, "p")).contains("minValues").contains(WellKnownLabels.INSTANCE_TYPE);
        assertThat(r.newClaims()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void opensAnotherClaimRatherThanDropBelowMinValues(Strategy s) {
        var r = scenario().pods(pod("a", 3000, 1024).build(), pod("b", 3000, 1024).build())
                .pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")
                        .minValues(WellKnownLabels.INSTANCE_TYPE, 2, "c5.xlarge", "m5.xlarge", "m5.2xlarge")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(2).allSatisfy(c -> assertThat(c.instanceTypeOptions().size()).isGreaterThanOrEqualTo(2));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void keepsMinValuesInstanceFamilies(Strategy s) {
        var r = scenario().pods(pods("web", 4, 1000, 1024, Map.of()))
                .pool(pool("default").minValues(WellKnownLabels.INSTANCE_FAMILY, 3, "c5", "m5", "r5")).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).allSatisfy(c -> assertThat(values(c, WellKnownLabels.INSTANCE_FAMILY)).hasSizeGreaterThanOrEqualTo(3));
    }

    @ParameterizedTest(name = "instance-cpu Gt 1 minValues 3, pod cpu {0}m schedules={1}")
    @CsvSource({"1000,true", "10000,false"})
    void appliesMinValuesToAGtRequirement(long cpu, boolean schedules) {
        var r = scenario().pods(pod("p", cpu, 1024).build())
                .pool(pool("default").req(new Requirement(WellKnownLabels.INSTANCE_CPU, Operator.Gt, List.of("1"), 3))).solve();
        assertThat(r.unschedulable().isEmpty()).isEqualTo(schedules);
        if (schedules) {
            assertThat(values(claimOf(r, "p"), WellKnownLabels.INSTANCE_CPU)).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    @ParameterizedTest(name = "instance-cpu Lt 9 minValues 3, pod cpu {0}m schedules={1}")
    @CsvSource({"1000,true", "3000,false"})
    void appliesMinValuesToALtRequirement(long cpu, boolean schedules) {
        var r = scenario().pods(pod("p", cpu, 1024).build())
                .pool(pool("default").req(new Requirement(WellKnownLabels.INSTANCE_CPU, Operator.Lt, List.of("9"), 3))).solve();
        assertThat(r.unschedulable().isEmpty()).isEqualTo(schedules);
    }

    @Test
    void takesTheLargestMinValuesOfSeveralRequirementsOnOneKey() {
        var r = scenario().pods(pod("p", 500, 512).build()).pool(pool("default")
                .req(new Requirement(WellKnownLabels.INSTANCE_FAMILY, Operator.In, List.of("c5", "m5", "r5", "m6g"), 2))
                .req(new Requirement(WellKnownLabels.INSTANCE_FAMILY, Operator.NotIn, List.of("p3"), 4))).solve();
        assertThat(values(claimOf(r, "p"), WellKnownLabels.INSTANCE_FAMILY)).hasSize(4);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void respectsMinValuesOnSeveralKeys(Strategy s) {
        var r = scenario().pods(pods("web", 3, 1000, 1024, Map.of())).pool(pool("default")
                .minValues(WellKnownLabels.INSTANCE_FAMILY, 2, "c5", "m5", "r5")
                .req(new Requirement(WellKnownLabels.INSTANCE_CPU, Operator.Exists, List.of(), 2))).solve(s);
        assertAllScheduled(r);
        assertThat(r.newClaims()).allSatisfy(c -> {
            assertThat(values(c, WellKnownLabels.INSTANCE_FAMILY)).hasSizeGreaterThanOrEqualTo(2);
            assertThat(values(c, WellKnownLabels.INSTANCE_CPU)).hasSizeGreaterThanOrEqualTo(2);
        });
    }

    /** 70 cheap types of one family, then 10 pricier ones of ten more families: the 60 cheapest hold only one family. */
    static List<InstanceType> oneCheapFamily() {
        List<InstanceType> out = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            out.add(type("cheap.s" + i, 2, 8, 0.01 + 0.001 * i));
        }
        for (int i = 0; i < 10; i++) {
            out.add(type("fam" + i + ".large", 2, 8, 1 + 0.01 * i));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void truncatesOptionsToSixtyWithoutBreakingMinValues(Strategy s) {
        var r = scenario().pods(pod("p", 500, 512).build())
                .pool(pool("default").req(new Requirement(WellKnownLabels.INSTANCE_FAMILY, Operator.Exists, List.of(), 5)).offer(oneCheapFamily())).solve(s);
        var c = claimOf(r, "p");
        assertThat(c.instanceTypeOptions()).hasSizeLessThanOrEqualTo(Scheduler.MAX_INSTANCE_TYPE_OPTIONS);
        assertThat(values(c, WellKnownLabels.INSTANCE_FAMILY)).hasSizeGreaterThanOrEqualTo(5);
        assertThat(c.instanceType().name()).isEqualTo("cheap.s0");
    }

    @Test
    void launchOptionsKeepTheCheapestTypesAndAddOnlyWhatMinValuesNeeds() {
        var reqs = dev.gantry.core.requirements.Requirements.of(new Requirement(WellKnownLabels.INSTANCE_FAMILY, Operator.Exists, List.of(), 5));
        var names = MinValues.truncate(oneCheapFamily(), reqs, Scheduler.MAX_INSTANCE_TYPE_OPTIONS).stream().map(InstanceType::name).toList();
        assertThat(names).hasSize(60).startsWith("cheap.s0").endsWith("fam3.large")
                .contains("fam0.large", "fam1.large", "fam2.large", "fam3.large").doesNotContain("fam4.large", "cheap.s56");
    }

    @Test
    void truncatesToTheCheapestTypesWhenThereIsNoMinValues() {
        var names = MinValues.truncate(oneCheapFamily(), dev.gantry.core.requirements.Requirements.NONE, 60).stream().map(InstanceType::name).toList();
        assertThat(names).hasSize(60).startsWith("cheap.s0").endsWith("cheap.s59");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleWhenMinValuesCannotSurviveTruncation(Strategy s) {
        var r = scenario().pods(pod("p", 500, 512).build())
                .pool(pool("default").req(new Requirement(WellKnownLabels.INSTANCE_TYPE, Operator.Exists, List.of(), 61)).offer(oneCheapFamily())).solve(s);
        assertThat(reasonFor(r, "p")).contains("minValues");
    }
}
