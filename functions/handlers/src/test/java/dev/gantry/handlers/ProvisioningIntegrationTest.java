package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.dynamodb.DynamoDemandHistoryStore;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.dynamodb.DynamoTables;
import dev.gantry.aws.ec2.Ec2CloudProvider;
import dev.gantry.aws.ec2.Ec2LauncherConfig;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.kube.KubeCluster;
import dev.gantry.kube.KubeClients;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Dynalite;
import dev.gantry.testing.Ec2Resources;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.IamCallRecorder;
import dev.gantry.testing.JsonResponses;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The provisioner handler with every real adapter: the fabric8 mock API server (CRUD) seeded with pending pods,
 * DynamoDB in dynalite, EC2/SSM through the real SDK against the AWS stub.
 */
class ProvisioningIntegrationTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String TABLE = "gantry";
    private static Dynalite dynalite;
    private static int clusters;
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private AwsStub stub;
    private DynamoNodeClaimStore store;
    private DynamoDbClient db;
    private Ec2Client ec2;
    private SsmClient ssm;
    private String clusterName;
    private ProvisioningQueueHandler handler;

    @BeforeAll
    static void startDynalite() {
        dynalite = Dynalite.start();
        DynamoTables.createTable(dynalite.dynamoDbClient(), TABLE);
    }

    @AfterAll
    static void stopDynalite() {
        dynalite.close();
    }

    @BeforeEach
    void start() {
        Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        client = server.createClient();
        stub = AwsStub.start(Ec2State.withDefaults(), CLOCK);
        // Signed as the provisioner function: the stub and the recorder attribute the calls to its role (infra's
        // IamContractTest checks them against that role's synthesized policies).
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("provisioner", "secret"));
        db = DynamoDbClient.builder().endpointOverride(dynalite.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new IamCallRecorder())).build();
        // A cluster name per test: the table is shared, the partition key keeps tests apart.
        clusterName = "cluster-" + (++clusters);
        store = new DynamoNodeClaimStore(db, TABLE, clusterName);
        ec2 = Ec2Client.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        ssm = SsmClient.builder().endpointOverride(stub.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        handler = handler(pool(), newCloud());
    }

    /** A fresh EC2 adapter, as a new Lambda instance builds it (empty caches). */
    private Ec2CloudProvider newCloud() {
        JsonResponses.EksCluster eks = JsonResponses.EksCluster.defaults();
        return new Ec2CloudProvider(ec2, ssm, new Ec2LauncherConfig(Ec2State.CLUSTER, "1.33", eks.endpoint(),
                eks.caData(), eks.serviceCidr(), "gantry-node-profile", CLOCK));
    }

    /** The provisioner handler as the composition root builds it, over {@code pool} and {@code cloud}. */
    private ProvisioningQueueHandler handler(NodePool pool, CloudProvider cloud) {
        KubeCluster cluster = new KubeCluster(KubeClients.forUrl(client.getConfiguration().getMasterUrl()), CLOCK);
        GantryConfig config = new GantryConfig(List.of(pool), List.of(nodeClass()), "us-east-1", Ec2State.ZONES);
        Provisioner provisioner = new Provisioner(cluster, cluster, store, cloud, BuiltInCatalog.load("us-east-1", Ec2State.ZONES),
                config, CLOCK).withDemandHistory(new DynamoDemandHistoryStore(db, TABLE, clusterName));
        ObjectMapper json = new ObjectMapper();
        return new ProvisioningQueueHandler(new HintBatchService(provisioner, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "test-cluster", new PrintStream(OutputStream.nullOutputStream())),
                CLOCK, SnapStartPrimer.NONE);
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
        stub.close();
        db.close();
    }

    static NodeClass nodeClass() {
        Map<String, String> discovery = Map.of(Ec2State.DISCOVERY_TAG, Ec2State.CLUSTER);
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", null,
                List.of(NodeClass.AmiSelectorTerm.alias("al2023@latest")), List.of(new NodeClass.SelectorTerm(null, null, discovery)),
                List.of(new NodeClass.SelectorTerm(null, null, discovery)), "KarpenterNodeRole", null, null,
                Map.of("team", "platform"), List.of(), null, null, null, null, null);
    }

    static NodePool pool() {
        return pool("general");
    }

    static NodePool pool(String name) {
        return new NodePool(name, Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(),
                List.of(Requirement.of(WellKnownLabels.INSTANCE_TYPE, Operator.In, "c5.large", "m5.large"),
                        Requirement.of(WellKnownLabels.CAPACITY_TYPE, Operator.In, "spot", "on-demand")),
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
    }

    private void pendingPod(String name, String cpu, String memory) {
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .withCreationTimestamp("2025-06-01T11:59:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("nginx")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build()).create();
    }

    private static SQSEvent hints(int n) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("m" + i);
            m.setBody("{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"p" + i + "\",\"uid\":\"u" + i
                    + "\",\"at\":\"2025-06-01T12:00:00Z\"}");
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    @Test
    void batchLaunchesOneFleetWithTheWholeRequestAndRecordsTheClaimLaunched() {
        for (int i = 0; i < 3; i++) {
            pendingPod("web-" + i, "500m", "512Mi");
        }

        SQSBatchResponse r = handler.handleRequest(hints(2), null);

        assertThat(r.getBatchItemFailures()).isEmpty();
        List<NodeClaim> claims = store.list(NOW);
        assertThat(claims).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(NodeClaimState.Launched);
            assertThat(c.instanceId()).isEqualTo(stub.ec2().instances().get(0).id());
            assertThat(c.instanceTypeOptions()).containsExactlyInAnyOrder("c5.large", "m5.large");
            assertThat(c.instanceType()).isEqualTo(c.instanceTypeOptions().get(0)); // the stub takes the first override
            assertThat(c.capacityType()).isEqualTo("spot");
            assertThat(c.pods()).containsExactlyInAnyOrder("default/web-0", "default/web-1", "default/web-2");
        });
        String claim = claims.get(0).name();
        String template = stub.lastRequest("CreateLaunchTemplate").param("LaunchTemplateName");
        Map<String, String> expected = new TreeMap<>();
        expected.put("ClientToken", claim);
        expected.put("Type", "instant");
        expected.put("TargetCapacitySpecification.TotalTargetCapacity", "1");
        expected.put("TargetCapacitySpecification.DefaultTargetCapacityType", "spot");
        expected.put("SpotOptions.AllocationStrategy", "price-capacity-optimized");
        expected.put("LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName", template);
        expected.put("LaunchTemplateConfigs.1.LaunchTemplateSpecification.Version", "$Latest");
        List<String> types = claims.get(0).instanceTypeOptions(); // cheapest first, as the plan ordered them
        String[][] subnets = {{"subnet-0000000000000000a", "us-east-1a"}, {"subnet-0000000000000000b", "us-east-1b"},
                {"subnet-0000000000000000c", "us-east-1c"}};
        int n = 0;
        for (String t : types) {
            for (String[] s : subnets) {
                String p = "LaunchTemplateConfigs.1.Overrides." + (++n) + ".";
                expected.put(p + "InstanceType", t);
                expected.put(p + "SubnetId", s[0]);
                expected.put(p + "AvailabilityZone", s[1]);
            }
        }
        String[][] tags = {{"Name", claim}, {"gantry.dev/cluster", Ec2State.CLUSTER}, {"gantry.dev/nodeclaim", claim},
                {"gantry.dev/nodepool", "general"}, {"team", "platform"}};
        String[] resources = {"instance", "volume", "fleet"};
        for (int res = 0; res < resources.length; res++) {
            String p = "TagSpecification." + (res + 1) + ".";
            expected.put(p + "ResourceType", resources[res]);
            for (int t = 0; t < tags.length; t++) {
                expected.put(p + "Tag." + (t + 1) + ".Key", tags[t][0]);
                expected.put(p + "Tag." + (t + 1) + ".Value", tags[t][1]);
            }
        }
        Map<String, String> sent = new TreeMap<>(stub.lastRequest("CreateFleet").params());
        sent.remove("Action");
        sent.remove("Version");
        assertThat(sent).containsExactlyEntriesOf(expected);
        assertThat(stub.requests("CreateFleet")).hasSize(1);
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(e -> e.getReason() + " " + e.getInvolvedObject().getName() + ": " + e.getMessage())
                .containsExactlyInAnyOrder(
                        "Nominated web-0: Pod should schedule on: nodeclaim/" + claim,
                        "Nominated web-1: Pod should schedule on: nodeclaim/" + claim,
                        "Nominated web-2: Pod should schedule on: nodeclaim/" + claim);
    }

    /**
     * Regression (#21): a NodePool name of 49 or more characters made claim names (and so CreateFleet ClientTokens)
     * longer than EC2's 64 characters, and 58 or more did so for every claim: EC2 refused each launch and the pods
     * never got a node. Names are now at most 63 characters (a label value's limit: they are the nodeclaim label).
     */
    @Test
    void aNodePoolWithASixtyThreeCharacterNameLaunchesUnderClientTokensEc2Accepts() {
        String name = "batch-" + "x".repeat(57);
        assertThat(name).hasSize(63);
        handler = handler(pool(name), newCloud());
        for (String zone : Ec2State.ZONES) { // the first launch fails for good: its claim is closed, its name spent
            stub.ec2().failLaunches("c5.large", zone, "InvalidFleetConfiguration");
            stub.ec2().failLaunches("m5.large", zone, "InvalidFleetConfiguration");
        }
        pendingPod("web-0", "500m", "512Mi");
        handler.handleRequest(hints(1), null);
        stub.ec2().clearLaunchFailures();

        SQSBatchResponse r = handler.handleRequest(hints(1), null);

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(stub.requests("CreateFleet")).hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(f -> assertThat(f.param("ClientToken")).hasSizeLessThanOrEqualTo(64));
        assertThat(store.list(NOW)).filteredOn(c -> c.state() == NodeClaimState.Launched).singleElement().satisfies(c -> {
            assertThat(c.name()).startsWith("batch-xxx").hasSizeLessThanOrEqualTo(63);
            assertThat(c.nodePool()).isEqualTo(name);
            assertThat(stub.lastRequest("CreateFleet").param("ClientToken")).isEqualTo(c.name());
        });
        assertThat(stub.ec2().instances()).hasSize(1);
    }

    /**
     * Regression (#21): a batch resumed after its run died between CreateFleet and the store writes rebuilt the call
     * (here a new subnet with more free addresses: another override), so EC2 answered IdempotentParameterMismatch; the
     * adapter then looked the instances up by tag, DescribeInstances did not list them yet, and the claims were closed
     * while their instances ran. The resume now sends what the first call sent, recorded with the batch before it.
     */
    @Test
    void aBatchResumedAfterItsRunDiedSendsWhatItsFirstCallSentThoughTheSubnetsChanged() {
        stub.ec2().describeLag(java.time.Duration.ofMinutes(1)); // the clock is fixed: launched instances stay unlisted
        for (int i = 0; i < 3; i++) {
            pendingPod("big-" + i, "1500m", "1Gi"); // one a node: three claims planned alike, one CreateFleet of 3
        }
        handler = handler(pool(), new DiesAfterLaunch(newCloud()));
        assertThat(handler.handleRequest(hints(1), null).getBatchItemFailures()).isNotEmpty();
        assertThat(store.list(NOW)).hasSize(3).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launching));
        stub.ec2().addSubnet(new Ec2Resources.Subnet("subnet-0000000000000000d", "us-east-1a", "use1-az1",
                "vpc-0123456789abcdef0", "10.0.192.0/18", 60000, Map.of(Ec2State.DISCOVERY_TAG, Ec2State.CLUSTER)));

        handler = handler(pool(), newCloud()); // the next invocation, on a fresh Lambda instance
        SQSBatchResponse r = handler.handleRequest(hints(1), null);

        assertThat(r.getBatchItemFailures()).isEmpty();
        assertThat(stub.ec2().instances()).hasSize(3);
        assertThat(store.list(NOW)).hasSize(3).allSatisfy(c -> assertThat(c.state()).isEqualTo(NodeClaimState.Launched))
                .extracting(NodeClaim::instanceId).containsExactlyInAnyOrderElementsOf(
                        stub.ec2().instances().stream().map(Ec2Resources.Instance::id).toList());
        List<Map<String, String>> fleets = stub.requests("CreateFleet").stream().map(q -> (Map<String, String>) q.params()).toList();
        assertThat(fleets).hasSize(2);
        assertThat(fleets.get(1)).isEqualTo(fleets.get(0));
        assertThat(fleets.get(0)).doesNotContainValue("subnet-0000000000000000d");
    }

    /** The provisioner's view of EC2 when its invocation dies right after the first CreateFleet answered. */
    private static final class DiesAfterLaunch implements CloudProvider {
        private final CloudProvider cloud;
        private boolean died;

        DiesAfterLaunch(CloudProvider cloud) {
            this.cloud = cloud;
        }

        @Override
        public dev.gantry.core.cloud.LaunchResult launch(dev.gantry.core.cloud.LaunchRequest request) {
            return launch(request, prepare(request));
        }

        @Override
        public dev.gantry.core.cloud.LaunchParameters prepare(dev.gantry.core.cloud.LaunchRequest request) {
            return cloud.prepare(request);
        }

        @Override
        public dev.gantry.core.cloud.LaunchResult launch(dev.gantry.core.cloud.LaunchRequest request,
                                                         dev.gantry.core.cloud.LaunchParameters parameters) {
            dev.gantry.core.cloud.LaunchResult r = cloud.launch(request, parameters);
            if (!died) {
                died = true;
                throw new IllegalStateException("the invocation died before recording " + request.clientToken());
            }
            return r;
        }

        @Override
        public void terminate(List<String> instanceIds) {
            cloud.terminate(instanceIds);
        }

        @Override
        public List<dev.gantry.core.cloud.CloudInstance> listInstances() {
            return cloud.listInstances();
        }

        @Override
        public java.util.Optional<dev.gantry.core.cloud.CloudInstance> describe(String instanceId) {
            return cloud.describe(instanceId);
        }
    }

    @Test
    void redeliveredBatchLaunchesNothingMore() {
        pendingPod("web-0", "500m", "512Mi");

        handler.handleRequest(hints(1), null);
        handler.handleRequest(hints(1), null);
        handler.handleRequest(hints(1), null);

        assertThat(stub.ec2().instances()).hasSize(1);
        assertThat(store.list(NOW)).singleElement().extracting(NodeClaim::state).isEqualTo(NodeClaimState.Launched);
    }

    @Test
    void handlerTimeForOneThousandPendingPods() {
        for (int i = 0; i < 1000; i++) {
            pendingPod(String.format("load-%04d", i), "250m", "256Mi");
        }
        long t0 = System.nanoTime();
        SQSBatchResponse r = handler.handleRequest(hints(10), null);
        double ms = (System.nanoTime() - t0) / 1e6;

        assertThat(r.getBatchItemFailures()).isEmpty();
        int claims = store.list(NOW).size();
        System.out.printf("BENCH provisioner handler, 1000 pending pods: %.0f ms, %d claims launched, %d CreateFleet, %d events%n",
                ms, claims, stub.requests("CreateFleet").size(), client.v1().events().inNamespace("default").list().getItems().size());
        assertThat(claims).isPositive();
        assertThat(stub.ec2().instances()).hasSize(claims);

        // Again: every pod now fits an in-flight claim, so this is the read, the solve and 1000 Nominated events.
        long t1 = System.nanoTime();
        handler.handleRequest(hints(10), null);
        double again = (System.nanoTime() - t1) / 1e6;
        long t2 = System.nanoTime();
        int pods = new KubeCluster(KubeClients.forUrl(client.getConfiguration().getMasterUrl()), CLOCK).pods().size();
        double read = (System.nanoTime() - t2) / 1e6;
        System.out.printf("BENCH redelivery (no launches): %.0f ms; reading %d pods alone: %.0f ms%n", again, pods, read);
        assertThat(stub.ec2().instances()).hasSize(claims);
    }
}
