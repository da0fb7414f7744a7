package dev.gantry.config;

import dev.gantry.config.source.Diagnostic;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nothing in a NodePool is ignored without a word: a policy Gantry does not act on is reported where it is written
 * ({@code file:line:column: NodePool/name/field: message}), and one it does act on is not.
 */
class PoolPoliciesTest {
    private static final String CLASS = KarpenterAcceptsTest.CLASS + "---\n";

    private static LoadResult load(String yaml) {
        return ConfigLoader.loadString("t.yaml", CLASS + yaml, LoadOptions.STRICT);
    }

    private static List<String> lines(List<Diagnostic> ds) {
        return ds.stream().map(Diagnostic::toString).toList();
    }

    /** Line numbers below count from the NodePool's first line; the NodeClass before it takes this many. */
    private static final int OFFSET = (int) CLASS.lines().count();

    private static String at(int line, int column) {
        return "t.yaml:" + (OFFSET + line) + ":" + column + ": ";
    }

    @Test
    void aPoolUsingEveryPolicyGantryHonoursLoadsWithoutAWord() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: default
                  annotations:
                    gantry.dev/consolidation-min-savings: "10%"
                spec:
                  weight: 10
                  limits: {cpu: "1000"}
                  template:
                    metadata:
                      labels: {team: web}
                      annotations: {karpenter.sh/do-not-disrupt: "true"}
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      expireAfter: 720h
                      terminationGracePeriod: 48h
                      taints: [{key: dedicated, value: web, effect: NoSchedule}]
                      startupTaints: [{key: example.com/agent, effect: NoSchedule}]
                      requirements:
                        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5, m6i, c6i], minValues: 2}
                  disruption:
                    consolidationPolicy: Balanced
                    consolidateAfter: 5m
                    budgets:
                      - nodes: "20%"
                        reasons: [Empty, Underutilized]
                      - nodes: "0"
                        schedule: "0 9 * * mon-fri"
                        duration: 8h
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
    }

    /**
     * Template annotations reach the pool's nodes (the sweep sets them at registration), so none is reported as
     * ignored, as every one but do-not-disrupt was before.
     */
    @Test
    void templateAnnotationsAreReadWithoutAWarning() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: default}
                spec:
                  template:
                    metadata:
                      annotations:
                        example.com/team: web
                        karpenter.sh/do-not-disrupt: "true"
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: []
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        assertThat(r.nodePools().getFirst().template().annotations())
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("example.com/team", "web", "karpenter.sh/do-not-disrupt", "true"));
    }

    /**
     * Karpenter's CRD takes any key, but the API server refuses a Node (or NodeClaim) carrying one that is not a
     * qualified name, so such a pool's nodes would never register: an error at the key, as for a label.
     */
    @Test
    void aTemplateAnnotationKeyTheApiServerWouldRefuseIsAnErrorAtTheKey() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: default}
                spec:
                  template:
                    metadata:
                      annotations:
                        example.com/team: web
                        "team owner": platform
                        Example.com/x: "1"
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: []
                """);
        assertThat(lines(r.errors())).containsExactly(
                at(9, 9) + "NodePool/default/spec.template.metadata.annotations.team owner: 'team owner' is not a valid "
                        + "annotation key (name part: up to 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric)",
                at(10, 9) + "NodePool/default/spec.template.metadata.annotations.Example.com/x: 'Example.com/x' is not a "
                        + "valid annotation key: prefix 'Example.com' is not a DNS subdomain");
        assertThat(r.nodePools()).isEmpty();
    }

    @Test
    void aDriftedBudgetReasonIsReadWithoutAWarningNowThatDriftIsReplaced() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: default}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: []
                  disruption:
                    consolidationPolicy: WhenEmptyOrUnderutilized
                    consolidateAfter: 0s
                    budgets:
                      - nodes: "1"
                        reasons: [Drifted]
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).isEmpty();
        assertThat(r.nodePools().getFirst().disruption().budgets().getFirst().reasons())
                .containsExactly(dev.gantry.core.model.NodePool.Reason.Drifted);
    }

    @Test
    void aMinimumSavingThatIsNotAnAmountOrPercentageIsAnError() {
        for (String bad : List.of("cheap", "-0.05", "5$", "1e3", "")) {
            LoadResult r = load("""
                    apiVersion: karpenter.sh/v1
                    kind: NodePool
                    metadata:
                      name: default
                      annotations:
                        gantry.dev/consolidation-min-savings: "%s"
                    spec:
                      template:
                        spec:
                          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                          requirements: []
                    """.formatted(bad));
            assertThat(lines(r.errors())).as(bad).containsExactly(at(6, 43)
                    + "NodePool/default/metadata.annotations.gantry.dev/consolidation-min-savings: '" + bad
                    + "' is not a minimum saving: write $/h per disrupted node (0.05) or a percentage of the removed nodes' price (10%)");
        }
    }

    @Test
    void aRebalanceSettingOtherThanTrueFalseOrReplaceIsAnErrorAtItsValue() {
        // Gantry's own annotation (aws/karpenter-provider-aws#2813: Karpenter only records an Event).
        String pool = """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: default
                  annotations:
                    gantry.dev/rebalance: "%s"
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: []
                """;
        for (String ok : List.of("true", "false", "replace")) {
            assertThat(lines(load(pool.formatted(ok)).errors())).as(ok).isEmpty();
        }
        assertThat(lines(load(pool.formatted("yes")).errors())).containsExactly(at(6, 27)
                + "NodePool/default/metadata.annotations.gantry.dev/rebalance: 'yes' is not a rebalance setting: \"true\" "
                + "replaces a node on an EC2 rebalance recommendation, \"false\" (or no annotation) only records an Event");
    }

    @Test
    void aMinimumSavingAboveAHundredPercentIsAnError() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: default
                  annotations: {gantry.dev/consolidation-min-savings: "150%"}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements: []
                """);
        assertThat(lines(r.errors())).singleElement().asString().contains("more than all it removes");
    }

    @Test
    void aMinimumSavingInDollarsOrPercentIsAccepted() {
        for (String ok : List.of("0.05", "0", "10%", "2.5%", ".5")) {
            LoadResult r = load("""
                    apiVersion: karpenter.sh/v1
                    kind: NodePool
                    metadata:
                      name: default
                      annotations: {gantry.dev/consolidation-min-savings: "%s"}
                    spec:
                      template:
                        spec:
                          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                          requirements: []
                    """.formatted(ok));
            assertThat(lines(r.errors())).as(ok).isEmpty();
            assertThat(lines(r.warnings())).as(ok).isEmpty();
        }
    }

    @Test
    void aProvisionersAnnotationsAreItsTemplatesToo() {
        LoadResult r = load("""
                apiVersion: karpenter.sh/v1alpha5
                kind: Provisioner
                metadata: {name: default}
                spec:
                  providerRef: {name: default}
                  consolidation: {enabled: true}
                  annotations: {example.com/owner: web}
                """);
        assertThat(lines(r.errors())).isEmpty();
        assertThat(lines(r.warnings())).noneMatch(w -> w.contains("spec.annotations"));
        assertThat(r.nodePools().getFirst().template().annotations()).containsEntry("example.com/owner", "web");
    }
}
