package dev.gantry.handlers.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.config.crd.AttachCrds;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.kube.KubeClients;
import dev.gantry.testing.MutableClock;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attach's Create/Update beyond RBAC and the webhook: the CRDs (never downgraded, never taken over), the refusal
 * beside another active autoscaler, and the deploy bundle's server-side apply. Against the fabric8 mock server in
 * CRUD mode, with server-side apply recorded by {@link ApplyRecordingDispatcher}.
 */
class AttachSeedingTest {
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    private static final String BUNDLE_URL = "s3://assets/bundle.yaml";
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private ApplyRecordingDispatcher dispatcher;
    private final MutableClock clock = new MutableClock(NOW);
    private final Map<String, String> bundles = new HashMap<>();
    private boolean autoMode;

    @BeforeEach
    void start() {
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> exp = new HashMap<>();
        dispatcher = new ApplyRecordingDispatcher(exp);
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), exp, dispatcher, false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private Map<String, Object> attach(String bundle, Set<String> pools) {
        String url = client.getConfiguration().getMasterUrl();
        if (bundle != null) {
            bundles.put(BUNDLE_URL, bundle);
        }
        var settings = new ClusterAttachHandler.Settings("prod", "https://abc.lambda-url.us-east-1.on.aws/", "arn:secret",
                "arn:aws:lambda:us-east-1:123456789012:function:sweep", Duration.ofSeconds(50),
                bundle == null ? null : BUNDLE_URL, pools);
        var handler = new ClusterAttachHandler(settings, cluster -> KubeClients.forUrl(url), arn -> "tok3n", () -> { },
                new FinalSweep(clock, d -> { }), clock, new ClusterAttachHandler.Sources(bundles::get, cluster -> autoMode));
        return handler.handleRequest(Map.of("RequestType", "Create"), null);
    }

    private Map<String, Object> attach() {
        return attach(null, Set.of());
    }

    @SuppressWarnings("unchecked")
    private static String report(Map<String, Object> out) {
        return String.valueOf(((Map<String, Object>) out.get("Data")).get("Report"));
    }

    private GenericKubernetesResource crd(String name) {
        return client.genericKubernetesResources(CrdInstall.CRDS).withName(name).get();
    }

    private Map<String, String> resourceVersions() {
        return AttachCrds.all().stream().collect(Collectors.toMap(AttachCrds.Manifest::name,
                m -> crd(m.name()).getMetadata().getResourceVersion()));
    }

    private void installCrd(String name, Map<String, String> annotations) {
        GenericKubernetesResource ours = Serialization.unmarshal(AttachCrds.all().stream().filter(m -> m.name().equals(name))
                .findFirst().orElseThrow().yaml(), GenericKubernetesResource.class);
        ours.getMetadata().setAnnotations(annotations);
        client.genericKubernetesResources(CrdInstall.CRDS).resource(ours).create();
    }

    private void lease(String namespace, String holder, Instant renewed) {
        GenericKubernetesResource lease = Serialization.unmarshal("""
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"karpenter-leader-election",
                 "namespace":"%s"},"spec":{"holderIdentity":"%s","leaseDurationSeconds":15,"renewTime":"%s"}}"""
                .formatted(namespace, holder, renewed.toString().replace("Z", ".123456Z")), GenericKubernetesResource.class);
        client.resource(lease).create();
    }

    private static String sample(String relative) throws IOException {
        Path p = Path.of("").toAbsolutePath();
        while (!Files.exists(p.resolve("samples"))) {
            p = p.getParent();
        }
        return Files.readString(p.resolve("samples").resolve(relative));
    }

    // --- CRDs -------------------------------------------------------------------------------------------------

    @Test
    void firstAttachInstallsTheFourCrdsAndASecondChangesNothing() {
        String first = report(attach());
        Map<String, String> versions = resourceVersions();

        String second = report(attach());

        assertThat(first).contains("CRD nodepools.karpenter.sh: installed (v1.14.1)",
                "CRD nodeclaims.karpenter.sh: installed", "CRD ec2nodeclasses.karpenter.k8s.aws: installed",
                "CRD capacitybuffers.autoscaling.x-k8s.io: installed");
        assertThat(resourceVersions()).isEqualTo(versions);
        assertThat(second).contains("CRD nodepools.karpenter.sh: up to date (v1.14.1)")
                .doesNotContain("installed (");
    }

    @Test
    void karpentersOwnCrdIsLeftAsItIsAndReported() {
        installCrd("nodepools.karpenter.sh", Map.of(CrdDecision.CONTROLLER_GEN, "v0.20.1", CrdDecision.HELM_RELEASE, "karpenter-crd"));
        String before = crd("nodepools.karpenter.sh").getMetadata().getResourceVersion();

        String report = report(attach());

        assertThat(crd("nodepools.karpenter.sh").getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(crd("nodepools.karpenter.sh").getMetadata().getAnnotations()).doesNotContainKey(KarpenterCrd.API_VERSION_ANNOTATION);
        assertThat(report).contains("CRD nodepools.karpenter.sh: left as is: installed by Helm release 'karpenter-crd'");
    }

    @Test
    void aNewerGantrysCrdIsNeverDowngradedAndAnOlderOneIsUpgraded() {
        installCrd("nodepools.karpenter.sh", Map.of(KarpenterCrd.API_VERSION_ANNOTATION, "v1.15.0"));
        installCrd("ec2nodeclasses.karpenter.k8s.aws", Map.of(KarpenterCrd.API_VERSION_ANNOTATION, "v1.13.2"));

        String report = report(attach());

        assertThat(crd("nodepools.karpenter.sh").getMetadata().getAnnotations())
                .containsEntry(KarpenterCrd.API_VERSION_ANNOTATION, "v1.15.0");
        assertThat(crd("ec2nodeclasses.karpenter.k8s.aws").getMetadata().getAnnotations())
                .containsEntry(KarpenterCrd.API_VERSION_ANNOTATION, "v1.14.1");
        assertThat(report).contains("nodepools.karpenter.sh: left as is: a newer Gantry installed it for v1.15.0",
                "ec2nodeclasses.karpenter.k8s.aws: upgraded from v1.13.2 to v1.14.1");
    }

    @Test
    void releasesCompareAsVersionsNotAsText() {
        assertThat(CrdDecision.compare("v1.9.0", "v1.14.1")).isNegative();
        assertThat(CrdDecision.compare("v1.14.1", "1.14.1")).isZero();
        assertThat(CrdDecision.decide("v1.14.1", java.util.Optional.of(Map.of(KarpenterCrd.API_VERSION_ANNOTATION, "dev")))
                .action()).isEqualTo(CrdDecision.Action.KEEP_NEWER);
        assertThat(CrdDecision.decide("v1.14.1", java.util.Optional.of(Map.of())).action())
                .isEqualTo(CrdDecision.Action.KEEP_FOREIGN);
    }

    // --- coexistence ------------------------------------------------------------------------------------------

    @Test
    void refusesWhileKarpentersLeaderRenewsItsLeaseAndTouchesNothing() {
        lease("kube-system", "karpenter-6d8f-abcde", NOW.minusSeconds(8));

        assertThatThrownBy(this::attach).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Gantry will not attach: Karpenter's controller is running (Lease "
                        + "kube-system/karpenter-leader-election")
                .hasMessageContaining("-c nodePools=");
        assertThat(crd("nodepools.karpenter.sh")).isNull();
        assertThat(client.rbac().clusterRoles().list().getItems()).isEmpty();
    }

    @Test
    void attachesOnceKarpentersLeaseIsStaleOrReleased() {
        lease("karpenter", "karpenter-6d8f-abcde", NOW.minus(Duration.ofMinutes(3)));
        lease("kube-system", "", NOW);

        assertThat(report(attach())).contains("installed");
    }

    @Test
    void attachesBesideARunningKarpenterWhenTheUserNamedGantrysPools() {
        lease("kube-system", "karpenter-6d8f-abcde", NOW.minusSeconds(2));

        assertThat(report(attach(null, Set.of("gantry-batch")))).contains("installed");
    }

    @Test
    void refusesWhenEksAutoModeComputeIsEnabled() {
        autoMode = true;

        assertThatThrownBy(this::attach).hasMessageContaining("EKS Auto Mode compute is enabled for the cluster");
    }

    // --- the deploy bundle ------------------------------------------------------------------------------------

    @Test
    void appliesTheBundlesObjectsServerSideAsGantryDeployWithoutForce() throws IOException {
        String bundle = sample("nodepools/seed002-v1.yaml") + "\n---\n" + sample("buffers/batch-warm.yaml");

        String report = report(attach(bundle, Set.of()));

        assertThat(dispatcher.applies).extracting(ApplyRecordingDispatcher.Apply::path).containsExactly(
                "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/seed002?fieldManager=gantry-deploy&force=false",
                "/apis/karpenter.sh/v1/nodepools/seed002-node-pool?fieldManager=gantry-deploy&force=false",
                "/api/v1/namespaces/default/podtemplates/batch-worker?fieldManager=gantry-deploy&force=false",
                "/apis/autoscaling.x-k8s.io/v1beta1/namespaces/default/capacitybuffers/batch-warm?fieldManager=gantry-deploy&force=false");
        assertThat(dispatcher.applies).allSatisfy(a -> assertThat(a.contentType()).startsWith("application/apply-patch+yaml"));
        assertThat(report).contains("bundle: applied 4");
    }

    @Test
    void aFieldAnotherManagerOwnsKeepsTheClustersValueAndTheRestIsApplied() throws IOException {
        dispatcher.owned.put("seed002-node-pool", Map.of(".spec.limits.cpu", "argocd-controller"));

        String report = report(attach(sample("nodepools/seed002-v1.yaml"), Set.of()));

        assertThat(report).contains("bundle conflict: NodePool/seed002-node-pool: kept the cluster's .spec.limits.cpu "
                + "(conflict with \"argocd-controller\" using karpenter.sh/v1)")
                .contains("NodePool/seed002-node-pool (without those fields)");
        String retried = dispatcher.applies.getLast().body();
        assertThat(retried).contains("\"memory\"").doesNotContain("\"cpu\":\"20\"");
    }

    @Test
    void aBadBundleFailsWithFileLineColumnBeforeTheClusterIsTouched() {
        String bad = """
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: web
                spec:
                  template:
                    spec:
                      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                      requirements:
                        - key: karpenter.sh/capacity-type
                          operatr: In
                """;

        assertThatThrownBy(() -> attach(bad, Set.of())).hasMessageContaining("the deploy bundle has errors")
                .hasMessageContaining("deploy bundle s3://assets/bundle.yaml:11:")
                .hasMessageContaining("did you mean \"operator\"");
        assertThat(crd("nodepools.karpenter.sh")).isNull();
        assertThat(dispatcher.applies).isEmpty();
    }

    @Test
    void olderSchemasAndOtherPoolsAreReportedNotApplied() throws IOException {
        String bundle = sample("nodepools/seed002-v1beta1.yaml") + "\n---\n" + sample("nodepools/seed002-v1.yaml");

        String report = report(attach(bundle, Set.of("gantry-only")));

        assertThat(report).contains("bundle skipped: NodePool/seed002-node-pool: not one of Gantry's NodePools (gantry-only)")
                .containsPattern("bundle skipped: NodePool/[^ ]+ \\(karpenter.sh/v1beta1\\): not applied, apply it with "
                        + "kubectl once converted to karpenter.sh/v1");
        assertThat(dispatcher.applies).extracting(ApplyRecordingDispatcher.Apply::path)
                .noneMatch(p -> p.contains("/nodepools/"));
    }

    @Test
    void theReportFitsTheCustomResourceResponse() {
        var many = new BundleApply.Outcome(List.of(), java.util.Collections.nCopies(200, "NodePool/x: kept the cluster's .spec.weight"), List.of());
        assertThat(new AttachReport(9, List.of(), many).summary()).hasSizeLessThanOrEqualTo(AttachReport.MAX_SUMMARY)
                .endsWith("(full report in the attach log)");
    }
}
