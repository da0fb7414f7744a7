package dev.gantry.cli;

import dev.gantry.aws.dynamodb.DynamoDemandHistoryStore;
import dev.gantry.aws.dynamodb.DynamoNodeClaimStore;
import dev.gantry.cli.errors.AwsErrors;
import dev.gantry.cli.status.ClusterObjects;
import dev.gantry.cli.status.StackLocator;
import dev.gantry.cli.status.StatusException;
import dev.gantry.cli.status.StatusReport;
import dev.gantry.cli.status.StatusSources;
import dev.gantry.cli.status.StatusView;
import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.cluster.ClusterDocuments;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.model.KubeDuration;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code gantry status}: what a deployed Gantry is doing, read-only. The state table and the cluster name come from
 * the stack's outputs, or from flags; the cluster is reached through a kubeconfig. Exit 2, with one line, when the
 * stack, the credentials or the cluster cannot be reached.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a deployed Gantry: NodePools against their limits, NodeClaims, pending pods and why, "
                + "recent decisions, and headroom buffers.")
public final class StatusCommand implements Callable<Integer> {
    @Option(names = "--stack", description = "The Gantry stack (default: Gantry-<cluster>).")
    String stack;

    @Option(names = "--cluster", description = "The EKS cluster (default: the stack's ClusterName output).")
    String cluster;

    @Option(names = "--table", description = "The state table (default: the stack's TableName output).")
    String table;

    @Option(names = "--region", description = "AWS region (default: the SDK's region chain: AWS_REGION, the profile).")
    String region;

    @Option(names = "--profile", description = "AWS profile for credentials (default: the SDK's credential chain).")
    String profile;

    @Option(names = "--kubeconfig", description = "Kubeconfig for the cluster (default: KUBECONFIG or ~/.kube/config).")
    Path kubeconfig;

    @Option(names = "--config", description = "The configuration (NodePools, CapacityBuffers): file or directory "
            + "(default: the cluster's NodePools and EC2NodeClasses).")
    List<Path> config = new ArrayList<>();

    @Option(names = "--boot-lead", description = "How early scheduled buffers open (default: as the functions compute it, "
            + "the state table's claims' measured boot plus the sweep's rate).")
    String bootLead;

    @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    String output;

    @Option(names = "--at", hidden = true, description = "Report as of this instant (tests).")
    Instant at;

    @Option(names = "--dynamodb-endpoint", hidden = true, description = "DynamoDB endpoint (tests, emulators).")
    URI dynamoEndpoint;

    @Option(names = "--cloudformation-endpoint", hidden = true, description = "CloudFormation endpoint (tests).")
    URI cloudFormationEndpoint;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // The SDK and fabric8 log through SLF4J, which has no provider here: without this it warns on stderr.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (!output.equals("json") && !output.equals("table")) {
                throw new StatusException("'" + output + "' is not an output (table, json)");
            }
            Duration lead = lead();
            LoadResult loaded = ConfigLoader.load(config, LoadOptions.DEFAULT);
            if (!loaded.ok()) {
                loaded.errors().forEach(err::println);
                err.flush();
                return 2;
            }
            Instant now = at != null ? at : Instant.now();
            Region r = region();
            AwsCredentialsProvider credentials = profile != null ? ProfileCredentialsProvider.create(profile)
                    : DefaultCredentialsProvider.builder().build();
            StackLocator.Target target = target(r, credentials);
            try (DynamoDbClient dynamo = configure(DynamoDbClient.builder(), r, credentials, dynamoEndpoint).build();
                 KubernetesClient kube = kube()) {
                ClusterObjects.Read objects = ClusterObjects.read(kube);
                if (config.isEmpty() && !objects.poolDocuments().isEmpty()) {
                    loaded = fromCluster(objects, err); // the cluster's configuration, unless --config names files
                }
                var store = new DynamoNodeClaimStore(dynamo, target.table(), target.cluster());
                var demand = new DynamoDemandHistoryStore(dynamo, target.table(), target.cluster());
                StatusReport report = StatusReport.of(StatusSources.read(store, demand, kube, objects, loaded,
                        new CatalogSource(r.id(), null), now, lead));
                out.print(output.equals("json") ? StatusView.json(report)
                        : StatusView.table(report) + (objects.isEmpty() ? "" : ClusterObjects.table(objects)));
                out.flush();
                return 0;
            }
        } catch (StatusException e) {
            return fail(err, e.getMessage());
        } catch (SdkException e) {
            return fail(err, AwsErrors.describe(e));
        } catch (ClusterException | KubernetesClientException e) {
            return fail(err, "cannot read the cluster: " + firstLine(e.getMessage()));
        }
    }

    /**
     * The cluster's NodePools and EC2NodeClasses through the reader {@code gantry validate} uses; an object it refuses
     * is left out with a warning (the functions leave it out too), never failing status.
     */
    private static LoadResult fromCluster(ClusterObjects.Read objects, PrintWriter err) {
        LoadResult r = ClusterDocuments.read("cluster", objects.poolDocuments(), w -> err.println("warning: " + w));
        err.flush();
        return r;
    }

    private StackLocator.Target target(Region r, AwsCredentialsProvider credentials) {
        if (table != null && cluster != null && stack == null) {
            return new StackLocator.Target(null, table, cluster);
        }
        if (stack == null && cluster == null) {
            throw new StatusException("name the stack (--stack) or the cluster (--cluster; the stack is then Gantry-<cluster>)");
        }
        String name = stack != null ? stack : "Gantry-" + cluster;
        try (CloudFormationClient cf = configure(CloudFormationClient.builder(), r, credentials, cloudFormationEndpoint).build()) {
            return StackLocator.locate(cf, name, table, cluster);
        }
    }

    private <B extends software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, ?>
            & software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<B, ?>> B configure(B b, Region r,
                                                                                                 AwsCredentialsProvider c,
                                                                                                 URI endpoint) {
        b.region(r).credentialsProvider(c).httpClient(UrlConnectionHttpClient.create());
        if (endpoint != null) {
            b.endpointOverride(endpoint);
        }
        return b;
    }

    private Region region() {
        if (region != null) {
            return Region.of(region);
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException e) {
            throw new StatusException("no AWS region: pass --region or set AWS_REGION");
        }
    }

    /** The {@code --boot-lead} given, or null: the deployed rule over the store's claims ({@link StatusSources#read}). */
    private Duration lead() {
        if (bootLead == null) {
            return null;
        }
        try {
            return KubeDuration.parse(bootLead);
        } catch (IllegalArgumentException e) {
            throw new StatusException("--boot-lead: " + e.getMessage());
        }
    }

    private KubernetesClient kube() {
        Config c;
        if (kubeconfig != null) {
            try {
                c = Config.fromKubeconfig(Files.readString(kubeconfig));
            } catch (IOException e) {
                throw new StatusException("cannot read kubeconfig " + kubeconfig + ": "
                        + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
            }
        } else {
            c = Config.autoConfigure(null);
        }
        c.setRequestRetryBackoffLimit(1);
        c.setConnectionTimeout(10_000);
        c.setRequestTimeout(30_000);
        return new KubernetesClientBuilder().withConfig(c).build();
    }

    private static int fail(PrintWriter err, String message) {
        err.println("gantry status: " + message);
        err.flush();
        return 2;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
