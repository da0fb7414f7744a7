package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.testing.dumps.DumpNode;
import dev.gantry.testing.dumps.KubeDump;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gantry plan} run in-process: the documented JSON shape, the seed worked examples, and bad input. */
class PlanCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** An AL2023 EC2NodeClass named default, after a NodePool's YAML. */
    private static final String AL2023_CLASS = """
            ---
            apiVersion: karpenter.k8s.aws/v1
            kind: EC2NodeClass
            metadata: {name: default}
            spec:
              role: KarpenterNodeRole-demo
              amiSelectorTerms: [{alias: al2023@latest}]
              subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
              securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
            """;

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
    void plansSeed002OnATgSpotNodeInItsTwoZones() throws IOException {
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1beta1.yaml",
                "--pods", "../../samples/workloads/seed002-nginx.yaml", "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("nodeClaims")).hasSize(1);
        JsonNode claim = doc.get("nodeClaims").get(0);
        assertThat(claim.get("instanceType").asText()).startsWith("t4g.");
        assertThat(claim.get("capacityType").asText()).isEqualTo("spot");
        assertThat(claim.get("zone").asText()).isIn("ap-northeast-2a", "ap-northeast-2b");
        assertThat(claim.get("pods")).extracting(JsonNode::asText)
                .containsExactly("default/nginx-0", "default/nginx-1", "default/nginx-2");
        assertThat(claim.get("instanceTypeOptions")).allMatch(t -> t.asText().startsWith("t4g."));
        assertThat(doc.get("unschedulable")).isEmpty();
    }

    /**
     * Regression: an arm64 pool under AL2023 with no category limit was planned on a1.4xlarge (A1 is the cheapest arm64
     * vCPU), which AL2023 does not boot; Karpenter leaves A1 out under AL2023, and so does Gantry now.
     */
    @Test
    void plansNoA1NodeForAnArmPoolUnderAl2023(@TempDir Path dir) throws IOException {
        Path pools = dir.resolve("pool.yaml");
        Files.writeString(pools, """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: arm}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - {key: kubernetes.io/arch, operator: In, values: [arm64]}
                        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                """ + AL2023_CLASS);
        Path pods = dir.resolve("pods.yaml");
        Files.writeString(pods, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: cpu}
                spec:
                  replicas: 30
                  selector: {matchLabels: {app: cpu}}
                  template:
                    metadata: {labels: {app: cpu}}
                    spec:
                      containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "3", memory: 2Gi}}}
                """);
        assertThat(run("plan", "--nodepools", pools.toString(), "--pods", pods.toString(), "--output", "json"))
                .as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("nodeClaims")).isNotEmpty().allSatisfy(c -> {
            assertThat(c.get("instanceType").asText()).doesNotStartWith("a1.");
            assertThat(c.get("instanceTypeOptions")).noneMatch(t -> t.asText().startsWith("a1."));
        });
        assertThat(doc.get("unschedulable")).isEmpty();
    }

    /**
     * An EKS Auto Mode NodeClass and an EC2NodeClass may share a name (both are often {@code default}); a NodePool's
     * {@code nodeClassRef} names its group and kind too. The class was looked up by name alone, so the Auto Mode pool
     * got the EC2NodeClass listed first (20Gi root volume) and its pods, asking 150Gi of ephemeral storage that its own
     * class's 200Gi data volume holds, were unschedulable.
     */
    @Test
    void aPoolGetsTheNodeClassOfTheKindItNamesWhenTwoKindsShareAName(@TempDir Path dir) throws IOException {
        Path pools = dir.resolve("pool.yaml");
        Files.writeString(pools, AL2023_CLASS + """
                ---
                apiVersion: eks.amazonaws.com/v1
                kind: NodeClass
                metadata: {name: default}
                spec:
                  role: AutoModeNodeRole
                  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                  ephemeralStorage: {size: 200Gi}
                ---
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: auto}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: default}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                """);
        Path pods = dir.resolve("pods.yaml");
        Files.writeString(pods, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: scratch}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: scratch}}
                  template:
                    metadata: {labels: {app: scratch}}
                    spec:
                      containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi, ephemeral-storage: 150Gi}}}
                """);
        assertThat(run("plan", "--nodepools", pools.toString(), "--pods", pods.toString(), "--output", "json"))
                .as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("unschedulable")).as(doc.toString()).isEmpty();
        assertThat(doc.get("nodeClaims")).hasSize(2);
    }

    /**
     * {@code instanceStorePolicy: RAID0} makes a type's NVMe instance store its ephemeral storage, as in Karpenter: a
     * pod asking 200Gi of ephemeral storage fits only such a type then, and no type at all on the 20Gi root volume.
     */
    @Test
    void plansAnEphemeralStorageHeavyPodOnAnInstanceStoreTypeUnderRaid0(@TempDir Path dir) throws IOException {
        String pool = """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata: {name: nvme}
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
                        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
                """ + AL2023_CLASS + "%s";
        Path pods = dir.resolve("pods.yaml");
        Files.writeString(pods, """
                apiVersion: v1
                kind: Pod
                metadata: {name: scratch, namespace: default}
                spec:
                  containers:
                    - {name: c, image: busybox, resources: {requests: {cpu: "1", memory: 2Gi, ephemeral-storage: 200Gi}}}
                """);
        Path raid0 = dir.resolve("raid0.yaml");
        Files.writeString(raid0, pool.formatted("  instanceStorePolicy: RAID0\n"));
        assertThat(run("plan", "--nodepools", raid0.toString(), "--pods", pods.toString(), "--output", "json"))
                .as(err.toString()).isZero();
        JsonNode claim = json().get("nodeClaims").get(0);
        assertThat(claim.get("instanceType").asText()).matches("[cmr][0-9]+[a-z]*d[a-z]*\\..*"); // an instance-store type
        out.getBuffer().setLength(0);
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, pool.formatted(""));
        assertThat(run("plan", "--nodepools", plain.toString(), "--pods", pods.toString(), "--output", "json"))
                .as(err.toString()).isZero();
        assertThat(json().get("nodeClaims")).isEmpty();
        assertThat(json().get("unschedulable")).hasSize(1);
    }

    /** The README's GPU example: each single-GPU trainer on its own g4dn.4xlarge (40Gi rules out the 2xlarge), on spot. */
    @Test
    void plansTheGpuSampleOneTrainerPerSmallestNvidiaNodeThatHoldsIt() throws IOException {
        int code = run("plan", "--nodepools", "../../samples/nodepools/gpu-al2023.yaml",
                "--pods", "../../samples/workloads/gpu-trainer.yaml", "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("nodeClaims")).hasSize(3).allSatisfy(c -> {
            assertThat(c.get("instanceType").asText()).isEqualTo("g4dn.4xlarge");
            assertThat(c.get("capacityType").asText()).isEqualTo("spot");
            assertThat(c.get("pods")).hasSize(1);
            assertThat(c.get("instanceTypeOptions")).allMatch(t -> t.asText().startsWith("g"));
        });
        assertThat(doc.get("unschedulable")).isEmpty();
    }

    /**
     * The NodeOverlays in the files given are the provisioner's: samples/scenarios/cost/pool.yaml prices arm64 30% up
     * while the team ports to Graviton, so the web tier plans on x86. The plan was made without them (Graviton, at list
     * price, is the cheaper), as were {@code consolidate}'s, {@code drift}'s and {@code status}'s.
     */
    @Test
    void plansWithTheNodeOverlaysOfTheFilesGiven() throws IOException {
        int code = run("plan", "--nodepools", "../../samples/scenarios/cost/pool.yaml", "--pods", "../../samples/workloads/web.yaml",
                "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        assertThat(json().get("nodeClaims")).isNotEmpty().allSatisfy(c ->
                assertThat(c.get("instanceType").asText()).as("an x86 type").doesNotMatch("[a-z]+[0-9]+g[a-z]*\\..*"));
    }

    /**
     * The configuration a Karpenter user keeps in the cluster, dumped beside it (kubectl get
     * nodes,pods,pdb,nodepools,ec2nodeclasses,nodeoverlays,capacitybuffers,podtemplates -A -o yaml): the pools, their
     * overlay and a buffer plan as they do from files.
     */
    @Test
    void plansWithTheNodePoolsOverlaysAndBuffersOfADump(@TempDir Path dir) throws IOException {
        String config = Files.readString(Path.of("../../samples/scenarios/cost/pool.yaml")) + "\n---\n"
                + ConsolidateCommandTest.buffer("1", "2Gi", 2);
        Path cluster = ConsolidateCommandTest.served(new KubeDump().add(DumpNode.named("ip-10-0-9-9").pool("cost").type("m6a.large")),
                config).writeYaml(dir.resolve("cluster.yaml"));
        int code = run("plan", "--cluster", cluster.toString(), "--pods", "../../samples/workloads/web.yaml", "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("gantry plan: the configuration is the dump's: 1 NodePool, 1 EC2NodeClass, 1 NodeOverlay")
                .contains("gantry plan: headroom: 1 CapacityBuffer, 2 chunks of room kept as of");
        assertThat(json().get("nodeClaims")).isNotEmpty().allSatisfy(c ->
                assertThat(c.get("instanceType").asText()).as("an x86 type").doesNotMatch("[a-z]+[0-9]+g[a-z]*\\..*"));
        assertThat(out.toString()).contains("default/warm-buffer-0").contains("default/warm-buffer-1");
    }

    /** A provisioning run plans the buffers' chunks after the real pods; so does the plan, from the files' buffers. */
    @Test
    void plansTheConfigurationsBuffersAfterThePods(@TempDir Path dir) throws IOException {
        Path buffers = Files.writeString(dir.resolve("buffers.yaml"), ConsolidateCommandTest.buffer("1", "2Gi", 2));
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1beta1.yaml", "--nodepools", buffers.toString(),
                "--pods", "../../samples/workloads/seed002-nginx.yaml");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("default/nginx-0").contains("default/warm-buffer-0").contains("default/warm-buffer-1")
                .contains("5 pod(s) placed (2 of them CapacityBuffer chunks), 0 unschedulable");
        assertThat(err.toString()).contains("gantry plan: headroom: 1 CapacityBuffer, 2 chunks of room kept as of");
    }

    @Test
    void printsEveryDocumentedJsonField() throws IOException {
        run("plan", "--nodepools", "../../samples/nodepools/seed002-v1.yaml",
                "--pods", "../../samples/workloads/seed002-nginx.yaml", "--output", "json");
        JsonNode doc = json();
        assertThat(doc.fieldNames()).toIterable().contains("nodeClaims", "existingNodes", "unschedulable",
                "totalPricePerHour", "lowerBoundPerHour", "solveMillis");
        assertThat(doc.get("nodeClaims").get(0).fieldNames()).toIterable().contains("name", "nodePool", "instanceType",
                "zone", "capacityType", "pricePerHour", "instanceTypeOptions", "requirements", "pods");
        JsonNode req = doc.get("nodeClaims").get(0).get("requirements").get(0);
        assertThat(req.fieldNames()).toIterable().contains("key", "operator");
        assertThat(doc.get("totalPricePerHour").asDouble()).isGreaterThanOrEqualTo(doc.get("lowerBoundPerHour").asDouble());
    }

    @Test
    void keepsPodsBeyondTheSeed000LimitsPendingWithTheLimitAsReason(@TempDir Path dir) throws IOException {
        Path pods = dir.resolve("big.yaml");
        Files.writeString(pods, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: big, namespace: default}
                spec:
                  replicas: 8
                  selector: {matchLabels: {app: big}}
                  template:
                    metadata: {labels: {app: big}}
                    spec:
                      containers:
                        - name: c
                          image: x
                          resources: {requests: {cpu: "3", memory: 1Gi}}
                """);
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed000-provisioner.yaml", "--pods", pods.toString(),
                "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        double cpus = 0;
        for (JsonNode c : doc.get("nodeClaims")) {
            assertThat(c.get("instanceType").asText()).startsWith("t3a.");
            assertThat(c.get("capacityType").asText()).isEqualTo("on-demand");
            cpus += Double.parseDouble(c.get("instanceType").asText().equals("t3a.2xlarge") ? "8" : "4");
        }
        assertThat(cpus).isLessThanOrEqualTo(20);
        assertThat(doc.get("unschedulable")).isNotEmpty();
        assertThat(doc.get("unschedulable").get(0).get("reason").asText()).isEqualTo(
                "NodePool default would exceed its cpu limit (20): 0 in use, 20 for new nodes, a node for the pod adds at least 4");
    }

    @Test
    void tableNamesEveryClaimAndTheTotal() {
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1.yaml",
                "--pods", "../../samples/workloads/seed002-nginx.yaml");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("NODECLAIM", "t4g.", "3 pod(s) placed, 0 unschedulable");
    }

    @Test
    void rejectsAnUnknownStrategyWithExitTwo() {
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1.yaml",
                "--pods", "../../samples/workloads/seed002-nginx.yaml", "--strategy", "random");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("'random' is not a strategy (gantry, karpenter)");
    }

    @Test
    void reportsABrokenPodManifestAsFileLineAndExitTwo(@TempDir Path dir) throws IOException {
        Path pods = dir.resolve("pods.yaml");
        Files.writeString(pods, """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  containers:
                    - name: c
                      resources: {requests: {cpu: lots}}
                """);
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1.yaml", "--pods", pods.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(pods + ":7:");
        assertThat(out.toString()).isEmpty();
    }
    private static final String ONE_POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: default}
            spec:
              containers:
                - name: c
                  resources: {requests: {cpu: "1", memory: 1Gi}}
            """;

    private static final String STARTUP_POOL = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  startupTaints:
                    - {key: example.com/agent-not-ready, effect: NoSchedule}
                  requirements:
                    - {key: karpenter.k8s.aws/instance-category, operator: In, values: ["m"]}
                    - {key: topology.kubernetes.io/zone, operator: In, values: ["us-east-1a"]}
            """;

    private JsonNode planWithNode(Path dir, String pool, String node) throws IOException {
        Files.writeString(dir.resolve("pool.yaml"), pool);
        Files.writeString(dir.resolve("pod.yaml"), ONE_POD);
        Files.writeString(dir.resolve("node.yaml"), node);
        int code = run("plan", "--nodepools", dir.resolve("pool.yaml").toString(), "--pods", dir.resolve("pod.yaml").toString(),
                "--nodes", dir.resolve("node.yaml").toString(), "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        return json();
    }

    @Test
    void plansNoPodOntoANodeThatIsBeingDeleted(@TempDir Path dir) throws IOException {
        JsonNode doc = planWithNode(dir, STARTUP_POOL, """
                apiVersion: v1
                kind: Node
                metadata:
                  name: leaving
                  deletionTimestamp: "2026-01-01T00:00:00Z"
                  finalizers: [karpenter.sh/termination]
                  labels: {topology.kubernetes.io/zone: us-east-1a, kubernetes.io/arch: amd64}
                status:
                  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                """);
        assertThat(doc.get("existingNodes")).isEmpty();
        assertThat(doc.get("nodeClaims")).hasSize(1);
    }

    @Test
    @org.junit.jupiter.api.Disabled("plan shows the provisioner's own plan (LaunchPlanner), and the provisioner plans the pods "
            + "of leaving nodes only with issue #21's LeavingNodes (branch launch21): re-enable once both are merged")
    void replansThePodsOfANodeThatIsBeingDeleted(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pool.yaml"), STARTUP_POOL);
        Files.writeString(dir.resolve("pod.yaml"), ONE_POD + """
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: evicted-soon, namespace: default}
                spec:
                  nodeName: leaving
                  containers:
                    - name: c
                      resources: {requests: {cpu: "1", memory: 1Gi}}
                """);
        Files.writeString(dir.resolve("node.yaml"), """
                apiVersion: v1
                kind: Node
                metadata:
                  name: leaving
                  deletionTimestamp: "2026-01-01T00:00:00Z"
                  labels: {topology.kubernetes.io/zone: us-east-1a}
                status:
                  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
                """);
        int code = run("plan", "--nodepools", dir.resolve("pool.yaml").toString(), "--pods", dir.resolve("pod.yaml").toString(),
                "--nodes", dir.resolve("node.yaml").toString(), "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = json();
        assertThat(doc.get("existingNodes")).isEmpty();
        java.util.List<String> planned = new java.util.ArrayList<>();
        doc.get("nodeClaims").forEach(c -> c.get("pods").forEach(p -> planned.add(p.asText())));
        assertThat(planned).containsExactlyInAnyOrder("default/web", "default/evicted-soon");
    }

    @Test
    void plansPodsOntoANodeStillStartingUpDespiteItsStartupAndNotReadyTaints(@TempDir Path dir) throws IOException {
        JsonNode doc = planWithNode(dir, STARTUP_POOL, """
                apiVersion: v1
                kind: Node
                metadata:
                  name: booting
                  labels: {karpenter.sh/nodepool: general, karpenter.sh/registered: "true", topology.kubernetes.io/zone: us-east-1a}
                spec:
                  taints:
                    - {key: node.kubernetes.io/not-ready, effect: NoSchedule}
                    - {key: example.com/agent-not-ready, effect: NoSchedule}
                status:
                  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
                  conditions: [{type: Ready, status: "False"}]
                """);
        assertThat(doc.get("nodeClaims")).isEmpty();
        assertThat(doc.get("existingNodes").get(0).get("name").asText()).isEqualTo("booting");
    }

    @Test
    void keepsTheTaintsOfAnInitializedNodeThatWentNotReady(@TempDir Path dir) throws IOException {
        JsonNode doc = planWithNode(dir, STARTUP_POOL, """
                apiVersion: v1
                kind: Node
                metadata:
                  name: broken
                  labels: {karpenter.sh/nodepool: general, karpenter.sh/initialized: "true", topology.kubernetes.io/zone: us-east-1a}
                spec:
                  taints: [{key: node.kubernetes.io/not-ready, effect: NoSchedule}]
                status:
                  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
                  conditions: [{type: Ready, status: "False"}]
                """);
        assertThat(doc.get("existingNodes")).isEmpty();
        assertThat(doc.get("nodeClaims")).hasSize(1);
    }
    @Test
    void plansAPodByItsPodLevelResourceRequests(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pool.yaml"), STARTUP_POOL);
        Files.writeString(dir.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: pooled, namespace: default}
                spec:
                  resources:
                    requests: {cpu: "6"}
                    limits: {memory: 20Gi}
                  containers:
                    - {name: a, resources: {requests: {cpu: 100m}}}
                    - {name: b}
                """);
        int code = run("plan", "--nodepools", dir.resolve("pool.yaml").toString(), "--pods", dir.resolve("pod.yaml").toString(),
                "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode requests = json().get("nodeClaims").get(0).get("requests");
        // cpu from the pod-level request; memory defaults to the pod-level limit, as no container requests memory.
        assertThat(requests.get("cpu").asLong()).isEqualTo(6000);
        assertThat(requests.get("memory").asLong()).isGreaterThanOrEqualTo(20L << 30);
    }

    @Test
    void rejectsAPodLevelResourceKubernetesDoesNotSupport(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: gpu, namespace: default}
                spec:
                  resources:
                    requests: {nvidia.com/gpu: "1"}
                  containers: [{name: a}]
                """);
        int code = run("plan", "--nodepools", "../../samples/nodepools/seed002-v1.yaml", "--pods", dir.resolve("pod.yaml").toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(dir.resolve("pod.yaml") + ":6:").contains("pod-level resources support only cpu, memory");
    }
}
