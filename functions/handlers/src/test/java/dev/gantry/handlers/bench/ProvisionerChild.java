package dev.gantry.handlers.bench;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.aws.ec2.Ec2CloudProvider;
import dev.gantry.aws.ec2.Ec2LauncherConfig;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.aws.pricing.LiveInstanceTypeProvider;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.handlers.ProvisionerPrimer;
import dev.gantry.handlers.ProvisioningQueueHandler;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/** The provisioner side of {@link PrimingChild}: the queue handler with every real adapter, wired as in production. */
final class ProvisionerChild {
    private static final String CLUSTER = PrimingChild.CLUSTER;
    private static final AwsCredentialsProvider CREDS = PrimingChild.CREDS;

    private ProvisionerChild() {
    }

    static PrimingChild.Handler build(String[] a) throws Exception {
        Clock clock = Clock.systemUTC();
        ObjectMapper json = new ObjectMapper();
        URI aws = URI.create(a[4]);
        var store = new DynamoNodeClaimStore(DynamoNodeClaimStore.client(Region.US_EAST_1, URI.create(a[2]), CREDS), a[3], CLUSTER);
        Ec2Client ec2 = Ec2Client.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        SsmClient ssm = SsmClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).build();
        PricingClient pricing = PricingClient.builder().endpointOverride(aws).region(Region.US_EAST_1).credentialsProvider(CREDS)
                .httpClient(UrlConnectionHttpClient.create()).build();
        // Init-time reads, as the composition root does them: the cluster description and the configuration text.
        EksClusterInfo eks = EksClusterInfo.describe(EksClusterInfo.client(Region.US_EAST_1, aws, CREDS), CLUSTER);
        LoadResult loaded = ConfigLoader.loadString("GANTRY_CONFIG", Files.readString(Path.of(a[6])), LoadOptions.DEFAULT);
        if (!loaded.ok()) {
            throw new IllegalStateException("config: " + loaded.errors());
        }
        List<String> zones = List.of("us-east-1a", "us-east-1b", "us-east-1c");
        GantryConfig config = new GantryConfig(loaded.nodePools(), loaded.nodeClasses(), "us-east-1", zones);
        InstanceTypeProvider types = LiveInstanceTypeProvider.create(BuiltInCatalog.load("us-east-1", zones), ec2, pricing, clock);
        Ec2CloudProvider cloud = new Ec2CloudProvider(ec2, ssm, new Ec2LauncherConfig(CLUSTER, eks.kubernetesVersion(), eks.endpoint(),
                eks.certificateAuthorityData(), eks.serviceCidr(), "gantry-node-profile", clock));
        KubeCluster cluster = new KubeCluster(KubeClients.forUrl(a[5]), clock);
        // The production primer's read-only calls (ProvisionerPrimer.of); the EKS token refresh has no token here.
        // "extended" adds the other reads a provisioning run makes (a proposal measured here, not production code).
        boolean extended = a[1].equals("extended");
        ProvisionerPrimer primer = new ProvisionerPrimer(new HintCodec(json), config, types, () -> {
            store.list(clock.instant());
            cluster.nodes();
            if (extended) {
                cluster.pods();
                cluster.daemonSets();
                cluster.podDisruptionBudgets();
                cluster.nodesWithVolumeAttachments();
                cluster.namespaceLabels();
                cloud.listInstances();
                config.nodeClasses().forEach(cloud::amis);
                ec2.describeSubnets(r -> r.maxResults(5));
                ec2.describeSecurityGroups(r -> r.maxResults(5));
            }
        }, () -> { });
        ProvisioningQueueHandler h = new ProvisioningQueueHandler(new HintBatchService(new Provisioner(cluster, cluster, store, cloud,
                types, config, clock), cluster, store, n -> { }, clock), new HintCodec(json),
                new EmbeddedMetrics(json, CLUSTER, System.out), clock, primer);
        SQSEvent event = hints(Integer.parseInt(a[7]));
        return new PrimingChild.Handler(() -> h.beforeCheckpoint(null), () -> h.afterRestore(null),
                () -> h.handleRequest(event, null).getBatchItemFailures().size());
    }

    /** A FIFO batch of pod-created hints for pods {@code web-0..n-1}, in the wire format, built without Jackson. */
    private static SQSEvent hints(int n) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
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
