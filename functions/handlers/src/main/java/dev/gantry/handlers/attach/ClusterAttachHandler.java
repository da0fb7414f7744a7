package dev.gantry.handlers.attach;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.aws.eks.EksClusterInfo;
import dev.gantry.aws.eks.EksTokenProvider;
import dev.gantry.aws.s3.S3ConfigSource;
import dev.gantry.config.crd.AttachCrds;
import dev.gantry.config.deployment.ClusterManifests;
import dev.gantry.core.model.Node;
import dev.gantry.handlers.Environment;
import dev.gantry.kube.KubeClients;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.TooManyRequestsException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The {@code Custom::GantryClusterAttach} resource's handler, behind the CDK Provider framework (which reports to
 * CloudFormation; this returns {@code PhysicalResourceId} or throws). It takes nothing from its payload but the
 * request type: what it applies is {@link ClusterManifests} (compiled into this jar), and the webhook URL, token
 * secret and final-sweep function come from its environment ({@link Settings}), so an invoker can at most make it
 * re-apply Gantry's own objects or run the delete.
 *
 * <p>Create and Update ({@link #attach()}): refuse beside another active autoscaler ({@link Coexistence}); install
 * the CRDs, never downgrading or taking over one ({@link CrdInstall}); apply every object in order (create, or update
 * when present), pointing the webhooks at the Function URL + {@code hook/<token>} with the token's current value (a
 * token rotation is an Update); then seed the cluster with the deploy bundle ({@link BundleApply}). The result's
 * {@code Data.Report} says what each step did. Delete, in this order: removes the webhook configuration (no new
 * hints); runs the final sweep, which terminates every instance Gantry launched, retrying while the one-at-a-time
 * sweep is throttled; removes the {@value Node#FINALIZER} finalizer from every node still carrying it, since no Gantry
 * function will be left to release them; and only then removes the RBAC objects, which the sweep needed while it ran.
 * Delete never removes a CRD nor an object of one: deleting a CRD deletes every NodePool, EC2NodeClass, NodeClaim and
 * CapacityBuffer in the cluster, which belong to the user (and possibly to Karpenter).
 */
public final class ClusterAttachHandler implements RequestHandler<Map<String, Object>, Map<String, Object>>, org.crac.Resource {
    /** Left after the last final-sweep attempt for the finalizers and the RBAC deletes. */
    static final Duration CLEANUP_RESERVE = Duration.ofSeconds(30);
    private static final Duration DEFAULT_REMAINING = Duration.ofMinutes(5);

    /**
     * What the handler needs from its environment.
     *
     * @param deployBundle {@code s3://bucket/key} of the deploy bundle to apply, or null for none
     * @param gantryPools  the NodePools the user named as Gantry's (coexistence); empty for all
     */
    public record Settings(String clusterName, String webhookUrl, String tokenSecretArn, String finalSweepArn,
                           Duration finalSweepTimeout, String deployBundle, Set<String> gantryPools) {
        public Settings {
            gantryPools = Set.copyOf(gantryPools);
        }

        /** No bundle, and Gantry manages every NodePool. */
        public Settings(String clusterName, String webhookUrl, String tokenSecretArn, String finalSweepArn,
                        Duration finalSweepTimeout) {
            this(clusterName, webhookUrl, tokenSecretArn, finalSweepArn, finalSweepTimeout, null, Set.of());
        }

        static Settings from(Environment env) {
            return new Settings(env.require(Environment.CLUSTER_NAME), env.require(Environment.WEBHOOK_URL),
                    env.require(Environment.WEBHOOK_SECRET_ARN), env.require(Environment.FINAL_SWEEP_FUNCTION_ARN),
                    Duration.ofSeconds(Long.parseLong(env.require(Environment.FINAL_SWEEP_TIMEOUT_SECONDS))),
                    env.optional(Environment.DEPLOY_BUNDLE).orElse(null), env.nodePools());
        }
    }

    /**
     * What attach reads besides the cluster: the deploy bundle's text, and whether EKS Auto Mode compute is on.
     *
     * @param readBundle      the bundle's text at an {@code s3://} location
     * @param autoModeCompute whether the named cluster has Auto Mode compute enabled (DescribeCluster)
     */
    public record Sources(Function<String, String> readBundle, Predicate<String> autoModeCompute) {
        /** No bundle can be read, and Auto Mode is off (tests of the other steps). */
        static final Sources NONE = new Sources(url -> {
            throw new IllegalStateException("no bundle source");
        }, cluster -> false);
    }

    private final Settings settings;
    private final Function<String, KubernetesClient> clients;
    private final Function<String, String> secrets;
    private final FinalSweep.Invoke invokeSweep;
    private final FinalSweep finalSweep;
    private final Clock clock;
    private final Sources sources;
    private final FinalSweep.Sleeper sleeper;
    private final ObjectMapper json = new ObjectMapper();

    public ClusterAttachHandler() {
        this(Settings.from(Environment.system()), Region.of(Environment.system().require(Environment.REGION)));
        org.crac.Core.getGlobalContext().register(this);
    }

    private ClusterAttachHandler(Settings s, Region region) {
        this(s, cluster -> {
            EksClusterInfo info = EksClusterInfo.describe(EksClusterInfo.client(region), cluster);
            return KubeClients.forEks(info.endpoint(), info.certificateAuthorityData(),
                    new EksTokenProvider(cluster, region, DefaultCredentialsProvider.builder().build(), Clock.systemUTC()));
        }, arn -> {
            try (SecretsManagerClient sm = SecretsManagerClient.builder().region(region).httpClient(UrlConnectionHttpClient.create()).build()) {
                return sm.getSecretValue(r -> r.secretId(arn)).secretString();
            }
        }, () -> invoke(region, s.finalSweepArn(), s.finalSweepTimeout()), new FinalSweep(Clock.systemUTC(),
                d -> Thread.sleep(d.toMillis())), Clock.systemUTC(), new Sources(
                url -> {
                    try (S3Client s3 = S3ConfigSource.client(region)) {
                        return S3ConfigSource.of(s3, url).get();
                    }
                }, cluster -> {
                    try (EksClient eks = EksClusterInfo.client(region)) {
                        return AutoMode.computeEnabled(eks, cluster);
                    }
                }));
    }

    /** @param invokeSweep one synchronous invoke of the final sweep; throws {@link FinalSweep.Throttled} on 429 */
    ClusterAttachHandler(Settings settings, Function<String, KubernetesClient> clients, Function<String, String> secrets,
                         FinalSweep.Invoke invokeSweep, FinalSweep finalSweep, Clock clock) {
        this(settings, clients, secrets, invokeSweep, finalSweep, clock, Sources.NONE);
    }

    /** @param sources the bundle's and Auto Mode's readers */
    ClusterAttachHandler(Settings settings, Function<String, KubernetesClient> clients, Function<String, String> secrets,
                         FinalSweep.Invoke invokeSweep, FinalSweep finalSweep, Clock clock, Sources sources) {
        this.sources = sources;
        this.sleeper = d -> Thread.sleep(d.toMillis());
        this.settings = settings;
        this.clients = clients;
        this.secrets = secrets;
        this.invokeSweep = invokeSweep;
        this.finalSweep = finalSweep;
        this.clock = clock;
    }

    /**
     * SnapStart: build the manifests and unmarshal them, so Jackson and fabric8's serialization are loaded and warm.
     * No client is built and nothing is sent (clients are made per invocation, with fresh credentials and token).
     */
    @Override
    public void beforeCheckpoint(org.crac.Context<? extends org.crac.Resource> context) {
        primeSerialization();
    }

    @Override
    public void afterRestore(org.crac.Context<? extends org.crac.Resource> context) {
        // Nothing is cached across invocations, so nothing must be refreshed.
    }

    /** The work {@link #beforeCheckpoint} does; returns how many manifests it built (for tests). */
    int primeSerialization() {
        List<ObjectNode> manifests = AttachManifests.of(json, ClusterManifests.all(), "https://example.invalid/", "token");
        manifests.forEach(this::resource);
        return manifests.size();
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        String type = String.valueOf(event.get("RequestType"));
        String physicalId = "gantry-attach-" + settings.clusterName();
        int objects;
        switch (type) {
            case "Create", "Update" -> {
                AttachReport report = attach();
                System.out.println("attach:\n" + report.text());
                return Map.of("PhysicalResourceId", physicalId, "Data", Map.of("Objects", report.objects(),
                        "Report", report.summary()));
            }
            case "Delete" -> objects = delete(remaining(context));
            default -> throw new IllegalArgumentException("unknown RequestType " + type);
        }
        return Map.of("PhysicalResourceId", physicalId, "Data", Map.of("Objects", objects));
    }

    /**
     * Create and Update, in order: read and validate the bundle (a bad one fails before the cluster is touched);
     * refuse beside another active autoscaler ({@link Coexistence}); install the CRDs ({@link CrdInstall}); apply
     * the RBAC objects and the webhook configuration; seed the bundle ({@link BundleApply}).
     */
    private AttachReport attach() {
        String token = secrets.apply(settings.tokenSecretArn());
        List<ObjectNode> manifests = AttachManifests.of(json, ClusterManifests.all(), settings.webhookUrl(), token);
        String bundle = settings.deployBundle() == null ? null : sources.readBundle().apply(settings.deployBundle());
        if (bundle != null) {
            BundleApply.validate("deploy bundle " + settings.deployBundle(), bundle);
        }
        boolean autoMode = sources.autoModeCompute().test(settings.clusterName());
        try (KubernetesClient client = clients.apply(settings.clusterName())) {
            Coexistence.refusal(client, autoMode, settings.gantryPools(), clock.instant()).ifPresent(refusal -> {
                throw new IllegalStateException(refusal);
            });
            List<String> crds = new CrdInstall(client, clock, sleeper).run(AttachCrds.all());
            manifests.forEach(m -> apply(client, m));
            BundleApply.Outcome seeded = bundle == null ? null : new BundleApply(client).apply(bundle, settings.gantryPools());
            return new AttachReport(manifests.size(), crds, seeded);
        }
    }

    private int delete(Duration remaining) {
        // The token is not needed to delete, and the secret may already be gone; the URL is never applied.
        List<ObjectNode> manifests = new ArrayList<>(AttachManifests.of(json, ClusterManifests.all(), "https://unused/", "unused"));
        Collections.reverse(manifests);
        Instant lastStart = clock.instant().plus(remaining).minus(settings.finalSweepTimeout()).minus(CLEANUP_RESERVE);
        try (KubernetesClient client = clients.apply(settings.clusterName())) {
            manifests.stream().filter(AttachManifests::isWebhookConfiguration).forEach(m -> delete(client, m));
            int attempts = finalSweep.run(invokeSweep, lastStart);
            int released = releaseNodes(client);
            System.out.println("attach: final sweep ran (attempt " + attempts + "); released " + released + " nodes");
            manifests.stream().filter(m -> !AttachManifests.isWebhookConfiguration(m)).forEach(m -> delete(client, m));
        }
        return manifests.size();
    }

    /** Removes Gantry's finalizer from every node that has it; returns how many nodes were patched. */
    private int releaseNodes(KubernetesClient client) {
        int released = 0;
        for (var node : client.nodes().list().getItems()) {
            List<String> finalizers = node.getMetadata().getFinalizers();
            int i = finalizers == null ? -1 : finalizers.indexOf(Node.FINALIZER);
            if (i < 0) {
                continue;
            }
            // test-then-remove: if the list changed since the read, the patch fails instead of removing another's.
            String patch = "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/" + i + "\",\"value\":\"" + Node.FINALIZER
                    + "\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/" + i + "\"}]";
            try {
                client.nodes().withName(node.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON), patch);
                released++;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    throw e;
                }
            }
        }
        return released;
    }

    private static Duration remaining(Context context) {
        return context == null ? DEFAULT_REMAINING : Duration.ofMillis(context.getRemainingTimeInMillis());
    }

    private GenericKubernetesResource resource(ObjectNode manifest) {
        return Serialization.unmarshal(manifest.toString(), GenericKubernetesResource.class);
    }

    private void apply(KubernetesClient client, ObjectNode manifest) {
        client.resource(resource(manifest)).createOr(NonDeletingOperation::update);
    }

    private void delete(KubernetesClient client, ObjectNode manifest) {
        try {
            client.resource(resource(manifest)).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /**
     * One synchronous invoke. The read timeout outlasts the sweep's own timeout (the client's default 30 s would cut
     * a long sweep off), and the SDK does not retry: a retried invoke would only be throttled by the running one.
     */
    private static void invoke(Region region, String functionArn, Duration sweepTimeout) {
        try (LambdaClient lambda = LambdaClient.builder().region(region)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(sweepTimeout.plusSeconds(15)).build())
                .overrideConfiguration(o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry()))
                .build()) {
            InvokeResponse r = lambda.invoke(b -> b.functionName(functionArn)
                    .payload(SdkBytes.fromString("{\"finalSweep\":true}", StandardCharsets.UTF_8)));
            if (r.functionError() != null) {
                throw new IllegalStateException("the final sweep failed (" + r.functionError() + "): "
                        + r.payload().asUtf8String());
            }
        } catch (TooManyRequestsException e) {
            throw new FinalSweep.Throttled("the sweep is throttled (" + e.reasonAsString() + ")", e);
        }
    }
}
