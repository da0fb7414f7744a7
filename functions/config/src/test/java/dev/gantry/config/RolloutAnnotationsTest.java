package dev.gantry.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.source.Diagnostic;
import dev.gantry.core.disruption.drift.rollout.RolloutPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gantry's own: an EC2NodeClass's AMI rollout annotations ({@code gantry.dev/drift-canary}, {@code gantry.dev/drift-soak})
 * are read with the rest of the object, and a bad value is an error at its line and column.
 */
class RolloutAnnotationsTest {
    private static LoadResult load(String canary, String soak) {
        String yaml = """
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata:
                  name: default
                  annotations:
                    gantry.dev/drift-canary: "%s"
                    gantry.dev/drift-soak: "%s"
                spec:
                  amiSelectorTerms:
                    - alias: al2023@latest
                  role: KarpenterNodeRole
                  subnetSelectorTerms:
                    - tags: {karpenter.sh/discovery: demo}
                  securityGroupSelectorTerms:
                    - tags: {karpenter.sh/discovery: demo}
                ---
                """.formatted(canary, soak) + KarpenterAcceptsTest.POOL;
        return ConfigLoader.loadString("t.yaml", yaml, LoadOptions.STRICT);
    }

    private static List<String> lines(List<Diagnostic> ds) {
        return ds.stream().map(Diagnostic::toString).toList();
    }

    @Test
    void aCanaryPercentageAndASoakAreReadIntoTheNodeClass() {
        LoadResult r = load("10%", "30m");
        assertThat(lines(r.errors())).isEmpty();
        RolloutPolicy p = RolloutPolicy.of(r.nodeClasses().getFirst().annotations());
        assertThat(p.canaries(50)).isEqualTo(5);
        assertThat(p.soak()).isEqualTo(Duration.ofMinutes(30));
    }

    /**
     * Regression: an EKS Auto Mode NodeClass dropped its annotations, so its rollout settings were ignored and, worse,
     * {@code gantry.dev/drift-resume} could not resume a paused rollout of its {@code bottlerocket@latest} images. They
     * are read and checked as on an EC2NodeClass.
     */
    @Test
    void anAutoModeNodeClassKeepsItsRolloutAnnotationsAndTheyAreChecked() {
        String yaml = """
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata:
                  name: default
                  annotations:
                    gantry.dev/drift-canary: "%s"
                    gantry.dev/drift-resume: ami-0abc
                spec:
                  subnetSelectorTerms: [{id: subnet-0abc}]
                  securityGroupSelectorTerms: [{id: sg-0abc}]
                """;
        LoadResult r = ConfigLoader.loadString("t.yaml", yaml.formatted("10%"), LoadOptions.STRICT);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodeClasses().getFirst().annotations()).containsEntry(RolloutPolicy.RESUME, "ami-0abc");
        assertThat(RolloutPolicy.of(r.nodeClasses().getFirst().annotations()).canaries(50)).isEqualTo(5);
        LoadResult bad = ConfigLoader.loadString("t.yaml", yaml.formatted("ten"), LoadOptions.STRICT);
        assertThat(lines(bad.errors())).singleElement().asString()
                .startsWith("t.yaml:6:30: NodeClass/default/metadata.annotations.gantry.dev/drift-canary: 'ten' is not a canary wave");
    }

    @Test
    void badValuesAreErrorsAtTheirLineAndColumn() {
        LoadResult r = load("ten", "15 minutes");
        assertThat(lines(r.errors())).startsWith(
                "t.yaml:6:30: EC2NodeClass/default/metadata.annotations.gantry.dev/drift-canary: 'ten' is not a canary wave: "
                        + "write a node count (1) or a percentage of the class's nodes (10%)",
                "t.yaml:7:28: EC2NodeClass/default/metadata.annotations.gantry.dev/drift-soak: '15 minutes' is not a soak time: "
                        + "write a duration such as 15m, 1h or 90s");
    }
}
