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

/** {@code gantry validate} run in-process, with its output captured. */
class ValidateCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void acceptsEverySampleWithOneLinePerObject() {
        int code = run("validate", "../../samples/");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains(
                "NodePool/default (converted from karpenter.sh/v1alpha5 Provisioner): 7 instance types (t3a.2xlarge, t3a.large, t3a.medium, t3a.micro, t3a.nano, …)",
                "EC2NodeClass/default (converted from karpenter.k8s.aws/v1beta1 EC2NodeClass)",
                "NodeClass/default (eks.amazonaws.com/v1)",
                "Deployment/nginx (apps/v1): 3 pods",
                "NodePool/gpu (karpenter.sh/v1): 47 instance types (g4dn.12xlarge, g4dn.16xlarge, g4dn.2xlarge, g4dn.4xlarge, g4dn.8xlarge, …)");
        assertThat(out.toString().lines().filter(l -> l.startsWith("NodePool/") || l.contains("NodeClass/"))).hasSize(51); // with the reservation pool, the consolidation samples', the scale scenarios', the labelled pools, the migration pool, the drift pools (drift-200 too), the four cost pools, the health pools, the static pool, seed 002 with rebalance and the GPU pool
        assertThat(out.toString()).contains("Scenario/quickstart (gantry simulate)");
        assertThat(err.toString().lines()).allMatch(l -> l.startsWith("warning: "));
    }

    /**
     * A root volume smaller than the image's root snapshot: EC2 refuses the launches (aws/karpenter-provider-aws#2400,
     * #7928), which Karpenter finds out only at launch time. A warning at the volumeSize, exit 0.
     */
    @Test
    void warnsWhereARootVolumeIsSmallerThanTheSnapshotOfTheImagesTheAliasLaunches(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("gpu.yaml");
        Files.writeString(f, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: gpu}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: bottlerocket}
                      requirements:
                        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g5, m6i]}
                ---
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: web}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: small}
                      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
                ---
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: bottlerocket}
                spec:
                  role: KarpenterNodeRole
                  amiSelectorTerms: [{alias: bottlerocket@latest}]
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
                  blockDeviceMappings:
                    - deviceName: /dev/xvda
                      ebs: {volumeSize: 2Gi, volumeType: gp3}
                    - deviceName: /dev/xvdb
                      ebs: {volumeSize: 20Gi, volumeType: gp3}
                ---
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata: {name: small}
                spec:
                  role: KarpenterNodeRole
                  amiSelectorTerms: [{alias: al2023@latest}]
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
                  blockDeviceMappings:
                    - deviceName: /dev/xvda
                      ebs: {volumeSize: 10Gi, volumeType: gp3}
                """);
        int code = run("validate", f.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString().lines()).containsExactly(
                "warning: " + f + ":30:25: EC2NodeClass/bottlerocket/spec.blockDeviceMappings[0].ebs.volumeSize: a 2 GiB root "
                        + "volume: EC2 refuses the launches of NodePool gpu's GPU types (g5.12xlarge, g5.16xlarge, g5.24xlarge "
                        + "and 5 more): they launch on Bottlerocket's NVIDIA image, whose root snapshot is 4 GB (expect size >= 4GB)",
                "warning: " + f + ":44:25: EC2NodeClass/small/spec.blockDeviceMappings[0].ebs.volumeSize: a 10 GiB root volume: "
                        + "EC2 refuses every launch: the AL2023 images' root snapshot is 20 GiB (expect size >= 20GB)");
    }

    @Test
    void reportsErrorsOneLinePerProblemWithExitTwo(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: p}
                spec:
                  weight: 500
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: missing}
                      requirements:
                        - {key: kubernetes.io/arch, operater: In, values: [arm64]}
                """);
        int code = run("validate", "--strict", f.toString());
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).containsExactly(
                f + ":10:37: NodePool/p/spec.template.spec.requirements[0].operater: unknown field \"operater\", did you mean \"operator\"?",
                f + ":5:11: NodePool/p/spec.weight: must be between 1 and 100, got 500");
    }

    @Test
    void strictRejectsANodeClassRefToNothing(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pool.yaml");
        Files.writeString(f, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: p}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: missing}
                      requirements: []
                """);
        assertThat(run("validate", "--strict", f.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(f + ":7:21: NodePool/p/spec.template.spec.nodeClassRef: "
                + "EC2NodeClass \"missing\" (group karpenter.k8s.aws) is not in the input");
    }

    @Test
    void reportsAVersionedNodeClassRefGroupOnItsLineRatherThanAsNoInstanceType(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pool.yaml");
        Files.writeString(f, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: p}
                spec:
                  template:
                    spec:
                      nodeClassRef:
                        group: karpenter.k8s.aws/v1
                        kind: EC2NodeClass
                        name: default
                      requirements: []
                """);
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(f + ":8:16: NodePool/p/spec.template.spec.nodeClassRef.group: "
                + "'karpenter.k8s.aws/v1' is not an API group: a group has no '/' (write karpenter.k8s.aws, without the version)");
    }

    @Test
    void saysInOneLineWhenAFileIsNotYaml(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("binary.yaml");
        Files.write(f, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(err.toString()).isEqualTo(f + ":1:1: not YAML: the file is not UTF-8 text" + System.lineSeparator());
    }

    @Test
    void reportsAPoolThatNoCatalogueTypeSatisfies(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pool.yaml");
        Files.writeString(f, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: p}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: c}
                      requirements:
                        - {key: kubernetes.io/arch, operator: In, values: [arm64]}
                        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [t3a]}
                """);
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(err.toString().lines().filter(l -> !l.startsWith("warning: "))).singleElement().asString()
                .startsWith(f + ":10:11: NodePool/p/spec.template.spec.requirements[1]: no instance type in the catalogue "
                        + "satisfies the requirements; requirement karpenter.k8s.aws/instance-family In [t3a] left none of ");
    }

    @Test
    void everyCommandHasHelp() {
        assertThat(run("validate", "--help")).isZero();
        assertThat(out.toString()).contains("--strict", "--region", "--zones");
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("validate");
    }

    @Test
    void describesTheCatalogueWithItsExcludedTypes() {
        int code = run("validate", "--catalogue");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("catalogue us-east-1: 1363 instance types, 53 excluded for lack of vCPU, memory or architecture data: ")
                .contains("mac1.metal", "c7g-flex.large")
                .contains("retired by AWS (not on Karpenter v1.14's instance-types page), left out: 19: ")
                .contains("g3.4xlarge", "p2.xlarge");
    }

    @Test
    void asksForAFileWhenGivenNothing() {
        assertThat(run("validate")).isEqualTo(2);
        assertThat(err.toString()).contains("give at least one FILE or DIR");
    }

    @Test
    void anEmptyDirectoryIsNotSuccessItSaysWhatWasRead(@TempDir Path dir) {
        assertThat(run("validate", dir.toString())).isEqualTo(2);
        assertThat(out.toString().lines()).containsExactly("0 objects in 0 files");
        assertThat(err.toString().lines()).containsExactly("gantry validate: nothing to validate: 0 objects in 0 files (" + dir + ")");
    }

    @Test
    void anEmptyFileIsNotSuccess(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("empty.yaml"), "# nothing here\n");
        assertThat(run("validate", f.toString())).isEqualTo(2);
        assertThat(out.toString().lines()).containsExactly("0 objects in 1 file");
    }

    @Test
    void aGoodRunEndsWithWhatWasRead() {
        assertThat(run("validate", "../../samples/nodepools/seed001-v1.yaml")).isZero();
        assertThat(out.toString().lines()).last().isEqualTo("2 objects in 1 file");
    }

    @Test
    void aRegionThatIsNotAwssIsRefused() {
        assertThat(run("validate", "--region", "mars-west-1", "../../samples/nodepools/seed001-v1.yaml")).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry validate: --region: 'mars-west-1' is not an AWS region");
    }
}
