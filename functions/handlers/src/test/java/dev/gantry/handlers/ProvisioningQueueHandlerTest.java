package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.lifecycle.ProvisioningHints;
import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.testing.ElasticMq;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class ProvisioningQueueHandlerTest {
    private static ElasticMq elasticMq;

    @BeforeAll
    static void startElasticMq() {
        elasticMq = ElasticMq.start();
    }

    @AfterAll
    static void stopElasticMq() {
        elasticMq.close();
    }

    private static final Instant NOW = Instant.parse("2025-06-01T12:00:10Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String HINT = "{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"web\",\"uid\":\"u1\",\"at\":\"2025-06-01T12:00:00Z\"}";
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final FirstOfferingCloud cloud = new FirstOfferingCloud();
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ObjectMapper json = new ObjectMapper();

    static NodeClass nodeClass() {
        return new NodeClass("default", null, null, "AL2023", List.of(), List.of(), List.of(), "NodeRole", null, null, Map.of(),
                List.of(), null, null, null, null, null);
    }

    static NodePool pool() {
        return new NodePool("default", Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), null, null), null, Map.of(), null, null);
    }

    private static final GantryConfig CONFIG = new GantryConfig(List.of(pool()), List.of(nodeClass()), "us-east-1",
            List.of("us-east-1a", "us-east-1b"));
    private static final InstanceTypeProvider TYPES = BuiltInCatalog.load("us-east-1", List.of("us-east-1a", "us-east-1b"));

    private ProvisioningQueueHandler handler(ClusterReader reader) {
        Provisioner p = new Provisioner(reader, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        HintBatchService service = new HintBatchService(p, reader, store, n -> { }, CLOCK);
        return new ProvisioningQueueHandler(service, new HintCodec(json),
                new EmbeddedMetrics(json, "test-cluster", new PrintStream(stdout, true, StandardCharsets.UTF_8)), CLOCK,
                SnapStartPrimer.NONE);
    }

    private static SQSEvent batch(String... bodies) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (int i = 0; i < bodies.length; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("m" + (i + 1));
            m.setBody(bodies[i]);
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }

    private static List<String> failed(SQSBatchResponse r) {
        return r.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    @Test
    void malformedRecordFailsAloneAndTheRestProvisionOnce() {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());

        SQSBatchResponse r = handler(cluster).handleRequest(batch(HINT, "{not json", "{\"reason\":\"nope\"}", HINT), null);

        assertThat(failed(r)).containsExactly("m2", "m3");
        assertThat(cloud.requests).hasSize(1);
        // When the newest hint went out (10 s before the run), which is what the sweep's backstop counts from.
        assertThat(store.marker(ProvisioningHints.LAST_HINT)).hasValue(NOW.minusSeconds(10));
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains(
                "\"PendingPods\":1.0", "\"PendingPodAgeSeconds\":10.0", "\"NodesLaunched\":1.0",
                "\"Namespace\":\"Gantry\"", "\"ClusterName\":\"test-cluster\"");
    }

    @Test
    void aFailedRunRetriesThroughItsLastHintSoonAndAcknowledgesTheOtherHints() {
        List<String> redelivered = new ArrayList<>();
        Provisioner p = new Provisioner(new Unreachable(), cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, new Unreachable(), store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> redelivered.add(receipt + " " + after), Duration.ofSeconds(10));
        SQSEvent event = batch(HINT, "garbage", HINT);
        event.getRecords().forEach(m -> m.setReceiptHandle("r-" + m.getMessageId()));
        event.getRecords().get(2).setAttributes(Map.of("ApproximateReceiveCount", "3"));

        SQSBatchResponse r = h.handleRequest(event, null);

        assertThat(failed(r)).containsExactly("m2", "m3"); // the malformed record, and the one hint that carries the retry
        // Third receive: 10 s doubled twice is 40 s, capped at 20 s, less up to half (jitter).
        assertThat(redelivered).singleElement().asString().startsWith("r-m3 PT").satisfies(line -> assertThat(
                Duration.parse(line.substring("r-m3 ".length()))).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(20)));
        assertThat(cloud.requests).isEmpty();
    }

    @Test
    void aListenerLearnsWhatEachCompletedRunLaunchedAndNothingOfARunThatFailed() {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());
        List<dev.gantry.core.provisioning.ProvisioningOutcome> heard = new ArrayList<>();

        handler(cluster).withListener(heard::add).handleRequest(batch(HINT, HINT), null);

        assertThat(heard).singleElement().satisfies(o -> {
            assertThat(o.launched()).singleElement().satisfies(l -> assertThat(store.get(l.claim(), NOW)).isPresent());
            assertThat(o.failed()).isEmpty();
        });
        heard.clear();
        handler(new Unreachable()).withListener(heard::add).handleRequest(batch(HINT), null);
        assertThat(heard).isEmpty();
    }

    /**
     * Regression (chaos diurnal seed 7): two runs dying in a row each held the cluster's FIFO group for their remaining
     * time plus 15 s. With a heartbeat the batch is held for a 30 s lease, renewed while the run lives, and the
     * heartbeat is stopped before a failed run sets its retry's delay, so no renewal undoes it.
     */
    @Test
    void withAHeartbeatTheBatchIsHeldForAShortRenewedLeaseThatStopsBeforeTheRetryDelayIsSet() {
        List<String> log = new ArrayList<>();
        Provisioner p = new Provisioner(new Unreachable(), cluster, store, cloud, TYPES, CONFIG, CLOCK);
        Heartbeat heartbeat = (every, beat) -> {
            log.add("beating every " + every);
            beat.run(); // one renewal while the run lives
            return () -> log.add("stopped");
        };
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, new Unreachable(), store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> log.add(receipt + " " + after), Duration.ofSeconds(10),
                null, "c", heartbeat);
        SQSEvent event = batch(HINT, HINT);
        event.getRecords().forEach(m -> m.setReceiptHandle("r-" + m.getMessageId()));

        SQSBatchResponse r = h.handleRequest(event, remaining(59_500));

        assertThat(failed(r)).containsExactly("m2");
        assertThat(log).hasSize(7);
        assertThat(log.subList(0, 6)).containsExactly("r-m1 PT30S", "r-m2 PT30S", "beating every PT7S",
                "r-m1 PT30S", "r-m2 PT30S", "stopped");
        assertThat(log.getLast()).startsWith("r-m2 PT").isNotEqualTo("r-m2 PT30S");
    }

    @Test
    void aLeaseNeverOutlastsTheInvocationsDeadlinePlusTheMargin() {
        List<String> log = new ArrayList<>();
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> log.add(receipt + " " + after), Duration.ofSeconds(10),
                null, "c", (every, beat) -> () -> { });
        SQSEvent event = batch(HINT);
        event.getRecords().forEach(m -> m.setReceiptHandle("r-" + m.getMessageId()));

        h.handleRequest(event, remaining(5_000));

        assertThat(log).containsExactly("r-m1 PT20S"); // 5 s left plus 15 s, not the 30 s lease
    }

    /**
     * Regression (#11, found by the simulator's crash and timeout faults): a provisioner invocation that dies (its
     * timeout, a runtime crash) answers nothing, so its batch held the cluster's FIFO group for the queue's six-minute
     * visibility timeout. The batch is now held only for the invocation's remaining time plus a margin.
     */
    @Test
    void everyRecordIsHeldOnlyForTheInvocationsRemainingTimeSoADeadInvocationReleasesTheGroupSoon() {
        List<String> redelivered = new ArrayList<>();
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> redelivered.add(receipt + " " + after), Duration.ofSeconds(10));
        SQSEvent event = batch(HINT, HINT);
        event.getRecords().forEach(m -> m.setReceiptHandle("r-" + m.getMessageId()));

        SQSBatchResponse r = h.handleRequest(event, remaining(59_500));

        assertThat(failed(r)).isEmpty();
        assertThat(redelivered).containsExactly("r-m1 PT1M15S", "r-m2 PT1M15S"); // 59.5 s + 15 s, in whole seconds
    }

    /**
     * Regression (#11, found by the simulator's scale burst): a run with hundreds of launches ran past the provisioner's
     * 60 s timeout and was killed; it now starts no launch unless it ends inside 70% of the invocation
     * ({@link ProvisioningQueueHandler#SLOWEST_LAUNCH} and the pod Events after it), acknowledges its batch, and sends
     * a fresh hint for the next run, which launches the rest.
     */
    @Test
    void aRunOutOfTimeLaunchesNothingMoreAcknowledgesItsBatchAndSendsAFreshHintForTheNextRun() {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());
        List<String> redelivered = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> redelivered.add(receipt + " " + after), Duration.ofSeconds(10),
                (body, group, dedup, delay) -> sent.add(group + " " + dedup.length() + " " + delay + " " + body), "c");
        SQSEvent event = batch(HINT, HINT);
        event.getRecords().forEach(m -> m.setReceiptHandle("r-" + m.getMessageId()));

        // 20 s left: 70% is 14 s, less than a launch and its Events need.
        SQSBatchResponse r = h.handleRequest(event, remaining(20_000));

        assertThat(cloud.requests).isEmpty();
        assertThat(store.list(NOW)).isEmpty();
        assertThat(failed(r)).as("the whole batch acknowledged").isEmpty();
        assertThat(redelivered).containsExactly("r-m1 PT35S", "r-m2 PT35S"); // only the holds: nothing redelivered at once
        assertThat(sent).singleElement().satisfies(m -> assertThat(m).startsWith("c 64 PT0S ")
                .contains("\"reason\":\"continue\""));
        String continuation = sent.getFirst().substring(sent.getFirst().indexOf('{'));
        assertThat(handler(cluster).handleRequest(batch(continuation), remaining(60_000)).getBatchItemFailures()).isEmpty();
        assertThat(cloud.requests).hasSize(1);
    }

    /**
     * A run whose three plans all found no capacity (each CreateFleet refused its cheapest offering) leaves its pods
     * pending with other offerings untried: it acknowledges its batch and sends a retry hint at once. Before, the pods
     * waited for the next hint or the sweep's backstop (84-148 s in a spot storm on a pool without a split).
     */
    @Test
    void aRunShortOfCapacitySendsAFreshHintForTheNextRun() {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());
        List<String> sent = new ArrayList<>();
        List<LaunchRequest> tried = new ArrayList<>();
        CloudProvider refusing = new CloudProvider() {
            @Override
            public LaunchResult launch(LaunchRequest r) {
                tried.add(r);
                Offering o = r.options().get(0).cheapestOffering(r.requirements());
                throw new InsufficientCapacity("InsufficientInstanceCapacity",
                        List.of(new OfferingKey(r.options().get(0).name(), o.zone(), o.capacityType())));
            }

            @Override public void terminate(List<String> ids) { }
            @Override public List<CloudInstance> listInstances() { return List.of(); }
            @Override public java.util.Optional<CloudInstance> describe(String id) { return java.util.Optional.empty(); }
        };
        Provisioner p = new Provisioner(cluster, cluster, store, refusing, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, (receipt, after) -> { }, Duration.ofSeconds(10),
                (body, group, dedup, delay) -> sent.add(group + " " + delay + " " + body), "c");

        SQSBatchResponse r = h.handleRequest(batch(HINT), remaining(60_000));

        assertThat(tried).hasSize(Provisioner.MAX_ROUNDS);
        assertThat(failed(r)).as("the batch acknowledged").isEmpty();
        assertThat(sent).singleElement().satisfies(m -> assertThat(m).startsWith("c PT0S ")
                .contains("\"reason\":\"capacity-retry\""));

        // The retry finds no capacity either and asks for the next: the chain goes on while offerings are left to try.
        String retry = sent.getFirst().substring(sent.getFirst().indexOf('{'));
        assertThat(failed(h.handleRequest(batch(retry), remaining(60_000)))).isEmpty();
        assertThat(tried).hasSize(2 * Provisioner.MAX_ROUNDS);
        assertThat(sent).hasSize(2);
    }

    /**
     * Regression (#11 §7): a run that ran out of time used to report its batch's last hint failed, so the same message
     * came back with one more receive each time; a burst needing more runs than the queue's maxReceiveCount would
     * dead-letter it. Against ElasticMQ with a redrive policy of 2 receives, four runs out of time in a row continue
     * through fresh messages, and the fifth launches. The provisioner's client is signed as the provisioner, so infra's
     * IamContractTest checks its SendMessage to its own queue against the provisioner role's policies.
     */
    @Test
    void aBurstNeedingMoreRunsThanTheQueuesMaxReceiveCountNeverDeadLettersItsHint() throws Exception {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());
        SqsClient sqs = elasticMq.sqsClient();
        String id = String.valueOf(System.nanoTime());
        String dlq = sqs.createQueue(b -> b.queueName("provisioning-dlq-" + id + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String url = sqs.createQueue(b -> b.queueName("provisioning-" + id + ".fifo").attributes(Map.of(
                QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.VISIBILITY_TIMEOUT, "360",
                QueueAttributeName.REDRIVE_POLICY, "{\"maxReceiveCount\":\"2\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}"))).queueUrl();
        SqsClient asProvisioner = SqsClient.builder().endpointOverride(elasticMq.endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("provisioner", "secret")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new dev.gantry.testing.IamCallRecorder())).build();
        SqsWorkQueue queue = new SqsWorkQueue(asProvisioner, url);
        new SqsWorkQueue(sqs, url).send(HINT, "cluster", "d0", Duration.ZERO);
        Provisioner p = new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, cluster, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, queue, Duration.ofSeconds(1), queue, "cluster");

        int runs = 0;
        for (int run = 1; run <= 5 && sqsHasVisible(sqs, url); run++) {
            deliver(sqs, url, h, 1, remaining(run < 5 ? 20_000 : 60_000)); // four runs out of time, then one with time
            runs++;
        }

        assertThat(sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(1)).messages()).as("dead letters").isEmpty();
        assertThat(runs).isEqualTo(5);
        assertThat(cloud.requests).hasSize(1);
        asProvisioner.close();
    }

    private static com.amazonaws.services.lambda.runtime.Context remaining(int millis) {
        return (com.amazonaws.services.lambda.runtime.Context) java.lang.reflect.Proxy.newProxyInstance(
                ProvisioningQueueHandlerTest.class.getClassLoader(),
                new Class<?>[] {com.amazonaws.services.lambda.runtime.Context.class},
                (proxy, method, args) -> method.getName().equals("getRemainingTimeInMillis") ? millis : null);
    }

    @Test
    void theRetryDelayDoublesPerReceiveUpToTwentySeconds() {
        Duration first = ProvisioningQueueHandler.RETRY_DELAY;
        assertThat(ProvisioningQueueHandler.retryDelay(first, 1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(ProvisioningQueueHandler.retryDelay(first, 2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(ProvisioningQueueHandler.retryDelay(first, 3)).isEqualTo(Duration.ofSeconds(20));
        assertThat(ProvisioningQueueHandler.retryDelay(first, 4)).isEqualTo(Duration.ofSeconds(20));
        assertThat(ProvisioningQueueHandler.retryDelay(first, 1000)).isEqualTo(Duration.ofSeconds(20));
    }

    /**
     * Regression (#11, the throttle-blip measurements): with 10 s doubling to 2 minutes, the step under way when an EC2
     * fault ended was up to 40 s for a 60 s fault and 2 minutes for a longer one, all of it waited after the fault was
     * over. Whatever the fault's length (up to 3 minutes) and however long a failing run takes, the first run after
     * the fault now starts within the run that was under way at its end plus one capped step (at most 20 s).
     */
    @Test
    void afterAnEc2FaultEndsTheNextRunStartsWithinOneRunAndTwentySeconds() {
        for (int runSeconds : new int[] {2, 5, 12}) {
            for (int fault = 10; fault <= 180; fault++) {
                long t = 0;
                int receive = 1;
                while (t < fault) { // a run that starts during the fault fails
                    Duration wait = ProvisioningQueueHandler.retryDelay(ProvisioningQueueHandler.RETRY_DELAY, receive++);
                    t += runSeconds + wait.toSeconds(); // the longest wait jitter allows
                }
                assertThat(t - fault).as("fault %d s, runs of %d s", fault, runSeconds).isLessThanOrEqualTo(runSeconds + 20);
            }
        }
    }

    @Test
    void aRetryWaitsBetweenHalfAndAllOfItsDelayInWholeSecondsAndHintsSpreadOut() {
        java.util.Set<Duration> seen = new java.util.HashSet<>();
        for (int i = 0; i < 200; i++) {
            Duration d = ProvisioningQueueHandler.jittered(Duration.ofSeconds(20), "m-" + i, 3);
            assertThat(d).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(20));
            assertThat(d.getNano()).isZero();
            seen.add(d);
        }
        assertThat(seen).as("spread over the range").hasSizeGreaterThan(8);
        assertThat(ProvisioningQueueHandler.jittered(Duration.ofSeconds(20), "m-1", 3))
                .as("reproducible").isEqualTo(ProvisioningQueueHandler.jittered(Duration.ofSeconds(20), "m-1", 3));
        assertThat(ProvisioningQueueHandler.jittered(Duration.ofSeconds(5), "m-1", 1)).isBetween(Duration.ofSeconds(3),
                Duration.ofSeconds(5));
    }

    /**
     * Regression: with the queue's six-minute visibility timeout, one throttled run held the cluster's FIFO group for
     * six minutes. Against ElasticMQ, the failed batch is retried within seconds and then provisions.
     */
    @Test
    void aTransientFailureIsRetriedWithinSecondsNotAfterTheSixMinuteVisibilityTimeout() throws Exception {
        cluster.putPod(Pod.builder("default", "web").uid("u1").requests(Resources.of(500, 512L << 20))
                .status(new Pod.Status("Pending", true, NOW.minusSeconds(10), null, null)).build());
        SqsClient sqs = elasticMq.sqsClient();
        String url = sqs.createQueue(b -> b.queueName("provisioning-" + java.util.UUID.randomUUID().toString().substring(0, 8) + ".fifo")
                .attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true", QueueAttributeName.VISIBILITY_TIMEOUT, "360"))).queueUrl();
        SqsWorkQueue queue = new SqsWorkQueue(sqs, url);
        for (int i = 0; i < 3; i++) {
            queue.send(HINT, "cluster", "d" + i, Duration.ZERO);
        }
        boolean[] throttled = {true};
        ClusterReader flaky = new DelegatingReader(cluster) {
            @Override
            public List<Pod> pods() {
                if (throttled[0]) {
                    throttled[0] = false;
                    throw new ClusterException(429, "too many requests", null);
                }
                return super.pods();
            }
        };
        Provisioner p = new Provisioner(flaky, cluster, store, cloud, TYPES, CONFIG, CLOCK);
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(p, flaky, store, n -> { }, CLOCK),
                new HintCodec(json), new EmbeddedMetrics(json, "c", new PrintStream(stdout, true, StandardCharsets.UTF_8)),
                CLOCK, SnapStartPrimer.NONE, queue, Duration.ofSeconds(1));

        assertThat(deliver(sqs, url, h, 3).getBatchItemFailures()).isNotEmpty(); // the throttled run
        SQSBatchResponse retried = deliver(sqs, url, h, 1);

        assertThat(retried.getBatchItemFailures()).isEmpty();
        assertThat(cloud.requests).hasSize(1);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(0)).messages()).isEmpty();
    }

    /** Whether a message becomes visible on the queue within 3 s (the attributes count it without receiving it). */
    private static boolean sqsHasVisible(SqsClient sqs, String url) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline) {
            String n = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
            if (!"0".equals(n)) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Receives up to {@code expected} messages within 8 s, runs the handler on them, then acks as Lambda does. */
    private static SQSBatchResponse deliver(SqsClient sqs, String url, ProvisioningQueueHandler h, int expected) throws Exception {
        return deliver(sqs, url, h, expected, null);
    }

    /** As above, in an invocation with {@code context}'s remaining time. */
    private static SQSBatchResponse deliver(SqsClient sqs, String url, ProvisioningQueueHandler h, int expected,
                                            com.amazonaws.services.lambda.runtime.Context context) throws Exception {
        List<software.amazon.awssdk.services.sqs.model.Message> got = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        while (got.size() < expected && System.nanoTime() < deadline) {
            got.addAll(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageSystemAttributeNamesWithStrings("ApproximateReceiveCount")).messages());
        }
        assertThat(got).as("messages visible within 8 s").hasSize(expected);
        SQSEvent event = new SQSEvent();
        event.setRecords(got.stream().map(m -> {
            SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
            r.setMessageId(m.messageId());
            r.setReceiptHandle(m.receiptHandle());
            r.setBody(m.body());
            r.setAttributes(Map.of("ApproximateReceiveCount", m.attributesAsStrings().getOrDefault("ApproximateReceiveCount", "1")));
            return r;
        }).toList());
        SQSBatchResponse response = h.handleRequest(event, context);
        Set<String> failed = new java.util.HashSet<>(failed(response));
        got.stream().filter(m -> !failed.contains(m.messageId()))
                .forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        return response;
    }

    @Test
    void batchOfOnlyMalformedRecordsDoesNotProvision() {
        SQSBatchResponse r = handler(new Unreachable()).handleRequest(batch("[]"), null);

        assertThat(failed(r)).containsExactly("m1");
        assertThat(store.marker(ProvisioningHints.LAST_HINT)).isEmpty();
    }

    @Test
    void emptyBatchSucceeds() {
        assertThat(failed(handler(cluster).handleRequest(new SQSEvent(), null))).isEmpty();
    }

    @Test
    void primerWarmsCodecCatalogueAndSchedulerWithoutTouchingTheWorld() {
        List<String> calls = new ArrayList<>();
        ProvisionerPrimer primer = new ProvisionerPrimer(new HintCodec(json), CONFIG, TYPES, () -> calls.add("read"),
                () -> calls.add("refresh"));
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(
                new HintBatchService(new Provisioner(cluster, cluster, store, cloud, TYPES, CONFIG, CLOCK), cluster, store,
                        n -> { }, CLOCK), new HintCodec(json), new EmbeddedMetrics(json, "c", System.out), CLOCK, primer);

        h.beforeCheckpoint(null);
        h.afterRestore(null);

        assertThat(primer.primedPods()).isEqualTo(1);
        assertThat(calls).containsExactly("read", "refresh");
        assertThat(cloud.requests).isEmpty();
        assertThat(store.list(NOW)).isEmpty();
        assertThat(cluster.events()).isEmpty();
    }

    /** Forwards every read; tests override one to inject a failure. */
    private static class DelegatingReader implements ClusterReader {
        private final ClusterReader d;

        DelegatingReader(ClusterReader d) {
            this.d = d;
        }

        @Override public List<Pod> pods() { return d.pods(); }
        @Override public List<Node> nodes() { return d.nodes(); }
        @Override public List<DaemonSet> daemonSets() { return d.daemonSets(); }
        @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return d.podDisruptionBudgets(); }
        @Override public Set<String> nodesWithVolumeAttachments() { return d.nodesWithVolumeAttachments(); }
        @Override public Map<String, Map<String, String>> namespaceLabels() { return d.namespaceLabels(); }
    }

    /** An API server that does not answer. */
    private static final class Unreachable implements ClusterReader {
        private static ClusterException down() {
            return new ClusterException(0, "connection refused", null);
        }

        @Override public List<Pod> pods() { throw down(); }
        @Override public List<Node> nodes() { throw down(); }
        @Override public List<DaemonSet> daemonSets() { throw down(); }
        @Override public List<PodDisruptionBudget> podDisruptionBudgets() { throw down(); }
        @Override public Set<String> nodesWithVolumeAttachments() { throw down(); }
        @Override public Map<String, Map<String, String>> namespaceLabels() { throw down(); }
    }
}
