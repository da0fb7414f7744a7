package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry validate} says so when a NodePool holds a policy Gantry does not act on, and refuses a malformed one. */
class ValidatePoolPoliciesTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata:
              name: web
              annotations:
                gantry.dev/consolidation-min-savings: "%s"
            spec:
              template:
                metadata:
                  annotations: {example.com/team: web}
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements: []
              disruption:
                consolidationPolicy: WhenEmptyOrUnderutilized
                consolidateAfter: 1m
                budgets:
                  - {nodes: "10%%", reasons: [Underutilized, Drifted]}
            """;

    @Test
    void aPoolWithTemplateAnnotationsAMinimumSavingAndADriftBudgetValidatesWithoutAWarningOnThem(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pool.yaml");
        Files.writeString(f, POOL.formatted("0.02"));
        assertThat(run("validate", f.toString())).as(err.toString()).isZero();
        assertThat(err.toString().lines()).as("template annotations are put on the nodes").singleElement().asString()
                .contains("EC2NodeClass \"default\" (group karpenter.k8s.aws) is not in the input");
        assertThat(err.toString()).as("drift is replaced now: the Drifted reason limits it").doesNotContain("Drifted reason");
        assertThat(out.toString()).contains("NodePool/web");
    }

    @Test
    void aMalformedMinimumSavingExitsTwoWithOneLine(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pool.yaml");
        Files.writeString(f, POOL.formatted("a lot"));
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines().filter(l -> !l.startsWith("warning: "))).containsExactly(
                f + ":6:43: NodePool/web/metadata.annotations.gantry.dev/consolidation-min-savings: 'a lot' is not a "
                        + "minimum saving: write $/h per disrupted node (0.05) or a percentage of the removed nodes' price (10%)");
    }
}
