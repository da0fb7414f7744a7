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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry drift} run in-process on dumps as kubectl prints them (managedFields, DaemonSet pods, Karpenter's
 * NodeClaims with their hash annotations and {@code status.imageID}).
 */
class DriftCommandTest {
    private static final String OLD = "ami-0aaaaaaaaaaaaaaa1";
    private static final String NEW = "ami-0bbbbbbbbbbbbbbb2";
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    @TempDir
    Path dir;
    /** Makes node c NotReady in {@link #dump}. */
    private boolean cNotReady;

    private int run(String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private JsonNode json() throws IOException {
        return new ObjectMapper().readTree(out.toString());
    }

    private static String pools(String budget, String canary, String requirement) {
        return """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: default
                spec:
                  template:
                    spec:
                      nodeClassRef:
                        group: karpenter.k8s.aws
                        kind: EC2NodeClass
                        name: default
                      requirements:
                        - key: karpenter.sh/capacity-type
                          operator: In
                          values: [%s]
                        - key: karpenter.k8s.aws/instance-family
                          operator: In
                          values: [m6a, c6a]
                  disruption:
                    consolidationPolicy: WhenEmpty
                    consolidateAfter: 1h
                    budgets:
                      - nodes: "%s"
                ---
                apiVersion: karpenter.k8s.aws/v1
                kind: EC2NodeClass
                metadata:
                  name: default
                  annotations:
                    gantry.dev/drift-canary: "%s"
                spec:
                  amiSelectorTerms:
                    - alias: al2023@latest
                  role: KarpenterNodeRole
                  subnetSelectorTerms:
                    - tags: {karpenter.sh/discovery: demo}
                  securityGroupSelectorTerms:
                    - tags: {karpenter.sh/discovery: demo}
                """.formatted(requirement, budget, canary);
    }

    /** Karpenter's NodeClaim for a node: hash annotations of Karpenter's versions, the image the instance runs. */
    private static Map<String, Object> claim(String node, String instanceId, String image, Map<String, String> hashes) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("name", "default-" + node.substring(node.length() - 5));
        meta.put("annotations", hashes);
        meta.put("labels", Map.of("karpenter.sh/nodepool", "default"));
        meta.put("managedFields", List.of(Map.of("manager", "karpenter", "operation", "Update", "apiVersion", "karpenter.sh/v1")));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("nodeName", node);
        status.put("providerID", "aws:///us-east-1a/" + instanceId);
        status.put("imageID", image);
        status.put("conditions", List.of(Map.of("type", "Initialized", "status", "True",
                "lastTransitionTime", DumpNode.NOW.minusSeconds(3600).toString())));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("apiVersion", "karpenter.sh/v1");
        c.put("kind", "NodeClaim");
        c.put("metadata", meta);
        c.put("spec", Map.of("nodeClassRef", Map.of("group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", "default")));
        c.put("status", status);
        return c;
    }

    private static final Map<String, String> KARPENTER_HASHES = Map.of("karpenter.sh/nodepool-hash", "6821555240594823858",
            "karpenter.sh/nodepool-hash-version", "v3", "karpenter.k8s.aws/ec2nodeclass-hash", "15535182697325354914",
            "karpenter.k8s.aws/ec2nodeclass-hash-version", "v4");

    /**
     * Four nodes on {@code OLD}: node a runs only DaemonSet pods (empty), b–d run a web pod each; every node runs the
     * DaemonSets, as a real node does. {@code spotNode} makes d a spot node.
     */
    private Path dump(boolean spotNode, Map<String, String> hashesOfD) {
        KubeDump d = new KubeDump();
        String[] names = {"ip-10-0-1-1a", "ip-10-0-1-2b", "ip-10-0-1-3c", "ip-10-0-1-4d"};
        for (int i = 0; i < names.length; i++) {
            DumpNode n = DumpNode.named(names[i]).instanceId("i-0" + i + "aaaaaaaaaaaaaa").type("m6a.xlarge");
            if (i == 3 && spotNode) {
                n.spot();
            }
            if (i == 2 && cNotReady) {
                n.notReady();
            }
            d.add(n);
            d.add(claim(names[i], "i-0" + i + "aaaaaaaaaaaaaa", OLD, i == 3 ? hashesOfD : KARPENTER_HASHES));
            d.add(DumpPod.daemonSet("kube-system", "aws-node", names[i], "25m", "64Mi"));
            d.add(DumpPod.daemonSet("kube-system", "kube-proxy", names[i], "100m", "128Mi"));
            if (i > 0) {
                d.add(DumpPod.named("web-" + i).on(names[i]).owner("ReplicaSet", "web-7d4f9").requests("500m", "1Gi"));
            }
        }
        return d.writeYaml(dir.resolve("cluster.yaml"));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aNewAmiDriftsEveryNodeAndRollsACanaryFirstThenWithinTheBudget() throws IOException {
        Path pools = write("pools.yaml", pools("50%", "1", "on-demand"));
        Path cluster = dump(false, KARPENTER_HASHES);
        int code = run("drift", "--nodepools", pools.toString(), "--cluster", cluster.toString(),
                "--image", "al2023@latest=" + NEW, "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("drifted: AMIDrift");
        JsonNode doc = json();
        assertThat(doc.get("managedNodes").asInt()).isEqualTo(4);
        assertThat(doc.get("drifted")).hasSize(4).allSatisfy(r -> {
            assertThat(r.get("reason").asText()).isEqualTo("AMIDrift");
            assertThat(r.get("image").asText()).isEqualTo(OLD);
        });
        // Empty first: node a runs only DaemonSet pods.
        assertThat(doc.get("drifted").get(0).get("node").asText()).isEqualTo("ip-10-0-1-1a");
        assertThat(doc.get("drifted").get(0).get("empty").asBoolean()).isTrue();
        JsonNode rollout = doc.get("amiRollouts").get(0);
        assertThat(rollout.get("phase").asText()).isEqualTo("CANARY");
        assertThat(rollout.get("canaries").asInt()).isEqualTo(1);
        // AmiRollout's canary wave of one, then 50% of 4 nodes = 2 per wave (the Drifted budget).
        JsonNode waves = doc.get("waves");
        assertThat(waves).hasSize(3);
        assertThat(waves.get(0).get("nodes")).extracting(JsonNode::asText).containsExactly("ip-10-0-1-1a");
        assertThat(waves.get(0).get("why").asText()).contains("canary wave of EC2NodeClass default");
        assertThat(waves.get(1).get("nodes")).hasSize(2);
        assertThat(waves.get(1).get("why").asText()).contains("canaries soaked 15m").contains("2 of 2 allowed");
        assertThat(waves.get(2).get("nodes")).hasSize(1);
        // DriftReplacement's next command: the empty node, nothing to launch for its pods.
        assertThat(doc.get("next").get("replace")).extracting(JsonNode::asText).containsExactly("ip-10-0-1-1a");
    }

    /**
     * The sweep's drift replacements keep the buffers' room: the empty node holds a chunk of 3.5 vCPU that no other node
     * has room for, so replacing it launches a node for the chunk where, without buffers, it launches nothing.
     */
    @Test
    void theReplacementOfANodeHoldingABuffersChunkLaunchesRoomForIt() throws IOException {
        Path pools = write("pools.yaml", pools("50%", "1", "on-demand"));
        Path buffers = write("buffers.yaml", ConsolidateCommandTest.buffer("3500m", "4Gi", 1));
        Path cluster = dump(false, KARPENTER_HASHES);
        int code = run("drift", "--nodepools", pools.toString(), "--nodepools", buffers.toString(), "--cluster",
                cluster.toString(), "--image", "al2023@latest=" + NEW, "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("next").get("replace")).extracting(JsonNode::asText).containsExactly("ip-10-0-1-1a");
        assertThat(doc.get("next").get("launch")).as(doc.get("next").toString()).hasSize(1);
        assertThat(doc.get("notes").toString()).contains("headroom: 1 CapacityBuffer, 1 chunk of room kept as of");
    }

    @Test
    void theTableNamesEachNodeItsReasonWaveAndWhatIsNotDecidedOffline() throws IOException {
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        Path cluster = dump(false, KARPENTER_HASHES);
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", cluster.toString(), "--image",
                "default=" + NEW)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("4 of 4 managed nodes drifted")
                .containsPattern("ip-10-0-1-1a +default +default +AMIDrift .* " + OLD + " +1 +empty; next")
                .contains("EC2NodeClass default: CANARY").contains("wave 4: ")
                .contains("subnet and security-group drift need EC2's view")
                .contains("carry no Gantry hashes");
    }

    @Test
    void withoutTheImageAmiDriftIsNotDecidedAndSaysHowToTellIt() throws IOException {
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(false, KARPENTER_HASHES).toString()))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("0 of 4 managed nodes drifted")
                .contains("AMI drift not decided for EC2NodeClass default: say which image it resolves to now, e.g. --image al2023@latest=ami-");
    }

    /** Karpenter core pkg/controllers/nodeclaim/disruption/drift.go: labels no longer satisfying the NodePool drift. */
    @Test
    void aSpotNodeUnderAnOnDemandOnlyPoolIsRequirementsDrifted() throws IOException {
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(true, KARPENTER_HASHES).toString(),
                "--image", "al2023@latest=" + OLD, "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("drifted")).hasSize(1);
        assertThat(doc.get("drifted").get(0).get("node").asText()).isEqualTo("ip-10-0-1-4d");
        assertThat(doc.get("drifted").get(0).get("reason").asText()).isEqualTo("RequirementsDrifted");
        assertThat(doc.get("amiRollouts").get(0).get("phase").asText()).isEqualTo("NONE");
    }

    /** The pools the cluster holds, dumped beside its nodes (kubectl get ...,nodepools,ec2nodeclasses): the same drift. */
    @Test
    void theDumpsNodePoolsAreTheConfigurationWhenNoFilesAreNamed() throws IOException {
        Path dumped = ConsolidateCommandTest.served(new KubeDump(), pools("1", "1", "on-demand")).writeJson(dir.resolve("pools.json"));
        assertThat(run("drift", "--cluster", dump(true, KARPENTER_HASHES).toString(), "--cluster", dumped.toString(),
                "--image", "al2023@latest=" + OLD, "--output", "json")).as(err.toString()).isZero();
        assertThat(err.toString()).contains("gantry drift: the configuration is the dump's: 1 NodePool, 1 EC2NodeClass");
        JsonNode doc = json();
        assertThat(doc.get("drifted")).hasSize(1);
        assertThat(doc.get("drifted").get(0).get("reason").asText()).isEqualTo("RequirementsDrifted");
    }

    /** Gantry's own hash version on the NodeClaim: a different NodePool hash is NodePoolDrifted (checked first). */
    @Test
    void aClaimStampedByGantryWithAnotherTemplateHashIsNodePoolDrifted() throws IOException {
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        Map<String, String> gantry = Map.of("karpenter.sh/nodepool-hash", "stale", "karpenter.sh/nodepool-hash-version", "gantry-1",
                "karpenter.k8s.aws/ec2nodeclass-hash", "stale", "karpenter.k8s.aws/ec2nodeclass-hash-version",
                dev.gantry.core.disruption.drift.hash.DriftHashes.NODECLASS_VERSION);
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(false, gantry).toString(),
                "--image", "al2023@latest=" + OLD, "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("drifted")).extracting(r -> r.get("node").asText() + " " + r.get("reason").asText())
                .containsExactly("ip-10-0-1-4d NodePoolDrifted");
        assertThat(doc.get("waves").get(0).get("nodes")).extracting(JsonNode::asText).containsExactly("ip-10-0-1-4d");
    }

    /**
     * aws/karpenter-provider-aws#6472: under a budget of one, a NotReady node uses up Karpenter's whole allowance
     * (core pkg/controllers/disruption/helpers.go counts NotReady nodes as disrupting); Gantry's drift counts NotReady
     * nodes only up to one less than the allowance, so the rollout goes on one node at a time.
     */
    @Test
    void aNotReadyNodeDoesNotStopTheRollout() throws IOException {
        cNotReady = true;
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(false, KARPENTER_HASHES).toString(),
                "--image", "al2023@latest=" + NEW, "--output", "json")).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("drifted")).filteredOn(r -> r.get("node").asText().equals("ip-10-0-1-3c"))
                .singleElement().satisfies(r -> assertThat(r.get("ready").asBoolean()).isFalse());
        assertThat(doc.get("waves")).hasSize(4);
        assertThat(doc.get("next").get("replace")).extracting(JsonNode::asText).containsExactly("ip-10-0-1-1a");
    }

    @Test
    void badConfigurationIsFileLineColumnAndExitTwo() throws IOException {
        Path pools = write("pools.yaml", pools("1", "often", "on-demand"));
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(false, KARPENTER_HASHES).toString())).isEqualTo(2);
        assertThat(err.toString()).containsPattern("pools\\.yaml:\\d+:\\d+: .*drift-canary").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aBadImageArgumentIsExitTwo() throws IOException {
        Path pools = write("pools.yaml", pools("1", "1", "on-demand"));
        assertThat(run("drift", "--nodepools", pools.toString(), "--cluster", dump(false, KARPENTER_HASHES).toString(),
                "--image", "al2023@latest=latest")).isEqualTo(2);
        assertThat(err.toString()).contains("gantry drift: --image al2023@latest=latest: 'latest' is not an AMI id");
    }

    /** The README's example: the sample dump has no NodeClaims, so nothing is known to have drifted. */
    @Test
    void theReadmeExampleRunsOnTheSampleDump() {
        assertThat(run("drift", "--nodepools", "../../samples/nodepools/seed001-v1.yaml", "--cluster",
                "../../samples/clusters/underutilized.yaml", "--image", "bottlerocket@latest=" + NEW)).as(err.toString()).isZero();
        assertThat(err.toString()).doesNotContain("ignored");
        assertThat(out.toString()).containsPattern("0 of \\d+ managed nodes drifted");
    }

    @Test
    void helpListsTheCommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("drift");
    }
}
