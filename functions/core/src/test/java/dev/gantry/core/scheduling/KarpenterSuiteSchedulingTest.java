package dev.gantry.core.scheduling;

import static dev.gantry.core.scheduling.Fixtures.*;
import static dev.gantry.core.scheduling.Outcomes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Container;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cases ported from Karpenter's scheduling suite_test.go, against its fake catalogue ({@link KarpenterFakes}). */
class KarpenterSuiteSchedulingTest {
    static final String ZONE = WellKnownLabels.ZONE;
    static final String IT = WellKnownLabels.INSTANCE_TYPE;
    static final String ARCH = WellKnownLabels.ARCH;
    static final String CT = WellKnownLabels.CAPACITY_TYPE;

    static SchedulingResult solve(Strategy s, PoolBuilder pool, Pod... pods) {
        return scenario().pods(pods).pool(KarpenterFakes.offer(pool)).solve(s);
    }

    static SchedulingResult solve(Strategy s, PoolBuilder pool, List<Pod> pods) {
        return scenario().pods(pods).pool(KarpenterFakes.offer(pool)).solve(s);
    }

    static PoolBuilder np() {
        return pool("default");
    }

    static Pod.Builder p() {
        return Pod.builder("default", "p");
    }

    static Pod.Builder p(String name) {
        return Pod.builder("default", name);
    }

    static Requirements req(String key, Operator op, String... values) {
        return Requirements.of(Requirement.of(key, op, values));
    }

    static String nodeLabel(SchedulingResult r, String key) {
        return label(claimOf(r, "p"), key);
    }

    static Pod.WeightedRequirements pref(int w, String key, Operator op, String... values) {
        return new Pod.WeightedRequirements(w, req(key, op, values));
    }

    // --- Custom Constraints: NodePool with Labels ---

    // karpenter: suite_test.go "should schedule unconstrained pods that don't have matching node selectors"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anUnconstrainedPodGetsThePoolsLabels(Strategy s) {
        var r = solve(s, np().label("test-key", "test-value"), p().build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should not schedule pods that have conflicting node selectors"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aSelectorConflictingWithAPoolLabelIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().label("test-key", "test-value"), p().nodeSelector(Map.of("test-key", "different-value")).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule pods that have node selectors with undefined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aSelectorOnAnUndefinedKeyIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np(), p().nodeSelector(Map.of("test-key", "test-value")).build()), "p");
    }

    // karpenter: suite_test.go "should schedule pods that have matching requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aRequirementMatchingAPoolLabelIsScheduled(Strategy s) {
        var r = solve(s, np().label("test-key", "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.In, "test-value", "another-value"))).build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should not schedule pods that have conflicting requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aRequirementConflictingWithAPoolLabelIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().label("test-key", "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.In, "another-value"))).build()), "p");
    }

    // --- Custom Constraints: Well Known Labels ---

    // karpenter: suite_test.go "should use NodePool constraints"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesThePoolsZone(Strategy s) {
        assertThat(nodeLabel(solve(s, np().req(ZONE, Operator.In, ZONES.get(1)), p().build()), ZONE)).isEqualTo(ZONES.get(1));
    }

    // karpenter: suite_test.go "should use node selectors"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesThePodsZoneSelectorWithinThePool(Strategy s) {
        var r = solve(s, np().req(ZONE, Operator.In, ZONES.get(0), ZONES.get(1)), p().nodeSelector(Map.of(ZONE, ZONES.get(1))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(1));
    }

    // karpenter: suite_test.go "should not schedule nodes with a hostname selector"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aHostnameSelectorIsNotScheduledOnANewNode(Strategy s) {
        assertNotScheduled(solve(s, np(), p().nodeSelector(Map.of(WellKnownLabels.HOSTNAME, "red-node")).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule the pod if nodeselector unknown"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anUnknownZoneSelectorIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().req(ZONE, Operator.In, ZONES.get(0)), p().nodeSelector(Map.of(ZONE, "unknown")).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule if node selector outside of NodePool constraints"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aZoneSelectorOutsideThePoolIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().req(ZONE, Operator.In, ZONES.get(0)), p().nodeSelector(Map.of(ZONE, ZONES.get(1))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=In"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesARequirementWithIn(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.In, ZONES.get(2)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(2));
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=Gt"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPoolRequirementWithGt(Strategy s) {
        assertThat(nodeLabel(solve(s, np().req(KarpenterFakes.INTEGER, Operator.Gt, "8"), p().build()), KarpenterFakes.INTEGER)).isEqualTo("16");
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=Lt"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPoolRequirementWithLt(Strategy s) {
        assertThat(nodeLabel(solve(s, np().req(KarpenterFakes.INTEGER, Operator.Lt, "8"), p().build()), KarpenterFakes.INTEGER)).isEqualTo("2");
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=Gte"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPoolRequirementWithGte(Strategy s) {
        assertThat(nodeLabel(solve(s, np().req(KarpenterFakes.INTEGER, Operator.Gte, "16"), p().build()), KarpenterFakes.INTEGER)).isEqualTo("16");
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=Lte"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesAPoolRequirementWithLte(Strategy s) {
        assertThat(nodeLabel(solve(s, np().req(KarpenterFakes.INTEGER, Operator.Lte, "2"), p().build()), KarpenterFakes.INTEGER)).isEqualTo("2");
    }

    // karpenter: suite_test.go "should not schedule incompatible preferences and requirements with Operator=In"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleARequirementOnAnUnknownZone(Strategy s) {
        assertNotScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.In, "unknown"))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule compatible requirements with Operator=NotIn"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesARequirementWithNotIn(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.NotIn, ZONES.get(0), ZONES.get(1), "unknown"))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(2));
    }

    // karpenter: suite_test.go "should not schedule incompatible preferences and requirements with Operator=NotIn"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleANotInExcludingEveryZone(Strategy s) {
        assertNotScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.NotIn,
                ZONES.get(0), ZONES.get(1), ZONES.get(2), "unknown"))).build()), "p");
    }

    static Requirements allZones() {
        return req(ZONE, Operator.In, ZONES.get(0), ZONES.get(1), ZONES.get(2), "unknown");
    }

    // karpenter: suite_test.go "should schedule compatible preferences and requirements with Operator=In"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aCompatiblePreferenceWithInPicksItsZone(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(allZones()))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.In, ZONES.get(1), "unknown"))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(1));
    }

    // karpenter: suite_test.go "should schedule incompatible preferences and requirements with Operator=In"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anIncompatiblePreferenceWithInIsDropped(Strategy s) {
        assertScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(allZones()))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.In, "unknown"))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule compatible preferences and requirements with Operator=NotIn"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aCompatiblePreferenceWithNotInPicksTheRemainingZone(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(allZones()))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.NotIn, ZONES.get(0), ZONES.get(2)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(1));
    }

    // karpenter: suite_test.go "should schedule incompatible preferences and requirements with Operator=NotIn"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anIncompatiblePreferenceWithNotInIsDropped(Strategy s) {
        assertScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(allZones()))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.NotIn, ZONES.get(0), ZONES.get(1), ZONES.get(2)))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule compatible node selectors, preferences and requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void combinesASelectorARequirementAndAPreference(Strategy s) {
        var r = solve(s, np(), p().nodeSelector(Map.of(ZONE, ZONES.get(2)))
                .requiredNodeAffinity(List.of(req(ZONE, Operator.In, ZONES.toArray(String[]::new))))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.In, ZONES.toArray(String[]::new)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(2));
    }

    // karpenter: suite_test.go "should combine multidimensional node selectors, preferences and requirements"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void combinesMultidimensionalSelectorsRequirementsAndPreferences(Strategy s) {
        var required = Requirements.of(Requirement.of(ZONE, Operator.In, ZONES.get(0), ZONES.get(2)),
                Requirement.of(IT, Operator.In, "default-instance-type", "arm-instance-type"));
        var preferred = Requirements.of(Requirement.of(ZONE, Operator.NotIn, "unknown"), Requirement.of(IT, Operator.NotIn, "unknown"));
        var r = solve(s, np(), p().nodeSelector(Map.of(ZONE, ZONES.get(2), IT, "arm-instance-type"))
                .requiredNodeAffinity(List.of(required)).preferredNodeAffinity(List.of(new Pod.WeightedRequirements(1, preferred))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(2));
        assertThat(nodeLabel(r, IT)).isEqualTo("arm-instance-type");
    }

    // --- Constraints Validation ---

    // karpenter: suite_test.go "should not schedule pods that have node selectors with restricted domains"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aRequirementOnARestrictedDomainNoPoolSetsIsNotScheduled(Strategy s) {
        for (String domain : List.of("kubernetes.io", "k8s.io", "karpenter.sh")) {
            var r = solve(s, np(), p().requiredNodeAffinity(List.of(req(domain + "/test", Operator.In, "test"))).build());
            assertNotScheduled(r, "p");
        }
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with label in the kubernetes domains"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPoolRequirementInTheKubernetesDomainsLabelsTheNode(Strategy s) {
        var r = solve(s, np().req("kubernetes.io/test", Operator.In, "test-value").req("k8s.io/test", Operator.In, "test-value"), p().build());
        assertThat(claimOf(r, "p").requirements().get("kubernetes.io/test").singleValue()).isEqualTo("test-value");
        assertThat(claimOf(r, "p").requirements().get("k8s.io/test").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with label in subdomain from kubernetes domains"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPoolRequirementInAKubernetesSubdomainLabelsTheNode(Strategy s) {
        var r = solve(s, np().req("subdomain.kubernetes.io/test", Operator.In, "test-value"), p().build());
        assertThat(claimOf(r, "p").requirements().get("subdomain.kubernetes.io/test").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with label in wellknown label list"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void schedulesPodsSelectingWellKnownLabels(Strategy s) {
        for (var sel : List.of(Map.of(ZONE, ZONES.get(0)), Map.of(IT, "default-instance-type"), Map.of(ARCH, "arm64"),
                Map.of(WellKnownLabels.OS, "linux"), Map.of(CT, "spot"))) {
            assertScheduled(solve(s, np(), p().nodeSelector(sel).build()), "p");
        }
    }

    // --- Scheduling Logic ---

    // karpenter: suite_test.go "should not schedule pods that have node selectors with In operator and undefined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void inOnAnUndefinedKeyIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(req("test-key", Operator.In, "test-value"))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with NotIn operator and undefined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void notInOnAnUndefinedKeyIsScheduled(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(req("test-key", Operator.NotIn, "test-value"))).build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isNull();
    }

    // karpenter: suite_test.go "should not schedule pods that have node selectors with Exists operator and undefined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void existsOnAnUndefinedKeyIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(req("test-key", Operator.Exists))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule pods that with DoesNotExists operator and undefined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotExistOnAnUndefinedKeyIsScheduled(Strategy s) {
        assertScheduled(solve(s, np(), p().requiredNodeAffinity(List.of(req("test-key", Operator.DoesNotExist))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule unconstrained pods that don't have matching node selectors" (Scheduling Logic)
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anUnconstrainedPodGetsThePoolsRequirementValue(Strategy s) {
        var r = solve(s, np().req("test-key", Operator.In, "test-value"), p().build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with matching value and In operator"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void inWithThePoolsValueIsScheduled(Strategy s) {
        assertScheduled(solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.In, "test-value"))).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule pods that have node selectors with matching value and NotIn operator"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void notInWithThePoolsOnlyValueIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.NotIn, "test-value"))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule the pod with Exists operator and defined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void existsOnADefinedKeyIsScheduled(Strategy s) {
        assertScheduled(solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.Exists))).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule the pod with DoesNotExists operator and defined key"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotExistOnADefinedKeyIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.DoesNotExist))).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule pods that have node selectors with different value and In operator"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void inWithAnotherValueIsNotScheduled(Strategy s) {
        assertNotScheduled(solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.In, "another-value"))).build()), "p");
    }

    // karpenter: suite_test.go "should schedule pods that have node selectors with different value and NotIn operator"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void notInWithAnotherValueIsScheduled(Strategy s) {
        var r = solve(s, np().req("test-key", Operator.In, "test-value"),
                p().requiredNodeAffinity(List.of(req("test-key", Operator.NotIn, "another-value"))).build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isEqualTo("test-value");
    }

    // karpenter: suite_test.go "should schedule compatible pods to the same node"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void compatiblePodsShareANode(Strategy s) {
        var r = solve(s, np().req("test-key", Operator.In, "test-value", "another-value"),
                p("a").requiredNodeAffinity(List.of(req("test-key", Operator.In, "test-value"))).build(),
                p("b").requiredNodeAffinity(List.of(req("test-key", Operator.NotIn, "another-value"))).build());
        assertThat(claimOf(r, "a")).isSameAs(claimOf(r, "b"));
    }

    // karpenter: suite_test.go "should schedule incompatible pods to the different node"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void incompatiblePodsGetDifferentNodes(Strategy s) {
        var r = solve(s, np().req("test-key", Operator.In, "test-value", "another-value"),
                p("a").requiredNodeAffinity(List.of(req("test-key", Operator.In, "test-value"))).build(),
                p("b").requiredNodeAffinity(List.of(req("test-key", Operator.In, "another-value"))).build());
        assertThat(claimOf(r, "a")).isNotSameAs(claimOf(r, "b"));
        assertThat(claimOf(r, "a").requirements().get("test-key").singleValue()).isEqualTo("test-value");
        assertThat(claimOf(r, "b").requirements().get("test-key").singleValue()).isEqualTo("another-value");
    }

    // karpenter: suite_test.go "Exists operator should not overwrite the existing value"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void existsDoesNotOverwriteAChosenValue(Strategy s) {
        var r = solve(s, np().req("test-key", Operator.In, "test-value", "another-value"),
                p().requiredNodeAffinity(List.of(Requirements.of(Requirement.of("test-key", Operator.In, "test-value"),
                        Requirement.of("test-key", Operator.Exists)))).build());
        assertThat(claimOf(r, "p").requirements().get("test-key").singleValue()).isEqualTo("test-value");
    }

    // --- Preferential Fallback ---

    // karpenter: suite_test.go "should not relax the final term"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotRelaxTheLastRequiredTerm(Strategy s) {
        assertNotScheduled(solve(s, np().req(ZONE, Operator.In, ZONES.get(0)).req(IT, Operator.In, "default-instance-type"),
                p().requiredNodeAffinity(List.of(req(ZONE, Operator.In, "invalid"))).build()), "p");
    }

    // karpenter: suite_test.go "should relax multiple terms"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void relaxesRequiredTermsInOrder(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.In, "invalid"), req(ZONE, Operator.In, "invalid"),
                req(ZONE, Operator.In, ZONES.get(0)), req(ZONE, Operator.In, ZONES.get(1)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(0));
    }

    // karpenter: suite_test.go "should relax all terms"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void relaxesEveryPreferredTerm(Strategy s) {
        assertScheduled(solve(s, np(), p().preferredNodeAffinity(List.of(pref(1, ZONE, Operator.In, "invalid"),
                pref(1, IT, Operator.In, "invalid"))).build()), "p");
    }

    // karpenter: suite_test.go "should relax to use lighter weights"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void relaxesToTheNextLighterPreference(Strategy s) {
        var r = solve(s, np().req(ZONE, Operator.In, ZONES.get(0), ZONES.get(1)), p().preferredNodeAffinity(List.of(
                pref(100, IT, Operator.In, ZONES.get(2)), pref(50, ZONE, Operator.In, ZONES.get(1)), pref(1, ZONE, Operator.In, ZONES.get(0)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(1));
    }

    // karpenter: suite_test.go "should schedule even if preference is conflicting with requirement"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPreferenceConflictingWithTheRequirementIsDropped(Strategy s) {
        var r = solve(s, np(), p().requiredNodeAffinity(List.of(req(ZONE, Operator.In, ZONES.get(2))))
                .preferredNodeAffinity(List.of(pref(1, ZONE, Operator.NotIn, ZONES.get(2)))).build());
        assertThat(nodeLabel(r, ZONE)).isEqualTo(ZONES.get(2));
    }

    // karpenter: suite_test.go "should schedule even if preference requirements are conflicting"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aSelfContradictoryPreferenceIsDropped(Strategy s) {
        var contradictory = Requirements.of(Requirement.of(ZONE, Operator.In, "invalid"), Requirement.of(ZONE, Operator.NotIn, "invalid"));
        assertScheduled(solve(s, np(), p().preferredNodeAffinity(List.of(new Pod.WeightedRequirements(1, contradictory))).build()), "p");
    }

    // --- Instance Type Compatibility ---

    // karpenter: suite_test.go "should not schedule if requesting more resources than any instance type has"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleMoreCpuThanAnyTypeHas(Strategy s) {
        assertNotScheduled(solve(s, np(), p().requests(Resources.of(512_000, 0)).build()), "p");
    }

    // karpenter: suite_test.go "should launch pods with different archs on different instances"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsOfDifferentArchesGetDifferentNodes(Strategy s) {
        var r = solve(s, np().req(ARCH, Operator.In, "amd64", "arm64"), p("a").nodeSelector(Map.of(ARCH, "amd64")).build(),
                p("b").nodeSelector(Map.of(ARCH, "arm64")).build());
        assertThat(r.newClaims()).hasSize(2);
    }

    // karpenter: suite_test.go "should exclude instance types that are not supported by the pod constraints (node affinity/instance type)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void excludesTypesThePodsAffinityRulesOut(Strategy s) {
        var r = solve(s, np().req(ARCH, Operator.In, "amd64"), p().requiredNodeAffinity(List.of(req(IT, Operator.In, "arm-instance-type"))).build());
        assertNotScheduled(r, "p");
    }

    // karpenter: suite_test.go "should exclude instance types that are not supported by the provider constraints (arch)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void excludesTypesThePoolsArchRulesOut(Strategy s) {
        var r = solve(s, np().req(ARCH, Operator.In, "amd64"), p().requests(Resources.of(14_000, 0)).build());
        assertNotScheduled(r, "p");
    }

    // karpenter: suite_test.go "should launch pods with different instance type node selectors on different instances"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsSelectingDifferentTypesGetDifferentNodes(Strategy s) {
        var r = solve(s, np(), p("a").nodeSelector(Map.of(IT, "small-instance-type")).build(),
                p("b").nodeSelector(Map.of(IT, "default-instance-type")).build());
        assertThat(r.newClaims()).hasSize(2);
    }

    // karpenter: suite_test.go "should launch pods with different zone selectors on different instances"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsSelectingDifferentZonesGetDifferentNodes(Strategy s) {
        var r = solve(s, np(), p("a").nodeSelector(Map.of(ZONE, ZONES.get(0))).build(), p("b").nodeSelector(Map.of(ZONE, ZONES.get(1))).build());
        assertThat(r.newClaims()).hasSize(2);
    }

    // karpenter: suite_test.go "should launch pods with resources that aren't on any single instance type on different instances"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsNeedingResourcesNoSingleTypeHasGetDifferentNodes(Strategy s) {
        var r = solve(s, np(), p("a").requests(Resources.ZERO.with(KarpenterFakes.GPU_A, 1)).build(),
                p("b").requests(Resources.ZERO.with(KarpenterFakes.GPU_B, 1)).build());
        assertThat(r.newClaims()).hasSize(2);
        assertThat(claimOf(r, "a").instanceType().name()).isEqualTo("gpu-vendor-instance-type");
        assertThat(claimOf(r, "b").instanceType().name()).isEqualTo("gpu-vendor-b-instance-type");
    }

    // karpenter: suite_test.go "should fail to schedule a pod with resources requests that aren't on a single instance type"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleAPodNeedingResourcesNoSingleTypeHas(Strategy s) {
        var r = solve(s, np(), p().requests(Resources.ZERO.with(KarpenterFakes.GPU_A, 1).with(KarpenterFakes.GPU_B, 1)).build());
        assertNotScheduled(r, "p");
    }

    // --- Binpacking ---

    static Pod mem(String name, long bytes) {
        return p(name).requests(Resources.of(0, bytes)).build();
    }

    // karpenter: suite_test.go "should schedule a small pod on the smallest instance"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aSmallPodGetsTheSmallestType(Strategy s) {
        assertThat(claimOf(solve(s, np(), mem("p", 100_000_000)), "p").instanceType().name()).isEqualTo("small-instance-type");
    }

    // karpenter: suite_test.go "should schedule a small pod on the smallest possible instance type"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aPodThatJustFitsTheSmallestTypeGetsIt(Strategy s) {
        assertThat(claimOf(solve(s, np(), mem("p", 2_000_000_000L)), "p").instanceType().name()).isEqualTo("small-instance-type");
    }

    // karpenter: suite_test.go "should take pod runtime class into consideration"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsThePodOverheadOfItsRuntimeClass(Strategy s) {
        var app = new Container("c", Map.of("cpu", Quantity.parse("1")), null, false, null);
        var pod = p().requests(Container.podRequests(List.of(), List.of(app), Resources.of(2000, 0))).build();
        assertThat(claimOf(solve(s, np(), pod), "p").instanceType().name()).isEqualTo("default-instance-type");
    }

    // karpenter: suite_test.go "should schedule multiple small pods on the smallest possible instance type"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fiveSmallPodsShareOneSmallNode(Strategy s) {
        var r = solve(s, np(), IntStream.range(0, 5).mapToObj(i -> mem("p" + i, 10_000_000)).toList());
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.newClaims().get(0).instanceType().name()).isEqualTo("small-instance-type");
    }

    // karpenter: suite_test.go "should create new nodes when a node is at capacity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void opensNewNodesWhenOneIsFull(Strategy s) {
        var pods = IntStream.range(0, 40).mapToObj(i -> p("p" + i).requests(Resources.of(0, 1_800_000_000L))
                .nodeSelector(Map.of(ARCH, "amd64")).build()).toList();
        var r = solve(s, np(), pods);
        assertAllScheduled(r);
        // Karpenter: 20 default-instance-type nodes, two pods each. 40 small ones (one pod each) cost the same.
        assertThat(r.totalPricePerHour()).isCloseTo(20 * (0.4 + 0.1 * 4 * (1L << 30) / 1e9), org.assertj.core.data.Offset.offset(1e-6));
    }

    // karpenter: suite_test.go "should pack small and large pods together"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void packsSmallPodsIntoTheRoomLargeOnesLeave(Strategy s) {
        List<Pod> pods = new ArrayList<>();
        IntStream.range(0, 40).forEach(i -> pods.add(p("large" + i).requests(Resources.of(0, 1_800_000_000L)).nodeSelector(Map.of(ARCH, "amd64")).build()));
        IntStream.range(0, 20).forEach(i -> pods.add(p("small" + i).requests(Resources.of(0, 400_000_000L)).nodeSelector(Map.of(ARCH, "amd64")).build()));
        var r = solve(s, np(), pods);
        assertAllScheduled(r);
        assertThat(r.totalPricePerHour()).isLessThanOrEqualTo(20 * (0.4 + 0.1 * 4 * (1L << 30) / 1e9) + 1e-6);
    }

    // karpenter: suite_test.go "should pack nodes tightly"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aLargePodAndASmallOneGetTypesOfTheirOwnSize(Strategy s) {
        var types = IntStream.range(0, 5).mapToObj(i -> KarpenterFakes.type("fake-it-" + i, "amd64", i + 1, (i + 1) * 2, (i + 1) * 10, Map.of())).toList();
        var r = scenario().pods(p("big").requests(Resources.of(4500, 0)).build(), p("small").requests(Resources.of(1000, 0)).build())
                .pool(np().offer(types)).solve(s);
        assertThat(r.newClaims()).hasSize(2);
        assertThat(claimOf(r, "big").instanceType().name()).isNotEqualTo(claimOf(r, "small").instanceType().name());
    }

    // karpenter: suite_test.go "should handle zero-quantity resource requests"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void aZeroRequestForAnUnknownResourceIsFine(Strategy s) {
        assertScheduled(solve(s, np(), p().requests(Resources.ZERO.with("foo.com/weird-resources", 0)).build()), "p");
    }

    // karpenter: suite_test.go "should not schedule pods that exceed every instance type's capacity"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleMoreMemoryThanAnyTypeHas(Strategy s) {
        assertNotScheduled(solve(s, np(), mem("p", 2L << 40)), "p");
    }

    // karpenter: suite_test.go "should create new nodes when a node is at capacity due to pod limits per node"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void opensNewNodesWhenThePodLimitIsReached(Strategy s) {
        var pods = IntStream.range(0, 25).mapToObj(i -> p("p" + i).requests(Resources.of(1, 1)).nodeSelector(Map.of(ARCH, "amd64")).build()).toList();
        var r = solve(s, np(), pods);
        assertAllScheduled(r);
        assertThat(r.newClaims()).hasSize(5).allMatch(c -> c.instanceType().name().equals("small-instance-type"));
    }

    // karpenter: suite_test.go "should take into account initContainer resource requests when binpacking"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void countsInitContainerRequestsWhenPacking(Strategy s) {
        var init = new Container("init", Map.of("cpu", Quantity.parse("2"), "memory", Quantity.parse("2Gi")), null, false, null);
        var app = new Container("app", Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("1Gi")), null, false, null);
        var pod = p().requests(Container.podRequests(List.of(init), List.of(app), null)).build();
        assertThat(claimOf(solve(s, np(), pod), "p").instanceType().name()).isEqualTo("default-instance-type");
    }

    // karpenter: suite_test.go "should not schedule pods when initContainer resource requests are greater than available instance types"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void doesNotScheduleAnInitContainerLargerThanEveryType(Strategy s) {
        var init = new Container("init", Map.of("cpu", Quantity.parse("10000"), "memory", Quantity.parse("10000Gi")), null, false, null);
        var app = new Container("app", Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("1Gi")), null, false, null);
        var pod = p().requests(Container.podRequests(List.of(init), List.of(app), null)).build();
        assertNotScheduled(solve(s, np(), pod), "p");
    }

    // karpenter: suite_test.go "should select for valid instance types, regardless of price"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void picksTheTypeThatFitsEvenIfPricier(Strategy s) {
        var cheap = KarpenterFakes.type("cheap", "amd64", 1, 1, 5, Map.of());
        var pricey = KarpenterFakes.type("pricey", "amd64", 4, 4, 5, Map.of());
        var r = scenario().pods(p().requests(Resources.of(2000, 0)).build()).pool(np().offer(List.of(cheap, pricey))).solve(s);
        assertThat(claimOf(r, "p").instanceType().name()).isEqualTo("pricey");
    }
    // --- In-Flight Nodes (each round's claims become nodes, as ExpectProvisioned launches them) ---

    static String nodeOfIn(Rounds rounds, String pod) {
        return rounds.nodes().stream().filter(n -> n.pods().stream().anyMatch(q -> q.name().equals(pod))).map(n -> n.node().name())
                .findFirst().orElse(null);
    }

    static Pod cpu(String name, long millis, Requirements affinity) {
        var b = p(name).requests(Resources.of(millis, 0));
        return (affinity == null ? b : b.requiredNodeAffinity(List.of(affinity))).build();
    }

    // karpenter: suite_test.go "should not launch a second node if there is an in-flight node that can support the pod"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesTheRoomOfANodeLaunchedForAnEarlierPod(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(cpu("first", 10, null), KarpenterFakes.offer(np()));
        rounds.provision(cpu("second", 10, null), KarpenterFakes.offer(np()));
        assertThat(nodeOfIn(rounds, "second")).isEqualTo(nodeOfIn(rounds, "first"));
    }

    // karpenter: suite_test.go "should not launch a second node if there is an in-flight node that can support the pod (node selectors)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesAnEarlierNodeOnlyWhenItsZoneIsInThePodsSelector(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(cpu("first", 10, req(ZONE, Operator.In, ZONES.get(1))), KarpenterFakes.offer(np()));
        rounds.provision(cpu("second", 10, req(ZONE, Operator.In, ZONES.get(0), ZONES.get(1))), KarpenterFakes.offer(np()));
        assertThat(nodeOfIn(rounds, "second")).isEqualTo(nodeOfIn(rounds, "first"));
        rounds.provision(cpu("third", 10, req(ZONE, Operator.In, ZONES.get(0), ZONES.get(2))), KarpenterFakes.offer(np()));
        assertThat(nodeOfIn(rounds, "third")).isNotNull().isNotEqualTo(nodeOfIn(rounds, "first"));
    }

    // karpenter: suite_test.go "should launch a second node if a pod won't fit on the existingNodes node"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesASecondNodeWhenThePodDoesNotFitTheFirst(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(cpu("first", 1001, null), KarpenterFakes.offer(np()));
        rounds.provision(cpu("second", 1000, null), KarpenterFakes.offer(np()));
        assertThat(nodeOfIn(rounds, "second")).isNotNull().isNotEqualTo(nodeOfIn(rounds, "first"));
    }

    // karpenter: suite_test.go "should launch a second node if a pod isn't compatible with the existingNodes node (node selector)"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesASecondNodeWhenThePodsSelectorExcludesTheFirst(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(cpu("first", 10, null), KarpenterFakes.offer(np()));
        rounds.provision(p("second").nodeSelector(Map.of(ARCH, "arm64")).build(), KarpenterFakes.offer(np()));
        assertThat(nodeOfIn(rounds, "second")).isNotNull().isNotEqualTo(nodeOfIn(rounds, "first"));
    }

    // karpenter: suite_test.go "should launch a second node if an in-flight node is terminating"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesASecondNodeWhenTheFirstIsBeingDeleted(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(cpu("first", 10, null), KarpenterFakes.offer(np()));
        var first = rounds.nodes().get(0);
        rounds.nodes().set(0, new SchedulingInput.ExistingNode(deleting(first.node()), first.pods()));
        var r = rounds.provision(cpu("second", 10, null), KarpenterFakes.offer(np()));
        assertThat(r.newClaims()).hasSize(1);
        assertThat(r.existingNodes()).isEmpty();
    }

    static List<Pod> fooSpread(String prefix, int n, String key) {
        var spread = new dev.gantry.core.model.TopologySpread(1, key, true, selector("foo", "bar"), null, List.of(), true, false);
        return IntStream.range(0, n).mapToObj(i -> p(prefix + i).labels(Map.of("foo", "bar")).requests(Resources.of(100, 0))
                .topologySpread(List.of(spread)).build()).toList();
    }

    // karpenter: suite_test.go "should balance pods across zones with in-flight nodes"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossZonesCountingPodsOnEarlierNodes(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(fooSpread("a", 4, ZONE), KarpenterFakes.offer(np()));
        assertThat(rounds.skew(ZONE, selector("foo", "bar")).values()).containsExactlyInAnyOrder(1L, 1L, 2L);
        int nodes = rounds.nodeCount();
        rounds.provision(fooSpread("b", 5, ZONE), KarpenterFakes.offer(np()));
        assertThat(rounds.skew(ZONE, selector("foo", "bar")).values()).containsExactly(3L, 3L, 3L);
        assertThat(rounds.nodeCount()).isEqualTo(nodes);
    }

    // karpenter: suite_test.go "should balance pods across hostnames with in-flight nodes"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void balancesAcrossHostnamesCountingPodsOnEarlierNodes(Strategy s) {
        var rounds = new Rounds(s);
        rounds.provision(fooSpread("a", 4, WellKnownLabels.HOSTNAME), KarpenterFakes.offer(np()));
        rounds.provision(fooSpread("b", 5, WellKnownLabels.HOSTNAME), KarpenterFakes.offer(np()));
        assertThat(rounds.skew(WellKnownLabels.HOSTNAME, selector("foo", "bar")).values()).containsOnly(1L);
        assertThat(rounds.nodeCount()).isEqualTo(9);
    }

    // karpenter: suite_test.go "should schedule pods with the same host port to different nodes"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void podsBindingTheSameHostPortGetDifferentNodes(Strategy s) {
        var port = List.of(new dev.gantry.core.model.HostPort(80, "TCP", null));
        var r = solve(s, np(), p("a").hostPorts(port).build(), p("b").hostPorts(port).build());
        assertThat(claimOf(r, "a")).isNotSameAs(claimOf(r, "b"));
    }

    // --- Existing Nodes ---

    // karpenter: suite_test.go "should schedule a pod to an existing node unowned by Karpenter"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void usesAnExistingNodeNoPoolLaunched(Strategy s) {
        var r = scenario().node(existing(node("unowned", ZONES.get(0), 10, 10))).pods(p().requests(Resources.of(100, 0)).build())
                .pool(KarpenterFakes.offer(np())).solve(s);
        assertThat(nodeOf(r, "p")).isEqualTo("unowned");
        assertThat(r.newClaims()).isEmpty();
    }

    // karpenter: suite_test.go "should schedule multiple pods to an existing node unowned by Karpenter"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void putsManyPodsOnAnExistingNodeNoPoolLaunched(Strategy s) {
        var pods = IntStream.range(0, 100).mapToObj(i -> p("p" + i).requests(Resources.of(1, 0)).build()).toList();
        var r = scenario().node(existing(node("unowned", ZONES.get(0), 10, 10))).pods(pods).pool(KarpenterFakes.offer(np())).solve(s);
        assertThat(r.existingNodes().get("unowned")).hasSize(100);
        assertThat(r.newClaims()).isEmpty();
    }

    // karpenter: suite_test.go "should consider a pod incompatible with an existing node but compatible with NodePool"
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void launchesForAPodTheExistingNodeCannotTakeButThePoolCan(Strategy s) {
        var r = scenario().node(existing(node("n1", ZONES.get(0), 10, 10)))
                .pods(p().requests(Resources.of(100, 0)).nodeSelector(Map.of(ZONE, ZONES.get(1))).build()).pool(KarpenterFakes.offer(np())).solve(s);
        assertThat(nodeOf(r, "p")).isNull();
        assertThat(label(claimOf(r, "p"), ZONE)).isEqualTo(ZONES.get(1));
    }
}
