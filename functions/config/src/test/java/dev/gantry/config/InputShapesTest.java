package dev.gantry.config;

import dev.gantry.config.source.SourceLocation;
import static dev.gantry.config.KarpenterAcceptsTest.CLASS;
import static dev.gantry.config.KarpenterAcceptsTest.POOL;
import static dev.gantry.config.KarpenterAcceptsTest.lines;
import static dev.gantry.config.KarpenterAcceptsTest.load;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the loader copes with real-world input: {@code kubectl get -o yaml} lists, v0.31 Provisioners that relied on
 * Karpenter's defaulting webhook, references to rejected or misspelt NodeClasses, and objects with many mistakes.
 */
class InputShapesTest {
    @Test
    void readsAKindListItemByItemWithLineNumbersIntoTheFile() {
        LoadResult r = load("""
                apiVersion: v1
                kind: List
                metadata: {resourceVersion: ""}
                items:
                - apiVersion: karpenter.k8s.aws/v1
                  kind: EC2NodeClass
                  metadata: {name: default}
                  spec:
                    amiSelectorTerms: [{alias: al2023@latest}]
                    role: KarpenterNodeRole
                    subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                    securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                - apiVersion: karpenter.sh/v1
                  kind: NodePool
                  metadata: {name: default}
                  spec:
                    weight: 500
                    template:
                      spec:
                        nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                        requirements: []
                """);
        assertThat(lines(r.errors())).containsExactly("t.yaml:17:13: NodePool/default/spec.weight: must be between 1 and 100, got 500");
        assertThat(r.nodeClasses()).hasSize(1);
        assertThat(r.object("EC2NodeClass", "default").location()).isEqualTo(new SourceLocation("t.yaml", 5, 3));
    }

    @Test
    void reportsAPresentButRejectedNodeClassAsRejectedNotAsMissing() {
        LoadResult r = ConfigLoader.loadString("t.yaml", POOL + "---\n" + CLASS + "  colour: blue\n",
                LoadOptions.STRICT);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:26:3: EC2NodeClass/default/spec.colour: unknown field \"colour\"",
                "t.yaml:8:21: NodePool/default/spec.template.spec.nodeClassRef: EC2NodeClass \"default\" has errors (see above)");
        assertThat(lines(r.warnings())).noneMatch(w -> w.contains("not in the input"));
    }

    @Test
    void pointsAMisspeltNodeClassRefAtItsNameLineWithADidYouMeanUnderStrict() {
        LoadResult r = ConfigLoader.loadString("t.yaml", POOL.replace("name: default}", "name: defualt}") + "---\n" + CLASS,
                LoadOptions.STRICT);
        assertThat(lines(r.errors())).containsExactly("t.yaml:8:74: NodePool/default/spec.template.spec.nodeClassRef.name: "
                + "EC2NodeClass \"defualt\" (group karpenter.k8s.aws) is not in the input, did you mean \"default\"?");
    }

    @Test
    void reportsEveryFieldErrorOfOneObject() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {labels: {a: b}}
                spec:
                  weight: 0
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - {key: karpenter.sh/team, operator: In, values: []}
                """);
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:3:11: NodePool/<unnamed>/metadata.name: required field is missing",
                "t.yaml:10:17: NodePool/<unnamed>/spec.template.spec.requirements[0].key: label domain \"karpenter.sh\" is restricted",
                "t.yaml:10:58: NodePool/<unnamed>/spec.template.spec.requirements[0].values: operator In needs at least one value",
                "t.yaml:5:11: NodePool/<unnamed>/spec.weight: must be between 1 and 100, got 0");
    }

    @Test
    void reportsEveryProblemOfOneSelectorTerm() {
        LoadResult r = load(CLASS.replace("- tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms",
                "- {id: sg-1, tags: {a: b}}\n  securityGroupSelectorTerms"));
        assertThat(lines(r.errors())).containsExactly(
                "t.yaml:10:12: EC2NodeClass/default/spec.subnetSelectorTerms[0].id: id cannot be combined with other fields in a term",
                "t.yaml:10:12: EC2NodeClass/default/spec.subnetSelectorTerms[0].id: 'sg-1' is not a subnet-… id");
    }

    @Test
    void appliesKarpenterV031DefaultsToABareProvisionerWithAWarningLineEach() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1alpha5
                kind: Provisioner
                metadata: {name: bare}
                spec:
                  providerRef: {name: default}
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodePools().getFirst().template().requirements()).containsExactly(
                new Requirement(WellKnownLabels.OS, Operator.In, List.of("linux"), null),
                new Requirement(WellKnownLabels.ARCH, Operator.In, List.of("amd64"), null),
                new Requirement(WellKnownLabels.CAPACITY_TYPE, Operator.In, List.of("on-demand"), null),
                new Requirement(WellKnownLabels.INSTANCE_CATEGORY, Operator.In, List.of("c", "m", "r"), null),
                new Requirement(WellKnownLabels.INSTANCE_GENERATION, Operator.Gt, List.of("2"), null));
        assertThat(lines(r.warnings())).contains(
                "t.yaml:5:3: Provisioner/bare/spec.requirements: Karpenter v0.31 default applied: kubernetes.io/os In [linux]",
                "t.yaml:5:3: Provisioner/bare/spec.requirements: Karpenter v0.31 default applied: kubernetes.io/arch In [amd64]",
                "t.yaml:5:3: Provisioner/bare/spec.requirements: Karpenter v0.31 default applied: karpenter.sh/capacity-type In [on-demand]",
                "t.yaml:5:3: Provisioner/bare/spec.requirements: Karpenter v0.31 default applied: karpenter.k8s.aws/instance-category In [c, m, r]",
                "t.yaml:5:3: Provisioner/bare/spec.requirements: Karpenter v0.31 default applied: karpenter.k8s.aws/instance-generation Gt [2]");
    }

    @Test
    void appliesOnlyTheDefaultsAProvisionerLeavesOut() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1alpha5
                kind: Provisioner
                metadata: {name: arm}
                spec:
                  providerRef: {name: default}
                  requirements:
                    - {key: beta.kubernetes.io/arch, operator: In, values: [arm64]}
                    - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m7g]}
                    - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(r.nodePools().getFirst().template().requirements()).extracting(Requirement::key).containsExactly(
                WellKnownLabels.ARCH, WellKnownLabels.INSTANCE_FAMILY, WellKnownLabels.CAPACITY_TYPE, WellKnownLabels.OS);
        assertThat(lines(r.warnings())).filteredOn(w -> w.contains("default applied")).containsExactly(
                "t.yaml:7:5: Provisioner/arm/spec.requirements: Karpenter v0.31 default applied: kubernetes.io/os In [linux]");
    }
}
