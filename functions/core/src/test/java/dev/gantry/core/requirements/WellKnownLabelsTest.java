package dev.gantry.core.requirements;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WellKnownLabelsTest {

    @ParameterizedTest
    @CsvSource({
            "eks.amazonaws.com/instance-category,       karpenter.k8s.aws/instance-category",
            "eks.amazonaws.com/instance-generation,     karpenter.k8s.aws/instance-generation",
            "eks.amazonaws.com/instance-cpu,            karpenter.k8s.aws/instance-cpu",
            "eks.amazonaws.com/instance-family,         karpenter.k8s.aws/instance-family",
            "eks.amazonaws.com/instance-gpu-name,       karpenter.k8s.aws/instance-gpu-name",
            "beta.kubernetes.io/arch,                   kubernetes.io/arch",
            "beta.kubernetes.io/os,                     kubernetes.io/os",
            "beta.kubernetes.io/instance-type,          node.kubernetes.io/instance-type",
            "failure-domain.beta.kubernetes.io/zone,    topology.kubernetes.io/zone",
            "failure-domain.beta.kubernetes.io/region,  topology.kubernetes.io/region",
    })
    void normalizesAliasesOntoKarpentersSpelling(String alias, String canonical) {
        assertThat(WellKnownLabels.normalize(alias)).isEqualTo(canonical);
        assertThat(WellKnownLabels.isAlias(alias)).isTrue();
        assertThat(WellKnownLabels.normalize(canonical)).isEqualTo(canonical);
        assertThat(WellKnownLabels.isAlias(canonical)).isFalse();
    }

    @Test
    void leavesOtherKeysAlone() {
        assertThat(WellKnownLabels.normalize("eks.amazonaws.com/compute-type")).isEqualTo("eks.amazonaws.com/compute-type");
        assertThat(WellKnownLabels.normalize("example.com/team")).isEqualTo("example.com/team");
        assertThat(WellKnownLabels.normalize("karpenter.sh/capacity-type")).isEqualTo(WellKnownLabels.CAPACITY_TYPE);
    }

    @Test
    void spellsTheWellKnownLabelsAsKarpenterDoes() {
        assertThat(WellKnownLabels.NODEPOOL).isEqualTo("karpenter.sh/nodepool");
        assertThat(WellKnownLabels.ZONE_ID).isEqualTo("topology.k8s.aws/zone-id");
        assertThat(WellKnownLabels.INSTANCE_ENCRYPTION_IN_TRANSIT).isEqualTo("karpenter.k8s.aws/instance-encryption-in-transit-supported");
        assertThat(WellKnownLabels.WELL_KNOWN).contains(WellKnownLabels.INSTANCE_CATEGORY, WellKnownLabels.ARCH, WellKnownLabels.CAPACITY_TYPE);
        assertThat(WellKnownLabels.OFFERING_LABELS).containsExactlyInAnyOrder(
                WellKnownLabels.ZONE, WellKnownLabels.CAPACITY_TYPE, WellKnownLabels.ZONE_ID);
    }

    @Test
    void anAutoModeAffinityMeetsAKarpenterNodePoolOnOneKey() {
        Requirements pod = Requirements.of(Requirement.of("eks.amazonaws.com/instance-category", Operator.In, "t", "m"));
        Requirements pool = Requirements.of(Requirement.of(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, "c", "t"));
        Requirements both = pod.intersect(pool);
        assertThat(both.keys()).containsExactly(WellKnownLabels.INSTANCE_CATEGORY);
        assertThat(both.get(WellKnownLabels.INSTANCE_CATEGORY)).isEqualTo(ValueSet.in("t"));
        assertThat(both.get("eks.amazonaws.com/instance-category")).isEqualTo(ValueSet.in("t"));
        assertThat(pod.conflict(Requirements.of(Requirement.of(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, "r"))))
                .isEqualTo(WellKnownLabels.INSTANCE_CATEGORY);
    }

    @Test
    void betaLabelsInNodeLabelsAreNormalizedToo() {
        Requirements node = Requirements.fromLabels(Map.of("beta.kubernetes.io/arch", "arm64"));
        assertThat(node.get(WellKnownLabels.ARCH)).isEqualTo(ValueSet.in("arm64"));
        assertThat(node.has("beta.kubernetes.io/arch")).isTrue();
    }
}
