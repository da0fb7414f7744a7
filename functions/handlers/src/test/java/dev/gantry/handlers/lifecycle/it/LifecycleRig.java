package dev.gantry.handlers.lifecycle.it;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.ec2.Ec2CloudProvider;
import dev.gantry.aws.ec2.Ec2LauncherConfig;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.config.codec.EventBridgeCodec;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.handlers.InterruptionQueueHandler;
import dev.gantry.handlers.SweepHandler;
import dev.gantry.handlers.TerminationQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import dev.gantry.testing.AwsStub;
import dev.gantry.testing.Ec2Resources;
import dev.gantry.testing.Ec2State;
import dev.gantry.testing.JsonResponses;
import dev.gantry.testing.MutableClock;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The lifecycle handlers wired to real adapters, one fresh world per test: the fabric8 mock API server (CRUD, with
 * expectations first), the AWS stub's EC2, DynamoDB in dynalite (a partition per test) and SQS in ElasticMQ (queues
 * per test), all on one {@link MutableClock}. Register with {@code @RegisterExtension}.
 */
final class LifecycleRig implements BeforeEachCallback, AfterEachCallback {
    static final Instant START = Instant.parse("2025-06-01T12:00:01Z");
    static final AtomicInteger WORLDS = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    final MutableClock clock = new MutableClock(START);
    final SentMessages sent = new SentMessages();
    final ByteArrayOutputStream metricsOut = new ByteArrayOutputStream();
    final Map<String, NodePool> pools = new HashMap<>();
    KubernetesMockServer server;
    /** A plain client for setting the scene and reading results (never used inside a reply). */
    NamespacedKubernetesClient kube;
    AwsStub aws;
    DynamoNodeClaimStore store;
    KubeCluster cluster;
    /**
     * The services' reader: {@link #cluster}, except that one node's pods are filtered from the full list, because the
     * CRUD mock answers a {@code spec.nodeName} field selector with an empty list (the query the adapter sends is
     * tested in the kube module against an expectation).
     */
    ClusterReader reader;
    Ec2CloudProvider cloud;
    SqsClient sqs;
    String terminationQueue;
    String provisioningQueue;
    String clusterPartition;
    private final List<RecordedRequest> kubeRequests = new ArrayList<>();

    /** Every read from {@code c}, except that {@link ClusterReader#podsOn} keeps its filtering default. */
    static ClusterReader crudReader(KubeCluster c) {
        return new ClusterReader() {
            @Override public List<dev.gantry.core.model.Pod> pods() { return c.pods(); }
            @Override public List<dev.gantry.core.model.Node> nodes() { return c.nodes(); }
            @Override public java.util.Optional<dev.gantry.core.model.Node> findNode(String name) { return c.findNode(name); }
            @Override public List<dev.gantry.core.model.DaemonSet> daemonSets() { return c.daemonSets(); }
            @Override public List<dev.gantry.core.model.PodDisruptionBudget> podDisruptionBudgets() { return c.podDisruptionBudgets(); }
            @Override public java.util.Set<String> nodesWithVolumeAttachments() { return c.nodesWithVolumeAttachments(); }
            @Override public Map<String, Map<String, String>> namespaceLabels() { return c.namespaceLabels(); }
        };
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Emulators emulators = Emulators.shared(context);
        int world = WORLDS.incrementAndGet();
        clock.set(START);
        Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
        // Expectations and the dispatcher share one map, or expectations are never consulted (see kube's MockApi).
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        kube = server.createClient();
        cluster = new KubeCluster(KubeClients.forUrl(kube.getConfiguration().getMasterUrl()), clock);
        reader = crudReader(cluster);
        aws = AwsStub.start(Ec2State.withDefaults(), clock);
        var creds = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret"));
        Ec2Client ec2 = Ec2Client.builder().endpointOverride(aws.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        SsmClient ssm = SsmClient.builder().endpointOverride(aws.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).build();
        JsonResponses.EksCluster eks = JsonResponses.EksCluster.defaults();
        cloud = new Ec2CloudProvider(ec2, ssm, new Ec2LauncherConfig(Ec2State.CLUSTER, "1.33", eks.endpoint(), eks.caData(),
                eks.serviceCidr(), "gantry-node-profile", clock));
        clusterPartition = "it-" + world;
        store = new DynamoNodeClaimStore(emulators.dynalite.dynamoDbClient(), Emulators.TABLE, clusterPartition);
        sqs = SqsClient.builder().endpointOverride(emulators.sqs.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.addExecutionInterceptor(sent)).build();
        terminationQueue = sqs.createQueue(r -> r.queueName("termination-" + world)).queueUrl();
        provisioningQueue = sqs.createQueue(r -> r.queueName("provisioning-" + world + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        pools.clear();
        pools.put(Scene.POOL, Scene.pool(Map.of("gantry.dev/rebalance", "replace"), null));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        sqs.close();
        kube.close();
        server.destroy();
        aws.close();
    }

    // --- the handlers, built as the composition root builds them, from the rig's parts and current pools ---

    TerminationService terminationService() {
        return new TerminationService(reader, cluster, store, cloud, new SqsWorkQueue(sqs, terminationQueue), pools, clock);
    }

    QueueHints hints() {
        return new QueueHints(new SqsWorkQueue(sqs, provisioningQueue), new HintCodec(JSON), store, clusterPartition);
    }

    EmbeddedMetrics metrics() {
        return new EmbeddedMetrics(JSON, clusterPartition, new PrintStream(metricsOut, true));
    }

    InterruptionQueueHandler interruptionHandler() {
        return new InterruptionQueueHandler(new InterruptionService(store, reader, cluster, terminationService(), hints(), pools, clock),
                new EventBridgeCodec(JSON), metrics(), clock);
    }

    TerminationQueueHandler terminationHandler() {
        return new TerminationQueueHandler(terminationService(), new TerminationCodec(JSON), metrics(), clock);
    }

    SweepHandler sweepHandler() {
        InstanceFacts.Source facts = type -> Optional.empty();
        return new SweepHandler(new SweepService(Ec2State.CLUSTER, reader, cluster, store, cloud, terminationService(), hints(),
                pools, facts, clock), metrics(), clock);
    }

    // --- driving ---

    /** Delivers an interruption-queue event, as Lambda would. */
    SQSBatchResponse deliver(SQSEvent event) {
        return interruptionHandler().handleRequest(event, null);
    }

    /**
     * Receives the termination queue's waiting "continue" message, moves the clock by the delay it was sent with,
     * invokes the termination handler on it, and deletes it unless it failed (as the Lambda event source mapping does).
     */
    SQSBatchResponse continueTermination() {
        List<Message> got = sqs.receiveMessage(r -> r.queueUrl(terminationQueue).maxNumberOfMessages(10).waitTimeSeconds(1)).messages();
        if (got.size() != 1) {
            throw new AssertionError("expected one termination message waiting, got " + got.size());
        }
        Message m = got.getFirst();
        clock.advance(sent.delayOf(terminationQueue, m.body()));
        SQSBatchResponse response = terminationHandler().handleRequest(sqsEvent(m), null);
        if (response.getBatchItemFailures().isEmpty()) {
            sqs.deleteMessage(r -> r.queueUrl(terminationQueue).receiptHandle(m.receiptHandle()));
        }
        return response;
    }

    /** Messages waiting on a queue (visible ones; delays are stripped, so that is all of them). */
    List<Message> peek(String queueUrl) {
        return sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).visibilityTimeout(0)).messages();
    }

    private static SQSEvent sqsEvent(Message m) {
        SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
        record.setMessageId(m.messageId());
        record.setReceiptHandle(m.receiptHandle());
        record.setBody(m.body());
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(record));
        return e;
    }

    // --- EC2 ---

    /** An instance as CreateFleet would have left it for claim {@code claim}: running, tagged for this cluster. */
    String launchedInstance(String claim, Instant launchedAt) {
        return addInstance(Map.of("gantry.dev/cluster", Ec2State.CLUSTER, "gantry.dev/nodepool", Scene.POOL,
                "gantry.dev/nodeclaim", claim, "Name", claim), launchedAt);
    }

    String addInstance(Map<String, String> tags, Instant launchedAt) {
        String id = String.format("i-0%016x", 0x5eed0000L + aws.ec2().instances().size() + 1);
        aws.ec2().addInstance(new Ec2Resources.Instance(id, "m5.large", "us-east-1a", "subnet-0000000000000000a",
                "ami-0a1b2c3d4e5f60001", "spot", "running", launchedAt, "10.0.0.4", tags));
        return id;
    }

    /** Instance ids in the TerminateInstances requests so far, in order. */
    List<String> terminateRequests() {
        return aws.requests("TerminateInstances").stream().flatMap(r -> r.values("InstanceId").stream()).toList();
    }

    String instanceState(String id) {
        return aws.ec2().instance(id).orElseThrow().state();
    }

    // --- the API server ---

    /** Answers the next eviction of the pod with {@code code} (201 evicted, 429 blocked by a PDB, 404 gone). */
    void answerEviction(String namespace, String pod, int code) {
        server.expect().post().withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/eviction")
                .andReturn(code, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(code)
                        .withStatus(code < 300 ? "Success" : "Failure")
                        .withReason(code == 429 ? "TooManyRequests" : null).build()).once();
    }

    /** Every request the mock API server received so far, in order. */
    List<RecordedRequest> kubeRequests() {
        try {
            RecordedRequest r;
            while ((r = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
                kubeRequests.add(r);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(kubeRequests);
    }

    /** "METHOD path" of every request that changed something (not a GET). */
    List<String> kubeWrites() {
        return kubeRequests().stream().filter(r -> !r.getMethod().equals("GET"))
                .map(r -> r.getMethod() + " " + r.getPath().replaceFirst("\\?.*", "")).toList();
    }

    /** Pods (namespace/name) whose eviction was requested, in order, repeats included. */
    List<String> evictionRequests() {
        return kubeWrites().stream().filter(w -> w.startsWith("POST ") && w.endsWith("/eviction"))
                .map(w -> w.replaceFirst("POST /api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction", "$1/$2")).toList();
    }

    Optional<NodeClaim> claim(String name) {
        return store.get(name, clock.instant());
    }
}
