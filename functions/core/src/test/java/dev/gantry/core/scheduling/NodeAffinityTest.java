package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Karpenter's "Custom Constraints" and "Well Known Labels" cases: nodeSelector and required node affinity, every operator. */
class NodeAffinityTest {
    private static PoolBuilder labelled() {
        return pool("default").label("team", "payments");
    }

    private static SchedulingResult solveOne(PoolBuilder pool, Requirement... reqs) {
        return scenario().pods(pod("p").requiredNodeAffinity(List.of(Requirements.of(reqs))).build()).pool(pool).solve();
    }

    @Test
    void schedulesUnconstrainedPodsOnALabelledPool() {
        var r = scenario().pods(pod("p").build()).pool(labelled()).solve();
        assertThat(claimOf(r, "p").requirements().get("team").singleValue()).isEqualTo("payments");
    }

    @ParameterizedTest
    @CsvSource({"payments,true", "search,false"})
    void matchesNodeSelectorAgainstPoolLabels(String team, boolean schedules) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of("team", team)).build()).pool(labelled()).solve();
        assertThat(r.unschedulable().isEmpty()).isEqualTo(schedules);
    }

    @Test
    void doesNotScheduleANodeSelectorOnAKeyThePoolDoesNotDefine() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of("undefined-key", "x")).build()).pool(pool("default")).solve();
        assertThat(reasonFor(r, "p")).contains("undefined-key").contains("does not set it");
    }

    /** Karpenter's "Scheduling Logic" table: operator on a custom key the pool defines (team=payments) or not (other). */
    @ParameterizedTest(name = "{0} {1} {2} schedules={3}")
    @CsvSource(delimiter = '|', value = {
            "team|In|payments|true", "team|In|search|false", "team|NotIn|payments|false", "team|NotIn|search|true",
            "team|Exists||true", "team|DoesNotExist||false", "other|In|x|false", "other|NotIn|x|true",
            "other|Exists||false", "other|DoesNotExist||true"})
    void appliesEveryOperatorToCustomLabels(String key, Operator op, String value, boolean schedules) {
        var r = solveOne(labelled(), value == null ? Requirement.of(key, op) : Requirement.of(key, op, value));
        assertThat(r.unschedulable().isEmpty()).as("%s", r.unschedulable()).isEqualTo(schedules);
    }

    @ParameterizedTest(name = "instance-cpu {0} {1} -> {2}")
    @CsvSource({"Gt,8,16", "Lt,4,2", "Gte,4,4", "Lte,2,2"})
    void appliesNumericOperatorsToInstanceCpu(Operator op, String value, String expectedCpu) {
        var r = solveOne(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand"),
                Requirement.of(WellKnownLabels.INSTANCE_CPU, op, value), Requirement.of(WellKnownLabels.ARCH, Operator.In, "amd64"));
        assertThat(claimOf(r, "p").instanceType().labels().get(WellKnownLabels.INSTANCE_CPU)).isEqualTo(expectedCpu);
    }

    @ParameterizedTest
    @CsvSource({"topology.kubernetes.io/zone,test-zone-1b", "karpenter.sh/capacity-type,on-demand", "kubernetes.io/arch,arm64",
            "node.kubernetes.io/instance-type,r5.large", "karpenter.k8s.aws/instance-family,c5"})
    void honoursWellKnownLabelsInNodeSelectors(String key, String value) {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(key, value)).build()).pool(pool("default")).solve();
        assertThat(label(claimOf(r, "p"), key)).isEqualTo(value);
    }

    @Test
    void normalisesBetaLabelAliasesInNodeSelectors() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of("failure-domain.beta.kubernetes.io/zone", ZONES.get(2))).build())
                .pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(2));
    }

    @Test
    void usesPoolConstraintsWhenThePodHasNone() {
        var r = scenario().pods(pod("p").build()).pool(pool("default").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(1))).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(1));
    }

    @Test
    void doesNotScheduleAZoneOutsideThePoolsConstraints() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(2))).build())
                .pool(pool("default").req(WellKnownLabels.ZONE, Operator.In, ZONES.get(0))).solve();
        assertThat(reasonFor(r, "p")).startsWith("requires topology.kubernetes.io/zone In [test-zone-1c]; NodePool default allows");
    }

    @Test
    void doesNotScheduleAnUnknownZone() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ZONE, "unknown")).build()).pool(pool("default")).solve();
        assertNotScheduled(r, "p");
    }

    @Test
    void doesNotLaunchANodeForAHostnameSelector() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.HOSTNAME, "red-node")).build()).pool(pool("default")).solve();
        assertNotScheduled(r, "p");
        assertThat(r.newClaims()).isEmpty();
    }

    @Test
    void triesRequiredNodeAffinityTermsInOrder() {
        var terms = List.of(reqs(WellKnownLabels.ZONE, Operator.In, "invalid"), reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(2)),
                reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(1)));
        var r = scenario().pods(pod("p").requiredNodeAffinity(terms).build()).pool(pool("default")).solve();
        assertThat(zoneOf(claimOf(r, "p"))).isEqualTo(ZONES.get(2));
    }

    @Test
    void combinesNodeSelectorWithEveryRequiredTerm() {
        var r = scenario().pods(pod("p").nodeSelector(Map.of(WellKnownLabels.ARCH, "arm64"))
                .requiredNodeAffinity(List.of(reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(1)))).build()).pool(pool("default")).solve();
        var c = claimOf(r, "p");
        assertThat(zoneOf(c)).isEqualTo(ZONES.get(1));
        assertThat(c.instanceType().labels().get(WellKnownLabels.ARCH)).isEqualTo("arm64");
    }

    @Test
    void existsDoesNotOverwriteThePoolsValue() {
        var r = solveOne(labelled(), Requirement.of("team", Operator.Exists));
        assertThat(claimOf(r, "p").requirements().get("team").singleValue()).isEqualTo("payments");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesCompatiblePodsToTheSameNode(Strategy s) {
        var r = scenario().pods(pod("a", 500, 512).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0))).build(),
                pod("b", 500, 512).requiredNodeAffinity(List.of(reqs(WellKnownLabels.ZONE, Operator.In, ZONES.get(0), ZONES.get(1)))).build())
                .pool(pool("default").req(WellKnownLabels.CAPACITY_TYPE, Operator.In, "on-demand")).solve(s);
        assertThat(claimOf(r, "a")).isSameAs(claimOf(r, "b"));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesIncompatiblePodsToDifferentNodes(Strategy s) {
        var r = scenario().pods(pod("a", 500, 512).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(0))).build(),
                pod("b", 500, 512).nodeSelector(Map.of(WellKnownLabels.ZONE, ZONES.get(1))).build()).pool(pool("default")).solve(s);
        assertThat(claimOf(r, "a")).isNotSameAs(claimOf(r, "b"));
    }

    @Test
    void narrowsTheClaimsRequirementsByThePodsRequirements() {
        var r = solveOne(pool("default"), Requirement.of(WellKnownLabels.ZONE, Operator.In, ZONES.get(0), ZONES.get(1)));
        var zones = claimOf(r, "p").requirements().get(WellKnownLabels.ZONE);
        assertThat(zones.has(ZONES.get(2))).isFalse();
        assertThat(zones.has(zoneOf(claimOf(r, "p")))).isTrue();
    }

    @Test
    void excludesInstanceTypesThePodsAffinityRules() {
        var r = solveOne(pool("default"), Requirement.of(WellKnownLabels.INSTANCE_TYPE, Operator.NotIn, "m6g.large", "c5.large"));
        assertThat(claimOf(r, "p").instanceTypeOptions()).extracting(t -> t.name()).doesNotContain("m6g.large", "c5.large");
    }
}
