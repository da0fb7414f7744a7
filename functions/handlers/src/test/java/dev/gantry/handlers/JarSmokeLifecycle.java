package dev.gantry.handlers;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.ec2.Ec2CloudProvider;
import dev.gantry.aws.ec2.Ec2LauncherConfig;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.aws.pricing.LiveInstanceTypeProvider;
import dev.gantry.aws.sqs.SqsWorkQueue;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.EventBridgeCodec;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.codec.QueueHints;
import dev.gantry.config.codec.TerminationCodec;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.interruption.InterruptionService;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.sweep.InstanceFacts;
import dev.gantry.core.sweep.SweepService;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * Runs from one lifecycle function's deployment jar (plus this class): builds that function's handler from the real
 * adapters, wired as the composition root wires them but pointed at the parent's emulators, runs its SnapStart
 * priming ({@link ProvisionerPrimer}, with the production primer's reads) and one invocation, and prints
 * {@code jar smoke ok <function> <result>}. A class the function loads but its jar lacks fails the run.
 *
 * <p>Arguments: {@code <provisioner|interruption|termination|sweep> <dynamoEndpoint> <table> <awsEndpoint> <kubeUrl>
 * <sqsEndpoint> <provisioningQueueUrl> <terminationQueueUrl> <configFile> <input>}; the input is the number of hints
 * (provisioner), the SQS body (interruption, termination) or ignored (sweep).
 */
public final class JarSmokeLifecycle {
    static final String CLUSTER = "test-cluster";
    /** Signed as the function under test (its short name, {@code a[0]}), as the IAM contract expects. */
    private static StaticCredentialsProvider CREDS;

    private JarSmokeLifecycle() {
    }

    public static void main(String[] a) throws Exception {
        CREDS = StaticCredentialsProvider.create(AwsBasicCredentials.create(a[0], "test"));
        Clock clock = Clock.systemUTC();
        ObjectMapper json = new ObjectMapper();
        URI aws = URI.create(a[3]);
        var store = new DynamoNodeClaimStore(DynamoNodeClaimStore.client(Region.US_EAST_1, URI.create(a[1]), CREDS), a[2], CLUSTER);
        Ec2Client ec2 = Ec2Client.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        SsmClient ssm = SsmClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).build();
        PricingClient pricing = PricingClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).build();
        SqsClient sqs = SqsWorkQueue.client(Region.US_EAST_1, URI.create(a[5]), CREDS);
        EksClusterInfo eks = EksClusterInfo.describe(EksClusterInfo.client(Region.US_EAST_1, aws, CREDS), CLUSTER);
        LoadResult loaded = ConfigLoader.loadString("GANTRY_CONFIG", Files.readString(Path.of(a[8])), LoadOptions.DEFAULT);
        if (!loaded.ok()) {
            throw new IllegalStateException("config: " + loaded.errors());
        }
        List<String> zones = List.of("us-east-1a", "us-east-1b", "us-east-1c");
        GantryConfig config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", zones);
        Map<String, NodePool> pools = config.nodePools().stream().collect(Collectors.toMap(NodePool::name, Function.identity()));
        InstanceTypeProvider types = LiveInstanceTypeProvider.create(BuiltInCatalog.load("us-east-1", zones), ec2, pricing, clock);
        Ec2CloudProvider cloud = new Ec2CloudProvider(ec2, ssm, new Ec2LauncherConfig(CLUSTER, eks.kubernetesVersion(), eks.endpoint(),
                eks.certificateAuthorityData(), eks.serviceCidr(), "gantry-node-profile", clock));
        KubeCluster cluster = new KubeCluster(KubeClients.forUrl(a[4]), clock);
        TerminationService termination = new TerminationService(cluster, cluster, store, cloud, new SqsWorkQueue(sqs, a[7]), pools, clock);
        QueueHints hints = new QueueHints(new SqsWorkQueue(sqs, a[6]), new HintCodec(json), store, CLUSTER);
        EmbeddedMetrics metrics = new EmbeddedMetrics(json, CLUSTER, System.out);

        // The production primer (ProvisionerPrimer.of): the solves, then every read a provisioning run makes.
        ProvisionerPrimer primer = new ProvisionerPrimer(new HintCodec(json), config, types, () -> {
            store.list(clock.instant());
            cluster.nodes();
            cluster.pods();
            cluster.daemonSets();
            cluster.podDisruptionBudgets();
            cluster.nodesWithVolumeAttachments();
            cluster.namespaceLabels();
            cloud.listInstances();
        }, () -> { });
        primer.beforeCheckpoint();
        primer.afterRestore();

        String result = switch (a[0]) {
            case "provisioner" -> {
                SweepService sweep = sweep(cluster, store, cloud, termination, hints, pools, types, config, clock);
                var h = new ProvisioningQueueHandler(new HintBatchService(new Provisioner(cluster, cluster, store, cloud, types, config,
                        clock), cluster, store, termination::startForDeletedNode, sweep::registerNodes, clock), new HintCodec(json),
                        metrics, clock, SnapStartPrimer.NONE);
                yield failures(h.handleRequest(hintBatch(Integer.parseInt(a[9])), null));
            }
            case "interruption" -> failures(new InterruptionQueueHandler(new InterruptionService(store, cluster, cluster, termination,
                    hints, pools, clock), new EventBridgeCodec(json), metrics, clock).handleRequest(event(a[9]), null));
            case "termination" -> failures(new TerminationQueueHandler(termination, new TerminationCodec(json), metrics, clock)
                    .handleRequest(event(a[9]), null));
            case "sweep" -> new SweepHandler(sweep(cluster, store, cloud, termination, hints, pools, types, config, clock), metrics, clock)
                    .handleRequest(Map.of(), null).toString();
            default -> throw new IllegalArgumentException("unknown function " + a[0]);
        };
        System.out.println("jar smoke ok " + a[0] + " " + result);
    }

    /** As Composition.sweep builds it: instance facts from the catalogue under the first NodeClass. */
    private static SweepService sweep(KubeCluster cluster, DynamoNodeClaimStore store, Ec2CloudProvider cloud, TerminationService termination,
                                      QueueHints hints, Map<String, NodePool> pools, InstanceTypeProvider types, GantryConfig config,
                                      Clock clock) {
        InstanceFacts.Source facts = type -> config.nodeClasses().stream().findFirst().flatMap(nc -> types.instanceTypes(nc).stream()
                .filter(it -> it.name().equals(type)).findFirst().map((InstanceType it) -> new InstanceFacts(it.labels(),
                        it.capacity().extended())));
        return new SweepService(CLUSTER, cluster, cluster, store, cloud, termination, hints, pools, facts, clock);
    }

    private static String failures(SQSBatchResponse r) {
        return "failures=" + r.getBatchItemFailures().size();
    }

    private static SQSEvent event(String body) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId("m0");
        m.setBody(body);
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(m));
        return e;
    }

    /** Pod-created hints for pods {@code web-0..n-1}, in the wire format. */
    private static SQSEvent hintBatch(int n) {
        List<SQSEvent.SQSMessage> records = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("m" + i);
            m.setBody("{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"web-" + i + "\",\"uid\":\"uid-web-" + i
                    + "\",\"at\":\"2025-06-01T12:00:00Z\"}");
            records.add(m);
        }
        SQSEvent e = new SQSEvent();
        e.setRecords(records);
        return e;
    }
}
