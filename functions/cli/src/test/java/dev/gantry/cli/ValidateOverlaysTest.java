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

/**
 * {@code gantry validate} on NodeOverlays: the reader's file:line:column errors, a same-weight conflict as an error at
 * the overlay (Karpenter v1.14.1 kubernetes-sigs/karpenter {@code pkg/controllers/nodeoverlay/controller.go}: the
 * conflicting overlay gets ValidationSucceeded=False and is not applied), and what happens offline to a preview type.
 */
class ValidateOverlaysTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    static final String POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: default}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec:
              amiSelectorTerms: [{alias: al2023@latest}]
              role: KarpenterNodeRole
              subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
              securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
            """;

    static String overlay(String name, String body) {
        return "---\napiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: {name: " + name + "}\nspec:\n" + body.indent(2);
    }

    @Test
    void aValidOverlayIsListed(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("o.yaml");
        Files.writeString(f, POOL + overlay("graviton", """
                requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]
                priceAdjustment: "-20%"
                weight: 10
                """));
        assertThat(run("validate", f.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("NodeOverlay/graviton (karpenter.sh/v1alpha1)");
    }

    @Test
    void aBadFieldIsReportedAtItsLine(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("o.yaml");
        Files.writeString(f, POOL + overlay("cpu", """
                requirements: []
                capacity: {cpu: "2"}
                """));
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(f + ":24:14: NodeOverlay/cpu/spec.capacity.cpu: invalid resource restricted");
    }

    @Test
    void aSameWeightConflictIsAnErrorAtTheOverlay(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("o.yaml");
        Files.writeString(f, POOL + overlay("a", "requirements: []\nprice: \"0.1\"\nweight: 5\n")
                + overlay("b", "requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]\nprice: \"0.2\"\nweight: 5\n"));
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(err.toString()).containsPattern(java.util.regex.Pattern.quote(f.toString()) + ":\\d+:\\d+: NodeOverlay/a/spec: "
                + "not applied: conflicts with another overlay of weight 5 on the price of ");
        assertThat(err.toString()).doesNotContain("NodeOverlay/b");
    }

    @Test
    void offlineAPreviewTypeTheCatalogueLacksIsAWarning(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("o.yaml");
        Files.writeString(f, POOL + overlay("preview", """
                requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m99g.large]}]
                price: "0.05"
                """));
        assertThat(run("validate", f.toString())).as(err.toString()).isZero();
        assertThat(err.toString()).contains("NodeOverlay/preview/spec.requirements: preview instance type m99g.large is not in "
                + "the built-in catalogue: offline its shape is unknown and the overlay enables nothing");
    }
}
