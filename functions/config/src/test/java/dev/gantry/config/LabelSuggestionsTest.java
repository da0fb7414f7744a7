package dev.gantry.config;

import static dev.gantry.config.KarpenterAcceptsTest.POOL;
import static dev.gantry.config.KarpenterAcceptsTest.lines;
import static dev.gantry.config.KarpenterAcceptsTest.load;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A mistyped well-known label key gets the key it was meant to be. */
class LabelSuggestionsTest {
    private static String requiring(String key) {
        return POOL + "        - key: " + key + "\n          operator: In\n          values: [\"m5\"]\n";
    }

    @Test
    void aMistypedRestrictedKeyIsAnErrorThatNamesTheWellKnownKey() {
        LoadResult r = load(requiring("karpenter.k8s.aws/instance-familly"));
        assertThat(lines(r.errors())).containsExactly("t.yaml:13:16: NodePool/default/spec.template.spec.requirements[1].key: "
                + "label domain \"karpenter.k8s.aws\" is restricted; did you mean \"karpenter.k8s.aws/instance-family\"?");
    }

    @Test
    void aMistypedCapacityTypeKeyNamesKarpenterSpelling() {
        LoadResult r = load(requiring("karpenter.sh/capacity_type"));
        assertThat(lines(r.errors())).singleElement().asString()
                .endsWith("label domain \"karpenter.sh\" is restricted; did you mean \"karpenter.sh/capacity-type\"?");
    }

    @Test
    void aRestrictedKeyFarFromEveryWellKnownOneGetsNoSuggestion() {
        LoadResult r = load(requiring("karpenter.k8s.aws/team"));
        assertThat(lines(r.errors())).singleElement().asString().endsWith("label domain \"karpenter.k8s.aws\" is restricted");
    }

    @Test
    void aNearMissInAnOpenDomainIsAWarningThatNamesTheWellKnownKey() {
        LoadResult r = load(requiring("topology.kubernetes.io/zones"));
        assertThat(r.errors()).isEmpty();
        assertThat(lines(r.warnings()).stream().filter(w -> w.contains("requirements[1]")).toList()).containsExactly("t.yaml:13:16: NodePool/default/spec.template.spec.requirements[1].key: "
                + "\"topology.kubernetes.io/zones\" is not a well-known label (a custom label the nodes will carry); "
                + "did you mean \"topology.kubernetes.io/zone\"?");
    }

    @Test
    void aCustomLabelIsNeitherAnErrorNorAWarning() {
        LoadResult r = load(requiring("example.com/team"));
        assertThat(r.errors()).isEmpty();
        assertThat(lines(r.warnings())).noneMatch(w -> w.contains("requirements[1]"));
    }
}
