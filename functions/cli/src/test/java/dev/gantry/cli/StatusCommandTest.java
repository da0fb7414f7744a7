package dev.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.kube.KubeNodeClaims;
import dev.gantry.kube.KubeStatusObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import dev.gantry.core.lifecycle.PoolUsage;
import dev.gantry.core.model.Resources;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.DynaliteExtension;
import dev.gantry.testing.StubResponse;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry status} against a deployed stack's parts: the state table on dynalite, the cluster on the fabric8
 * mock server in CRUD mode, and CloudFormation's DescribeStacks answered in its real wire shape by {@link AwsStub}.
 */
class StatusCommandTest {
    @RegisterExtension
    static final DynaliteExtension DYNALITE = new DynaliteExtension();
    private static final String TABLE = "Gantry-prod-StateTable4A2B1C0D-1X2Y3Z";
    private static final String CLUSTER = "prod";
    /** A Tuesday inside seed 000's weekday window. */
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final long GI = 1L << 30;

    private static final java.util.logging.Logger QUIET = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
    private static KubernetesMockServer server;
    private static NamespacedKubernetesClient kube;
    private static AwsStub aws;
    private static Path kubeconfig;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void deployedStack(@TempDir Path dir) throws Exception {
        QUIET.setLevel(java.util.logging.Level.WARNING); // one INFO line per request otherwise
        System.setProperty("aws.accessKeyId", "test");
        System.setProperty("aws.secretAccessKey", "test");
        DynamoTables.createTable(DYNALITE.dynamoDbClient(), TABLE);
        var store = new DynamoNodeClaimStore(DYNALITE.dynamoDbClient(), TABLE, CLUSTER);
        Instant t = NOW.minus(Duration.ofHours(3));
        store.create(NodeClaim.launching("seed000-aaaaa", "seed000", "h", List.of(), List.of("t3a.xlarge"),
                List.of("web/api-0"), "t3a.xlarge", "us-east-1a", "on-demand", 0.15, t));
        var a = store.get("seed000-aaaaa", NOW).orElseThrow();
        a = store.update(a.launched("i-0aaa", "t3a.xlarge", "us-east-1a", "on-demand", 0.15, t.plusSeconds(2)));
        a = store.update(a.registered("ip-10-0-0-1", t.plusSeconds(40)));
        store.update(a.initialized(t.plusSeconds(60)));
        store.create(NodeClaim.launching("seed000-bbbbb", "seed000", "h", List.of(), List.of("t3a.large"),
                List.of("web/api-1"), "t3a.large", "us-east-1b", "on-demand", 0.07, NOW.minusSeconds(45)));
        var c = store.create(NodeClaim.launching("seed000-ccccc", "seed000", "h", List.of(), List.of("t3a.large"),
                List.of(), "t3a.large", "us-east-1c", "on-demand", 0.07, t));
        c = store.update(c.launched("i-0ccc", "t3a.large", "us-east-1c", "on-demand", 0.07, t.plusSeconds(3)));
        store.update(c.draining("emptiness", NOW.minusSeconds(600)));
        store.recordPoolUsage(new PoolUsage("seed000", new Resources(6000, 24 * GI, 0, 58, Map.of()), 2, NOW.minusSeconds(30)));

        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> none = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), none,
                new KubernetesCrudDispatcher(), false);
        server.init();
        kube = server.createClient();
        node("ip-10-0-0-1", "4", "16Gi");
        node("ip-10-0-0-2", "2", "8Gi");
        pod("api-0", "ip-10-0-0-1", false, "500m");
        pod("api-1", null, true, "500m");
        pod("huge", null, true, "64");
        pod("fresh", null, false, "100m");
        event("web", "Pod", "api-1", "Normal", "Nominated", "Pod should schedule on: nodeclaim/seed000-bbbbb", "gantry", NOW.minusSeconds(44));
        event("default", "Node", "ip-10-0-0-2", "Warning", "SpotInterrupted", "Spot interruption warning: terminating in 2m",
                "gantry", NOW.minusSeconds(300));
        event("web", "Pod", "huge", "Warning", "BackOff", "kubelet says something", "kubelet", NOW.minusSeconds(10));
        kube.apps().deployments().inNamespace("shop").resource(new DeploymentBuilder().withNewMetadata().withName("web-frontend")
                .withNamespace("shop").endMetadata().withNewSpec().withReplicas(40).withNewTemplate().withNewMetadata()
                .addToLabels("app", "web-frontend").endMetadata().withNewSpec().addNewContainer().withName("web").withImage("nginx")
                .withNewResources().addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("1Gi"))
                .endResources().endContainer().endSpec().endTemplate().endSpec().build()).create();

        kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: mock
                    cluster: {server: "%s", insecure-skip-tls-verify: true}
                contexts:
                  - name: mock
                    context: {cluster: mock, user: admin}
                current-context: mock
                users:
                  - name: admin
                    user: {token: not-checked}
                """.formatted(kube.getConfiguration().getMasterUrl()));

        aws = AwsStub.start();
        aws.on("DescribeStacks", req -> req.param("StackName").equals("Gantry-" + CLUSTER)
                ? StubResponse.xml(describeStacks("Gantry-" + CLUSTER, TABLE, CLUSTER))
                : new StubResponse(400, "text/xml", """
                        <ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
                          <Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id %s does not exist</Message></Error>
                          <RequestId>5d1c8a3e-0000-4000-8000-000000000001</RequestId>
                        </ErrorResponse>""".formatted(req.param("StackName"))));
    }

    @AfterAll
    static void tearDown() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        if (kube != null) {
            kube.close();
        }
        if (server != null) {
            server.destroy();
        }
        if (aws != null) {
            aws.close();
        }
    }

    /** DescribeStacks as CloudFormation answers it, outputs included. */
    static String describeStacks(String stack, String table, String cluster) {
        return """
                <DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
                  <DescribeStacksResult>
                    <Stacks>
                      <member>
                        <StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/%1$s/6c3b1d50-0000-11f0-a000-0a1b2c3d4e5f</StackId>
                        <StackName>%1$s</StackName>
                        <StackStatus>UPDATE_COMPLETE</StackStatus>
                        <CreationTime>2026-11-02T08:00:00.000Z</CreationTime>
                        <LastUpdatedTime>2026-11-20T08:00:00.000Z</LastUpdatedTime>
                        <DisableRollback>false</DisableRollback>
                        <Capabilities><member>CAPABILITY_IAM</member></Capabilities>
                        <Tags><member><Key>gantry.dev/cluster</Key><Value>%3$s</Value></member></Tags>
                        <Outputs>
                          <member><OutputKey>TableName</OutputKey><OutputValue>%2$s</OutputValue><Description>Gantry state table</Description></member>
                          <member><OutputKey>ClusterName</OutputKey><OutputValue>%3$s</OutputValue></member>
                        </Outputs>
                      </member>
                    </Stacks>
                  </DescribeStacksResult>
                  <ResponseMetadata><RequestId>5d1c8a3e-0000-4000-8000-000000000000</RequestId></ResponseMetadata>
                </DescribeStacksResponse>
                """.formatted(stack, table, cluster);
    }

    private static void node(String name, String cpu, String memory) {
        kube.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("karpenter.sh/nodepool", "seed000").addToLabels("node.kubernetes.io/instance-type", "t3a.xlarge")
                .addToLabels("topology.kubernetes.io/zone", "us-east-1a").addToLabels("karpenter.sh/capacity-type", "on-demand")
                .addToLabels("kubernetes.io/arch", "amd64").addToLabels("kubernetes.io/os", "linux").endMetadata()
                .withNewSpec().withProviderID("aws:///us-east-1a/i-" + name).endSpec()
                .withNewStatus().addToAllocatable("cpu", new Quantity(cpu)).addToAllocatable("memory", new Quantity(memory))
                .addToAllocatable("pods", new Quantity("58")).addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build()).create();
    }

    private static void pod(String name, String nodeName, boolean unschedulable, String cpu) {
        var b = new PodBuilder().withNewMetadata().withName(name).withNamespace("web")
                .withCreationTimestamp(NOW.minusSeconds(120).toString()).endMetadata()
                .withNewSpec().withNodeName(nodeName).addNewContainer().withName("c").withImage("pause")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().endSpec()
                .withNewStatus().withPhase(nodeName == null ? "Pending" : "Running");
        if (unschedulable) {
            b.addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition();
        }
        kube.pods().inNamespace("web").resource(b.endStatus().build()).create();
    }

    private static void event(String ns, String kind, String name, String type, String reason, String message, String component,
                              Instant at) {
        kube.v1().events().inNamespace(ns).resource(new EventBuilder().withNewMetadata().withNamespace(ns)
                .withName(name + "." + Long.toHexString(at.toEpochMilli())).endMetadata()
                .withNewInvolvedObject().withKind(kind).withName(name).withNamespace(kind.equals("Node") ? null : ns).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withLastTimestamp(at.toString()).withFirstTimestamp(at.toString())
                .withNewSource().withComponent(component).endSource().withReportingComponent(component).build()).create();
    }

    private int run(String... args) {
        return runAt(NOW, args);
    }

    private int runAt(Instant at, String... args) {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("status", "--region", "us-east-1", "--at", at.toString(),
                "--kubeconfig", kubeconfig.toString(), "--dynamodb-endpoint", DYNALITE.endpoint().toString(),
                "--cloudformation-endpoint", aws.endpoint().toString(),
                "--config", "../../samples/nodepools/seed000-v1.yaml", "--config", "../../samples/buffers/seed000-warm-weekdays.yaml",
                "--config", "../../samples/buffers/web-percentage.yaml"));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    @Test
    void findsTheTableAndClusterFromTheStackAndPrintsEverySection() {
        int code = run("--cluster", CLUSTER);
        assertThat(code).as(err.toString()).isZero();
        String table = out.toString();
        assertThat(table).contains("Gantry status at 2026-12-01T10:00:00Z");
        // The pool: two nodes, usage as the provisioner counted it against seed000's limits (cpu 20, memory 100Gi).
        assertThat(table).contains("""
                  seed000: 2 nodes, 1 pod running, as the provisioner counted 30s ago
                    cpu      6/20           [######--------------] 30%
                    memory   24Gi/100Gi     [#####---------------] 24%
                    pods     58             (no limit)
                """);
        // Its $/h now at list price, the three live claims' (0.15 + 0.07 + 0.07), by capacity type.
        assertThat(table).contains("""
                    pods     58             (no limit)
                    cost     $0.2900/h (on-demand $0.2900)
                """);
        assertThat(table).contains("Launching       1   oldest nodeclaim/seed000-bbbbb (45s)",
                "Initialized     1   oldest nodeclaim/seed000-aaaaa (2h59m)", "Draining        1   oldest nodeclaim/seed000-ccccc (10m0s)");
        // Pending: Gantry's own Event explains api-1; a fresh plan explains huge; fresh is not yet Unschedulable.
        // (The mock server stamps its own creationTimestamp, later than --at, so the waiting times are not checked.)
        assertThat(table).contains("PENDING PODS (3)");
        assertThat(table).containsPattern("web/api-1 +\\S+ +Nominated: Pod should schedule on: nodeclaim/seed000-bbbbb");
        assertThat(table).containsPattern("web/huge +\\S+ +no instance type offers 64 cpu");
        assertThat(table).containsPattern("web/fresh +\\S+ +waiting for kube-scheduler \\(not marked Unschedulable\\)");
        assertThat(table).doesNotContain("kubelet says something");
        // Decisions, newest first: the launch 45 s ago, the drain, the spot warning, the launch 3 h ago.
        List<String> decisions = table.lines().dropWhile(l -> !l.startsWith("DECISIONS")).skip(1).takeWhile(l -> !l.isBlank()).toList();
        assertThat(decisions).hasSize(5);
        assertThat(decisions.get(0)).contains("launch", "nodeclaim/seed000-bbbbb", "launching t3a.large on-demand in us-east-1b for 1 pod (NodePool seed000)");
        assertThat(decisions.get(1)).contains("2026-12-01T09:55:00Z", "event", "node/ip-10-0-0-2", "SpotInterrupted: Spot interruption warning");
        assertThat(decisions.get(2)).contains("2026-12-01T09:50:00Z", "disruption", "nodeclaim/seed000-ccccc", "emptiness");
        // Buffers: seed 000's weekday buffer is open (10 chunks of 2 cpu); the web buffer read the Deployment's 40 replicas from the cluster.
        assertThat(table).containsPattern("default/weekday-morning +active +as many as fit in the limits -> 10 chunks of cpu=2 memory=8Gi pods=1");
        assertThat(table).containsPattern("shop/web-headroom +active +replicas 2, 20% of 40 = 8 -> 8 chunks of cpu=500m memory=1Gi pods=1");
    }

    /** Installs Karpenter's CRDs and seed 000's NodePool (with its status) and EC2NodeClass in the cluster. */
    private static void seed000InTheCluster() throws IOException {
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            kube.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class)).create();
        }
        for (HasMetadata o : Serialization.<List<HasMetadata>>unmarshal(
                Files.readString(Path.of("../../samples/nodepools/seed000-v1.yaml")))) {
            GenericKubernetesResource g = (GenericKubernetesResource) o;
            boolean pool = g.getKind().equals("NodePool");
            GenericKubernetesResource created = kube.genericKubernetesResources(pool ? KubeStatusObjects.NODE_POOLS
                    : KubeStatusObjects.EC2_NODE_CLASSES).resource(g).create();
            if (pool) {
                created.setAdditionalProperty("status", Map.of("nodes", 2, "resources", Map.of("cpu", "6", "memory", "24Gi"),
                        "conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Ready", "message", "",
                                "lastTransitionTime", "2026-12-01T09:00:00Z"), Map.of("type", "NodeRegistrationHealthy",
                                "status", "False", "reason", "LaunchFailed", "message", "InvalidBlockDeviceMapping: CreateFleet "
                                        + "launched no instance: Volume of size 2GB is smaller than snapshot 'snap-0f59', expect size >= 4GB",
                                "lastTransitionTime", "2026-12-01T09:30:00Z"))));
                kube.genericKubernetesResources(KubeStatusObjects.NODE_POOLS).resource(created).updateStatus();
            } else {
                created.setAdditionalProperty("status", Map.of("instanceProfile", "Gantry-demo-NodeInstanceProfile",
                        "conditions", List.of(Map.of("type", "SubnetsReady", "status", "True", "reason", "SubnetsReady",
                                        "message", "", "lastTransitionTime", "2026-12-01T09:00:00Z"),
                                Map.of("type", "InstanceProfileReady", "status", "True", "reason", "DeploymentNodeRole",
                                        "message", "role KarpenterNodeRole-demo is not a node role of this deployment, so nodes "
                                                + "run as its own (instance profile Gantry-demo-NodeInstanceProfile); deploy with "
                                                + "-c nodeRoles=KarpenterNodeRole-demo to launch them with it",
                                        "lastTransitionTime", "2026-12-01T09:00:00Z"),
                                Map.of("type", "Ready", "status", "True", "reason", "Ready", "message", "",
                                        "lastTransitionTime", "2026-12-01T09:00:00Z"))));
                kube.genericKubernetesResources(KubeStatusObjects.EC2_NODE_CLASSES).resource(created).updateStatus();
            }
        }
    }

    /** Undoes {@link #seed000InTheCluster}: deleting a CRD deletes its objects. */
    private static void noKarpenterObjects() {
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            kube.apiextensions().v1().customResourceDefinitions().withName(crd.crdName()).delete();
        }
        kube.genericKubernetesResources(KubeStatusObjects.NODE_POOLS).delete();
        kube.genericKubernetesResources(KubeStatusObjects.EC2_NODE_CLASSES).delete();
        kube.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).delete();
    }

    /**
     * The cluster's NodeOverlays price the fresh plan behind a pending pod's reason, as they price the provisioner's:
     * a 3.8-cpu pod fits a t3a.xlarge, which an overlay makes eleven times dearer, so the plan says t3a.2xlarge.
     */
    @Test
    void withoutConfigFilesTheClustersNodeOverlaysPriceThePlan() throws Exception {
        seed000InTheCluster();
        pod("wide", null, true, "3800m");
        try {
            assertThat(runWithoutConfig()).as(err.toString()).isZero();
            assertThat(out.toString()).containsPattern("web/wide +\\S+ +a fresh plan would launch t3a.xlarge \\(NodePool seed000\\)");
            kube.genericKubernetesResources(dev.gantry.kube.KubeConfigObjects.NODE_OVERLAYS).resource(Serialization.unmarshal("""
                    apiVersion: karpenter.sh/v1alpha1
                    kind: NodeOverlay
                    metadata: {name: xlarge-dear}
                    spec:
                      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [t3a.xlarge]}]
                      priceAdjustment: "+1000%"
                    """, GenericKubernetesResource.class)).create();
            out.getBuffer().setLength(0);
            assertThat(runWithoutConfig()).as(err.toString()).isZero();
            assertThat(out.toString()).containsPattern("web/wide +\\S+ +a fresh plan would launch t3a.2xlarge \\(NodePool seed000\\)");
        } finally {
            kube.pods().inNamespace("web").withName("wide").delete();
            kube.genericKubernetesResources(dev.gantry.kube.KubeConfigObjects.NODE_OVERLAYS).delete();
            noKarpenterObjects();
        }
    }

    private int runWithoutConfig() {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute("status", "--region", "us-east-1", "--at", NOW.toString(), "--kubeconfig", kubeconfig.toString(),
                "--dynamodb-endpoint", DYNALITE.endpoint().toString(), "--cloudformation-endpoint", aws.endpoint().toString(),
                "--cluster", CLUSTER);
    }

    @Test
    void withoutConfigFilesTheNodePoolsComeFromTheClusterWithTheirStatusAndTheNodeClaimObjects() throws Exception {
        seed000InTheCluster();
        try {
            kube.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).resource(Serialization.unmarshal("""
                    apiVersion: karpenter.sh/v1
                    kind: NodeClaim
                    metadata:
                      name: seed000-aaaaa
                      labels: {karpenter.sh/nodepool: seed000, node.kubernetes.io/instance-type: t3a.xlarge,
                               karpenter.sh/capacity-type: on-demand, topology.kubernetes.io/zone: us-east-1a}
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: seed000}
                      requirements: []
                    status:
                      nodeName: ip-10-0-0-1
                      conditions: [{type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2026-12-01T07:01:00Z"}]
                    """, GenericKubernetesResource.class)).create();
            GenericKubernetesResource claim = kube.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).withName("seed000-aaaaa").get();
            claim.setAdditionalProperty("status", Map.of("nodeName", "ip-10-0-0-1", "conditions", List.of(Map.of("type", "Ready",
                    "status", "True", "reason", "Ready", "message", "", "lastTransitionTime", "2026-12-01T07:01:00Z"))));
            kube.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).resource(claim).updateStatus(); // create drops status

            CommandLine cl = Gantry.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute("status", "--region", "us-east-1", "--at", NOW.toString(), "--kubeconfig", kubeconfig.toString(),
                    "--dynamodb-endpoint", DYNALITE.endpoint().toString(), "--cloudformation-endpoint", aws.endpoint().toString(),
                    "--cluster", CLUSTER);

            assertThat(code).as(err.toString()).isZero();
            String table = out.toString();
            // No --config: the pool and its limits were read from the cluster's NodePool, usage shown against them.
            assertThat(table).contains("seed000: 2 nodes, 1 pod running", "cpu      6/20");
            assertThat(table).contains("NODEPOOLS IN THE CLUSTER (1)", "seed000: 2 nodes, Ready True", "memory   24Gi/100Gi");
            // Karpenter's NodeRegistrationHealthy, shown when it says the pool's launches or registrations fail.
            assertThat(table).contains("    NodeRegistrationHealthy False: InvalidBlockDeviceMapping: CreateFleet launched no "
                    + "instance: Volume of size 2GB is smaller than snapshot 'snap-0f59', expect size >= 4GB");
            // The class's conditions that say more than "ready": here, the role it names runs as the stack's own.
            assertThat(table).contains("EC2NODECLASSES IN THE CLUSTER (1)\n  seed000: Ready True\n    InstanceProfileReady "
                    + "True (DeploymentNodeRole): role KarpenterNodeRole-demo is not a node role of this deployment, so nodes "
                    + "run as its own (instance profile Gantry-demo-NodeInstanceProfile); deploy with "
                    + "-c nodeRoles=KarpenterNodeRole-demo to launch them with it\n\n");
            assertThat(table).doesNotContain("SubnetsReady");
            assertThat(table).contains("NODECLAIMS IN THE CLUSTER (1)");
            assertThat(table).containsPattern("seed000-aaaaa +t3a.xlarge +on-demand +us-east-1a +ip-10-0-0-1 +True");
        } finally {
            noKarpenterObjects();
        }
    }

    /**
     * A scheduled buffer opens when the functions open it: by their boot lead (the table's claims' measured boot, 60 s
     * here, plus the sweep's minute), not by a fixed one. The weekday buffer's window is at 08:50; at 08:47 it is not
     * open yet (it opens at 08:48), where the old fixed 5 minutes said it was. {@code --boot-lead} still overrides.
     */
    @Test
    void aScheduledBufferOpensByTheDeployedBootLeadUnlessOneIsGiven() {
        Instant before = Instant.parse("2026-12-01T08:47:00Z");
        assertThat(runAt(before, "--cluster", CLUSTER)).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("default/weekday-morning +inactive");
        out.getBuffer().setLength(0);
        assertThat(runAt(before, "--cluster", CLUSTER, "--boot-lead", "5m")).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("default/weekday-morning +active");
        out.getBuffer().setLength(0);
        assertThat(runAt(Instant.parse("2026-12-01T08:48:00Z"), "--cluster", CLUSTER)).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("default/weekday-morning +active");
    }

    @Test
    void printsTheSameReportAsJsonForScripts() throws Exception {
        int code = run("--cluster", CLUSTER, "--output", "json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertThat(doc.get("at").asText()).isEqualTo("2026-12-01T10:00:00Z");
        JsonNode pool = doc.get("nodePools").get(0);
        assertThat(pool.get("name").asText()).isEqualTo("seed000");
        assertThat(pool.get("usage").get("cpu").get("used").asLong()).isEqualTo(6000);
        assertThat(pool.get("usage").get("cpu").get("limit").asLong()).isEqualTo(20000);
        assertThat(pool.get("usage").get("pods").get("limit").isNull()).isTrue();
        assertThat(doc.get("nodeClaims")).hasSize(3);
        assertThat(doc.get("pendingPods")).hasSize(3);
        assertThat(doc.get("pendingPods").findValuesAsText("source")).containsExactlyInAnyOrder("event", "plan", "none");
        assertThat(doc.get("buffers").get(0).get("state").asText()).isEqualTo("ACTIVE");
        assertThat(doc.get("buffers").get(0).get("cpuMillis").asLong()).isEqualTo(20000);
    }

    @Test
    void aStackThatDoesNotExistIsOneLineAndExitTwo() {
        int code = run("--stack", "Gantry-nope");
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).containsExactly("gantry status: stack Gantry-nope not found in this account and region "
                + "(pass --stack, or --region; or --table and --cluster without a stack)");
    }

    @Test
    void missingCredentialsAreOneLineAndExitTwo() {
        int code = run("--cluster", CLUSTER, "--profile", "gantry-test-profile-that-does-not-exist");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry status: no AWS credentials for profile "
                + "'gantry-test-profile-that-does-not-exist' in ~/.aws/config or ~/.aws/credentials");
        assertThat(err.toString()).doesNotContain("\tat ");
    }

    @Test
    void noCredentialsAnywhereIsOneShortLineThatSaysHowToProvideThem() {
        String id = System.clearProperty("aws.accessKeyId");
        String secret = System.clearProperty("aws.secretAccessKey");
        System.setProperty("aws.disableEc2Metadata", "true");
        System.setProperty("aws.sharedCredentialsFile", "/nonexistent/gantry-test-credentials");
        System.setProperty("aws.configFile", "/nonexistent/gantry-test-config");
        try {
            int code = run("--cluster", CLUSTER);
            assertThat(code).isEqualTo(2);
            assertThat(err.toString().lines()).containsExactly("gantry status: no AWS credentials: set AWS_ACCESS_KEY_ID and "
                    + "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (or --profile) naming a profile in ~/.aws/config (aws configure, aws sso login)");
        } finally {
            System.setProperty("aws.accessKeyId", id);
            System.setProperty("aws.secretAccessKey", secret);
            System.clearProperty("aws.disableEc2Metadata");
            System.clearProperty("aws.sharedCredentialsFile");
            System.clearProperty("aws.configFile");
        }
    }

    @Test
    void anEndpointThatDoesNotResolveNamesTheHostNotAMissingCause() {
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("status", "--region", "us-east-1", "--cluster", CLUSTER, "--kubeconfig", kubeconfig.toString(),
                "--cloudformation-endpoint", "http://gantry-test.invalid");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("gantry status: cannot reach AWS: the host gantry-test.invalid "
                + "does not resolve (no network, or a region without this service)");
    }

    @Test
    void tableAndClusterFlagsNeedNoStack() {
        int code = run("--table", TABLE, "--cluster", CLUSTER);
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Initialized     1");
    }

    @Test
    void aTableThatDoesNotExistIsOneLineAndExitTwo() {
        int code = run("--table", "no-such-table", "--cluster", CLUSTER);
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines()).singleElement().asString().startsWith("gantry status: DynamoDb: ");
    }

    @Test
    void anUnreachableClusterIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        int closedPort;
        try (var socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path config = dir.resolve("kubeconfig");
        Files.writeString(config, Files.readString(kubeconfig).replace(kube.getConfiguration().getMasterUrl(),
                "http://127.0.0.1:" + closedPort + "/"));
        CommandLine cl = Gantry.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("status", "--region", "us-east-1", "--at", NOW.toString(), "--kubeconfig", config.toString(),
                "--dynamodb-endpoint", DYNALITE.endpoint().toString(), "--table", TABLE, "--cluster", CLUSTER);
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines()).singleElement().asString().startsWith("gantry status: cannot read the cluster: ");
    }
}
