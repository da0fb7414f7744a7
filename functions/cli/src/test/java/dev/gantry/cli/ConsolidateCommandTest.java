package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.DumpPod;
import dev.gantry.testing.dumps.KubeDump;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry consolidate} run in-process on the sample cluster dump and on dumps written for the case. */
class ConsolidateCommandTest {
    private static final String POOLS = "../../samples/nodepools/seed001-v1.yaml";
    private static final String CLUSTER = "../../samples/clusters/underutilized.yaml";
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private JsonNode json() throws IOException {
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void removesTheIdleWebNodeAndSaysWhyTheOthersStay() throws IOException {
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        JsonNode cmd = doc.get("command");
        assertThat(cmd.get("remove")).extracting(n -> n.get("node").asText()).containsExactly("ip-10-0-1-10");
        assertThat(cmd.get("remove").get(0).get("instanceType").asText()).isEqualTo("m5.2xlarge");
        assertThat(cmd.get("remove").get(0).get("capacityType").asText()).isEqualTo("on-demand");
        assertThat(cmd.get("launch")).isEmpty();
        assertThat(cmd.get("destinations").size()).isEqualTo(2);
        assertThat(doc.get("pricePerHourAfter").asDouble()).isLessThan(doc.get("pricePerHourBefore").asDouble());
        // The sample is as kubectl prints it: the decision is as of its nodes' latest heartbeat.
        assertThat(doc.get("decidedAt").asText()).isEqualTo(DumpNode.NOW.minusSeconds(40).toString());
        assertThat(doc.get("stay").toString())
                .contains("pdb \\\"default/db\\\" prevents pod evictions")
                .contains("karpenter.sh/do-not-disrupt");
    }

    @Test
    void theTableNamesTheRemovedNodeItsTypeAndCapacityTypeAndThePrices() {
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER);
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("remove  ip-10-0-1-10 +m5.2xlarge on-demand us-east-1a +\\$0.3840/h")
                .contains("$/h before 1.0560, after 0.6720").contains("Nodes that stay:").contains("ip-10-0-1-12")
                .contains("DisruptionBlocked");
    }

    @Test
    void aNodeLeftForTheNextRoundSaysSoAndPointsToUntilSettled() {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER)).isZero();
        assertThat(out.toString()).doesNotContain("not considered this round")
                .containsPattern("ip-10-0-1-11 +Unconsolidatable: waits for the next round")
                .contains("`gantry consolidate --until-settled` shows what happens next");
    }

    @Test
    void untilSettledPrintsEachStepAndWhereItEnds() throws IOException {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--until-settled")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("gantry: ").contains("SINGLE_NODE").contains("remove ip-10-0-1-10 (m5.2xlarge on-demand us-east-1a)")
                .containsPattern("settled: \\d+ nodes, \\$/h 1.0560 -> ").contains("nodes by type: ").contains("(LP bound)").contains("(packing bound)");
        out.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--until-settled", "--output", "json")).isZero();
        JsonNode doc = json();
        assertThat(doc.get("strategy").asText()).isEqualTo("gantry");
        assertThat(doc.get("steps")).isNotEmpty();
        JsonNode first = doc.get("steps").get(0);
        assertThat(first.get("remove").get("ip-10-0-1-10").asText()).isEqualTo("m5.2xlarge on-demand us-east-1a");
        JsonNode settled = doc.get("settled");
        assertThat(settled.get("pricePerHourAfter").asDouble()).isLessThan(settled.get("pricePerHourBefore").asDouble());
        assertThat(settled.get("poolNodesPricePerHour").asDouble()).isGreaterThanOrEqualTo(settled.get("packingBoundPerHour").asDouble() - 1e-9);
        assertThat(settled.get("packingBoundPerHour").asDouble()).isGreaterThanOrEqualTo(settled.get("lpBoundPerHour").asDouble() - 1e-9);
    }

    @Test
    void compareKarpenterRunsBothToWhereTheySettleSideBySide() throws IOException {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--compare", "karpenter")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("gantry: ").contains("karpenter: ").containsPattern("\\$/h settled +[0-9.]+ +[0-9.]+")
                .contains("pools ÷ packing bound");
        out.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--compare", "karpenter", "--output", "json")).isZero();
        assertThat(json().get("runs")).extracting(r -> r.get("strategy").asText()).containsExactly("gantry", "karpenter");
    }

    @Test
    void theSameDumpAsJsonDecidesTheSame(@TempDir Path dir) throws IOException {
        KubeDump dump = new KubeDump().add(DumpNode.named("a").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("web-1").on("a").requests("1", "2Gi"))
                .add(DumpNode.named("b").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("api-1").on("b").requests("2", "4Gi"));
        Path yaml = dump.writeYaml(dir.resolve("c.yaml"));
        Path json = dump.writeJson(dir.resolve("c.json"));
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", yaml.toString(), "--output", "json")).isZero();
        String fromYaml = out.toString().replaceAll("\"decisionMillis\" : \\d+", "");
        out.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", json.toString(), "--output", "json")).isZero();
        assertThat(out.toString().replaceAll("\"decisionMillis\" : \\d+", "")).isEqualTo(fromYaml);
    }

    @Test
    void aClusterWithNothingToGainKeepsEveryNode(@TempDir Path dir) throws IOException {
        // api on the cheapest type that holds its pods, db held by its budget, the batch node by its annotation.
        KubeDump dump = new KubeDump()
                .add(DumpNode.named("api").type("c6a.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("api-1").on("api").requests("2", "4Gi")).add(DumpPod.named("api-2").on("api").requests("2", "4Gi"))
                .add(DumpPod.named("api-3").on("api").requests("2", "4Gi"))
                .add(DumpNode.named("batch").type("m5.large").pool("seed001-general-purpose"))
                .add(DumpPod.named("batch-1").owner("Job", "batch").on("batch").requests("500m", "1Gi").doNotDisrupt("true"));
        Path file = dump.writeYaml(dir.resolve("cluster.yaml"));
        int code = run("consolidate", "--nodepools", POOLS, "--cluster", file.toString(), "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("command").isNull()).as(out.toString()).isTrue();
        assertThat(doc.get("stay")).hasSize(2);
        assertThat(doc.get("stay").toString()).contains("Can't replace with a cheaper node");
    }

    /** A PodTemplate of {@code cpu}/{@code memory} and a CapacityBuffer of {@code replicas} chunks of it. */
    static String buffer(String cpu, String memory, int replicas) {
        return """
                apiVersion: v1
                kind: PodTemplate
                metadata: {name: warm, namespace: default}
                template:
                  spec:
                    containers:
                      - name: pause
                        image: registry.k8s.io/pause:3.10
                        resources: {requests: {cpu: "%s", memory: %s}}
                ---
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: warm, namespace: default}
                spec:
                  podTemplateRef: {name: warm}
                  replicas: %d
                """.formatted(cpu, memory, replicas);
    }

    @Test
    void theConfigurationsBuffersKeepTheRoomOfTheNodesThatHoldThem(@TempDir Path dir) throws IOException {
        // Two m5.2xlarge, 3 vCPU of pods between them: without headroom one goes. Two chunks of 7 vCPU need both.
        KubeDump dump = new KubeDump().add(DumpNode.named("a").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("web-1").on("a").requests("500m", "1Gi"))
                .add(DumpNode.named("b").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("api-1").on("b").requests("500m", "1Gi"));
        Path cluster = dump.writeYaml(dir.resolve("c.yaml"));
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", cluster.toString(), "--output", "json")).isZero();
        assertThat(json().get("command").get("remove")).hasSize(1);
        assertThat(err.toString()).doesNotContain("headroom");

        Path buffers = Files.writeString(dir.resolve("buffers.yaml"), buffer("7", "20Gi", 2));
        out.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--nodepools", buffers.toString(), "--cluster", cluster.toString(),
                "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("command").isNull()).as(out.toString()).isTrue();
        assertThat(err.toString()).contains("gantry consolidate: headroom: 1 CapacityBuffer, 2 chunks of room kept as of");
    }

    /** The documents of {@code yaml}, each added to {@code dump} as the API server returns it. */
    @SuppressWarnings("unchecked")
    static KubeDump served(KubeDump dump, String yaml) {
        int version = 100;
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                dump.addServed(dev.gantry.kube.objects.KubeJson.YAML.readValue(doc, java.util.Map.class), String.valueOf(++version));
            }
        }
        return dump;
    }

    @Test
    void theDumpsBuffersKeepTheirRoomAsTheFilesDoAndAFilesBufferOfTheSameNameWins(@TempDir Path dir) throws IOException {
        // As above, with the buffer and its PodTemplate in the dump (kubectl get ...,capacitybuffers,podtemplates).
        KubeDump dump = served(new KubeDump().add(DumpNode.named("a").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("web-1").on("a").requests("500m", "1Gi"))
                .add(DumpNode.named("b").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("api-1").on("b").requests("500m", "1Gi")), buffer("7", "20Gi", 2));
        Path cluster = dump.writeYaml(dir.resolve("c.yaml"));
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", cluster.toString(), "--output", "json"))
                .as(err.toString()).isZero();
        assertThat(json().get("command").isNull()).as(out.toString()).isTrue();
        assertThat(err.toString()).contains("gantry consolidate: headroom: 1 CapacityBuffer, 2 chunks of room kept as of");

        // The files' buffer of the same name is the one kept, as the functions and gantry status keep it: one small chunk.
        Path files = Files.writeString(dir.resolve("buffers.yaml"), buffer("100m", "128Mi", 1));
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--nodepools", files.toString(), "--cluster", cluster.toString(),
                "--output", "json")).as(err.toString()).isZero();
        assertThat(json().get("command").get("remove")).hasSize(1);
        assertThat(err.toString()).contains("headroom: 1 CapacityBuffer, 1 chunk of room kept");
    }

    @Test
    void aDumpsBufferThatDoesNotReadIsLeftOutWithAWarning(@TempDir Path dir) throws IOException {
        KubeDump dump = served(new KubeDump().add(DumpNode.named("a").type("m5.2xlarge").pool("seed001-general-purpose"))
                .add(DumpPod.named("web-1").on("a").requests("500m", "1Gi")), """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: broken, namespace: default}
                spec: {podTemplateRef: {name: warm}, replicas: -1}
                """);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", dump.writeYaml(dir.resolve("c.yaml")).toString()))
                .as(err.toString()).isZero();
        assertThat(err.toString()).contains("warning: dump CapacityBuffer/broken left out: spec.replicas: must be at least 0")
                .doesNotContain("headroom:");
    }

    /** The sample pools as the API server returns them: defaults filled in, a status, managedFields. */
    private static Path dumpedPools(Path dir) throws IOException {
        String pools = Files.readString(Path.of(POOLS)).replace("""
                kind: NodePool
                metadata:
                  name: seed001-general-purpose
                """, """
                kind: NodePool
                metadata:
                  name: seed001-general-purpose
                status:
                  conditions:
                    - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2026-11-30T09:00:00Z"}
                  resources: {cpu: "14", memory: 56Gi, nodes: "3", pods: "87"}
                  nodeClassObservedGeneration: 1
                """);
        return served(new KubeDump(), pools).writeYaml(dir.resolve("pools.yaml"));
    }

    @Test
    void withoutFilesTheDumpsNodePoolsAreTheConfigurationAndDecideAsTheFilesDo(@TempDir Path dir) throws IOException {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--output", "json")).isZero();
        JsonNode fromFiles = json().get("command");
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        String pools = dumpedPools(dir).toString();
        assertThat(run("consolidate", "--cluster", CLUSTER, "--cluster", pools, "--output", "json")).as(err.toString()).isZero();
        assertThat(json().get("command")).isEqualTo(fromFiles);
        assertThat(err.toString()).contains("gantry consolidate: the configuration is the dump's: 1 NodePool, 1 EC2NodeClass")
                .doesNotContain("warning");

        // Files named replace the dump's pools, and the command says so.
        err.getBuffer().setLength(0);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--cluster", pools)).isZero();
        assertThat(err.toString()).contains("--nodepools names the configuration; the dump's 1 NodePool is not used");
    }

    @Test
    void withoutFilesOrADumpedNodePoolItIsExitTwoAndSaysWhatToDump() {
        assertThat(run("consolidate", "--cluster", CLUSTER)).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("gantry consolidate: no NodePool: name the configuration (--nodepools "
                + "FILE|DIR), or dump the cluster's with the rest (kubectl get nodes,pods,pdb,nodepools,ec2nodeclasses -A -o yaml)");
    }

    @Test
    void aDumpedNodePoolTheReaderRefusesIsLeftOutWithAWarning(@TempDir Path dir) throws IOException {
        Path pools = served(new KubeDump(), Files.readString(Path.of(POOLS)) + """
                ---
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: broken}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: seed001}
                      requirements: [{key: karpenter.sh/capacity-type, operator: Within, values: [spot]}]
                """).writeYaml(dir.resolve("pools.yaml"));
        assertThat(run("consolidate", "--cluster", CLUSTER, "--cluster", pools.toString())).as(err.toString()).isZero();
        assertThat(err.toString()).contains("warning: dump NodePool/broken left out: ")
                .contains("the configuration is the dump's: 1 NodePool, 1 EC2NodeClass");
        assertThat(out.toString()).containsPattern("remove  ip-10-0-1-10 ");
    }

    @Test
    void aBufferWhoseWorkloadIsNotInTheFilesIsNamedAndKeepsNothing(@TempDir Path dir) throws IOException {
        Path buffers = Files.writeString(dir.resolve("buffers.yaml"), """
                apiVersion: autoscaling.x-k8s.io/v1beta1
                kind: CapacityBuffer
                metadata: {name: web-spare, namespace: default}
                spec:
                  scalableRef: {apiGroup: apps, kind: Deployment, name: web}
                  percentage: 50
                """);
        assertThat(run("consolidate", "--nodepools", POOLS, "--nodepools", buffers.toString(), "--cluster", CLUSTER))
                .as(err.toString()).isZero();
        assertThat(err.toString()).contains("headroom: 1 CapacityBuffer, 0 chunks")
                .contains("CapacityBuffer default/web-spare: Deployment/web not found in namespace default; it keeps no room here");
        assertThat(out.toString()).containsPattern("remove  ip-10-0-1-10 ");
    }

    @Test
    void aDumpWithoutNodesIsExitTwoAndSaysWhatWasRead(@TempDir Path dir) throws IOException {
        Path file = new KubeDump().add(DumpPod.named("web-1").pending()).writeYaml(dir.resolve("pods.yaml"));
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("no Node in").contains("read 1 objects in 1 file").contains("kubectl get nodes,pods,pdb");
    }

    @Test
    void aBrokenDumpIsOneLineNamingTheObjectAndExitTwo(@TempDir Path dir) throws IOException {
        String yaml = new KubeDump().add(DumpNode.named("a").pool("seed001-general-purpose"))
                .add(DumpPod.named("web-1").on("a").requests("lots", "1Gi")).yaml();
        Path file = Files.writeString(dir.resolve("bad.yaml"), yaml);
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", file.toString())).isEqualTo(2);
        assertThat(err.toString().strip().lines()).singleElement().asString().startsWith("gantry consolidate: " + file)
                .contains("Pod default/web-1").contains("lots");
    }

    @Test
    void aBadOutputIsExitTwo() {
        assertThat(run("consolidate", "--nodepools", POOLS, "--cluster", CLUSTER, "--output", "xml")).isEqualTo(2);
        assertThat(err.toString()).contains("--output is table or json");
    }
}
