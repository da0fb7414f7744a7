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
import dev.gantry.testing.IamCallRecorder;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
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
    /** The EC2 adapter of each function, signing as that function (see {@link #cloud(String)}). */
    private final Map<String, Ec2CloudProvider> clouds = new HashMap<>();
    /** The DynamoDB and SQS clients of each function (signing as it), recorded for the IAM contract too. */
    private final Map<String, DynamoNodeClaimStore> stores = new HashMap<>();
    private final Map<String, SqsClient> queues = new HashMap<>();
    private final List<AutoCloseable> functionClients = new ArrayList<>();
    private final IamCallRecorder iam = new IamCallRecorder();
    private Emulators emulators;
    /**
     * The services' reader: {@link #cluster}, except that one node's pods are filtered from the full list, because the
     * CRUD mock answers a {@code spec.nodeName} field selector with an empty list (the query the adapter sends is
     * tested in the kube module against an expectation).
     */
    ClusterReader reader;
    SqsClient sqs;
    /** EventBridge's side of the interruption queue: its sends are neither Gantry's messages nor a function's calls. */
    private SqsClient eventBridge;
    String terminationQueue;
    String interruptionQueue;
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
        emulators = Emulators.shared(context);
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
        clouds.clear();
        stores.clear();
        queues.clear();
        clusterPartition = "it-" + world;
        store = new DynamoNodeClaimStore(emulators.dynalite.dynamoDbClient(), Emulators.TABLE, clusterPartition);
        sqs = SqsClient.builder().endpointOverride(emulators.sqs.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.addExecutionInterceptor(sent)).build();
        eventBridge = SqsClient.builder().endpointOverride(emulators.sqs.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(creds).httpClient(UrlConnectionHttpClient.create()).build();
        terminationQueue = sqs.createQueue(r -> r.queueName("termination-" + world)).queueUrl();
        interruptionQueue = sqs.createQueue(r -> r.queueName("interruption-" + world)).queueUrl();
        provisioningQueue = sqs.createQueue(r -> r.queueName("provisioning-" + world + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        pools.clear();
        pools.put(Scene.POOL, Scene.pool(Map.of("gantry.dev/rebalance", "replace"), null));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        sqs.close();
        eventBridge.close();
        for (AutoCloseable c : functionClients) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        functionClients.clear();
        kube.close();
        server.destroy();
        aws.close();
    }

    /**
     * The EC2 adapter as the function {@code function} holds it: its clients sign with the function's short name as
     * access key id, so the AWS stub attributes each call to that function's role (infra's IamContractTest then
     * checks the call against that role's synthesized policies).
     */
    Ec2CloudProvider cloud(String function) {
        return clouds.computeIfAbsent(function, f -> {
            var creds = credentials(f);
            Ec2Client ec2 = Ec2Client.builder().endpointOverride(aws.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                    .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
            SsmClient ssm = SsmClient.builder().endpointOverride(aws.endpoint()).region(Region.US_EAST_1).credentialsProvider(creds)
                    .httpClient(UrlConnectionHttpClient.create()).build();
            JsonResponses.EksCluster eks = JsonResponses.EksCluster.defaults();
            return new Ec2CloudProvider(ec2, ssm, new Ec2LauncherConfig(Ec2State.CLUSTER, "1.33", eks.endpoint(), eks.caData(),
                    eks.serviceCidr(), Ec2State.NODE_INSTANCE_PROFILE, clock));
        });
    }

    private static StaticCredentialsProvider credentials(String function) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(function, "secret"));
    }

    /** The state store as {@code function} holds it (same table and partition as {@link #store}), signing as it. */
    DynamoNodeClaimStore store(String function) {
        return stores.computeIfAbsent(function, f -> {
            DynamoDbClient db = DynamoDbClient.builder().endpointOverride(emulators.dynalite.endpoint()).region(Region.US_EAST_1)
                    .credentialsProvider(credentials(f)).httpClient(UrlConnectionHttpClient.create())
                    .overrideConfiguration(c -> c.addExecutionInterceptor(iam)).build();
            functionClients.add(db);
            return new DynamoNodeClaimStore(db, Emulators.TABLE, clusterPartition);
        });
    }

    /** The SQS client of {@code function}, signing as it; its sends are in {@link #sent} as well. */
    SqsClient sqs(String function) {
        return queues.computeIfAbsent(function, f -> {
            SqsClient client = SqsClient.builder().endpointOverride(emulators.sqs.endpoint()).region(Region.US_EAST_1)
                    .credentialsProvider(credentials(f)).httpClient(UrlConnectionHttpClient.create())
                    .overrideConfiguration(c -> c.addExecutionInterceptor(sent).addExecutionInterceptor(iam)).build();
            functionClients.add(client);
            return client;
        });
    }

    // --- the handlers, built as the composition root builds them, from the rig's parts and current pools ---

    TerminationService terminationService() {
        return terminationService("termination");
    }

    /** The termination flow as {@code function} runs it (the interruption and sweep functions start it too). */
    TerminationService terminationService(String function) {
        return new TerminationService(reader, cluster, store(function), cloud(function),
                new SqsWorkQueue(sqs(function), terminationQueue), pools, clock);
    }

    /** Provisioning hints as {@code function} sends them. */
    QueueHints hints(String function) {
        return new QueueHints(new SqsWorkQueue(sqs(function), provisioningQueue), new HintCodec(JSON), store(function),
                clusterPartition);
    }

    EmbeddedMetrics metrics() {
        return new EmbeddedMetrics(JSON, clusterPartition, new PrintStream(metricsOut, true));
    }

    /**
     * As the composition root builds it: a failed record is brought back early with ChangeMessageVisibility on the
     * interruption queue, signed as the interruption function (so the IAM contract sees the call).
     */
    InterruptionQueueHandler interruptionHandler() {
        return new InterruptionQueueHandler(new InterruptionService(store("interruption"), reader, cluster, terminationService("interruption"), hints("interruption"), pools, clock),
                new EventBridgeCodec(JSON), metrics(), clock, new SqsWorkQueue(sqs("interruption"), interruptionQueue));
    }

    /** As the composition root builds it: its own queue re-enqueues the rest and brings a failed slice back early. */
    TerminationQueueHandler terminationHandler() {
        SqsWorkQueue own = new SqsWorkQueue(sqs("termination"), terminationQueue);
        return new TerminationQueueHandler(terminationService(), new TerminationCodec(JSON), metrics(), clock, own,
                TerminationQueueHandler.RESERVE, own);
    }

    /**
     * A Lambda context at the start of an invocation of {@code function}: its deployed timeout is left. With it, the
     * handlers hold each record only for the invocation (ChangeMessageVisibility), as they do in Lambda.
     */
    static com.amazonaws.services.lambda.runtime.Context invocation(String function) {
        int millis = Math.toIntExact(dev.gantry.config.deployment.DeploymentSettings.DEFAULT.function(function).timeout().toMillis());
        return (com.amazonaws.services.lambda.runtime.Context) java.lang.reflect.Proxy.newProxyInstance(
                LifecycleRig.class.getClassLoader(), new Class<?>[] {com.amazonaws.services.lambda.runtime.Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getRemainingTimeInMillis" -> millis;
                    case "getFunctionName" -> function;
                    case "getAwsRequestId" -> "req-" + function;
                    default -> null;
                });
    }

    SweepHandler sweepHandler() {
        InstanceFacts.Source facts = type -> Optional.empty();
        return new SweepHandler(new SweepService(Ec2State.CLUSTER, reader, cluster, store("sweep"), cloud("sweep"), terminationService("sweep"), hints("sweep"),
                pools, facts, clock), metrics(), clock, cloud("sweep")::collectLaunchTemplates);
    }

    /**
     * The provisioner as the composition root builds it, over the rig's pools (no NodeClass: enough for runs that find
     * nothing to launch), holding and retrying its hints on the FIFO provisioning queue as the provisioner function.
     */
    dev.gantry.handlers.ProvisioningQueueHandler provisioningHandler() {
        var config = new dev.gantry.core.provisioning.GantryConfig(List.copyOf(pools.values()), List.of(), "us-east-1", Ec2State.ZONES);
        var provisioner = new dev.gantry.core.provisioning.Provisioner(reader, cluster, store("provisioner"), cloud("provisioner"),
                dev.gantry.config.catalog.BuiltInCatalog.load("us-east-1", Ec2State.ZONES), config, clock);
        TerminationService termination = terminationService("provisioner");
        return new dev.gantry.handlers.ProvisioningQueueHandler(new dev.gantry.core.provisioning.HintBatchService(provisioner,
                reader, store("provisioner"), termination::startForDeletedNode, clock), new HintCodec(JSON), metrics(), clock,
                dev.gantry.handlers.SnapStartPrimer.NONE, new SqsWorkQueue(sqs("provisioner"), provisioningQueue),
                dev.gantry.handlers.ProvisioningQueueHandler.RETRY_DELAY);
    }

    /**
     * Sends one hint as the webhook would, receives it as the provisioner's event source mapping, invokes the
     * provisioner in an invocation, and deletes it unless it failed.
     */
    SQSBatchResponse provision(String hintJson) {
        eventBridge.sendMessage(s -> s.queueUrl(provisioningQueue).messageBody(hintJson).messageGroupId(clusterPartition)
                .messageDeduplicationId(java.util.UUID.randomUUID().toString()));
        Message m = receiveAll("provisioner", provisioningQueue, 1).getFirst();
        SQSBatchResponse response = provisioningHandler().handleRequest(sqsEvent(m), invocation("provisioner"));
        if (response.getBatchItemFailures().isEmpty()) {
            sqs("provisioner").deleteMessage(r -> r.queueUrl(provisioningQueue).receiptHandle(m.receiptHandle()));
        }
        return response;
    }

    // --- driving ---

    /**
     * Delivers an interruption-queue event, as EventBridge and Lambda would: each record's body is put on the ElasticMQ
     * interruption queue, received back by the event source mapping (with the function's role), handed to the handler
     * in an invocation (the records keep the event's message ids, with the queue's receipt handles), and deleted unless
     * it failed.
     */
    SQSBatchResponse deliver(SQSEvent event) {
        Map<String, SQSEvent.SQSMessage> byQueueId = new java.util.LinkedHashMap<>();
        for (SQSEvent.SQSMessage r : event.getRecords()) {
            byQueueId.put(eventBridge.sendMessage(s -> s.queueUrl(interruptionQueue).messageBody(r.getBody())).messageId(), r);
        }
        List<Message> got = receiveAll("interruption", interruptionQueue, byQueueId.size());
        for (Message m : got) {
            SQSEvent.SQSMessage record = byQueueId.get(m.messageId());
            record.setReceiptHandle(m.receiptHandle());
            record.setAttributes(Map.of("ApproximateReceiveCount", m.attributes().getOrDefault(
                    software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1")));
        }
        SQSBatchResponse response = interruptionHandler().handleRequest(event, invocation("interruption"));
        java.util.Set<String> failed = new java.util.HashSet<>();
        response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
        for (Message m : got) {
            if (!failed.contains(byQueueId.get(m.messageId()).getMessageId())) {
                sqs("interruption").deleteMessage(r -> r.queueUrl(interruptionQueue).receiptHandle(m.receiptHandle()));
            }
        }
        return response;
    }

    private List<Message> receiveAll(String function, String queueUrl, int n) {
        List<Message> got = new ArrayList<>();
        for (int polls = 0; got.size() < n && polls < 10; polls++) {
            got.addAll(sqs(function).receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageSystemAttributeNames(software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName
                            .APPROXIMATE_RECEIVE_COUNT)).messages());
        }
        if (got.size() != n) {
            throw new AssertionError("expected " + n + " messages on " + queueUrl + ", received " + got.size());
        }
        return got;
    }

    /**
     * Receives the termination queue's waiting "continue" message, moves the clock by the delay it was sent with,
     * invokes the termination handler on it, and deletes it unless it failed (as the Lambda event source mapping does).
     */
    SQSBatchResponse continueTermination() {
        // The event source mapping polls with the function's own role.
        List<Message> got = sqs("termination").receiveMessage(r -> r.queueUrl(terminationQueue).maxNumberOfMessages(10)
                .waitTimeSeconds(1).messageSystemAttributeNames(
                        software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
        if (got.size() != 1) {
            throw new AssertionError("expected one termination message waiting, got " + got.size());
        }
        Message m = got.getFirst();
        clock.advance(sent.delayOf(terminationQueue, m.body()));
        SQSBatchResponse response = terminationHandler().handleRequest(sqsEvent(m), invocation("termination"));
        if (response.getBatchItemFailures().isEmpty()) {
            sqs("termination").deleteMessage(r -> r.queueUrl(terminationQueue).receiptHandle(m.receiptHandle()));
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
        record.setAttributes(Map.of("ApproximateReceiveCount", m.attributes().getOrDefault(
                software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1")));
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(record));
        return e;
    }

    /** The IAM view of the SQS and DynamoDB calls the functions made so far (what infra's IamContractTest evaluates). */
    List<dev.gantry.testing.iam.IamCall> iamCalls() {
        return iam.calls();
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
