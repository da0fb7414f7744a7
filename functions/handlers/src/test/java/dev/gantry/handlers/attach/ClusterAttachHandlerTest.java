package dev.gantry.handlers.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.kube.KubeClients;
import dev.gantry.testing.MutableClock;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClusterAttachHandlerTest {
    private static final ClusterAttachHandler.Settings SETTINGS = new ClusterAttachHandler.Settings("prod",
            "https://abc.lambda-url.us-east-1.on.aws/", "arn:secret", "arn:aws:lambda:us-east-1:123456789012:function:sweep",
            Duration.ofSeconds(50));
    /** What a caller who may invoke the function might send: none of it may be applied. */
    private static final Map<String, Object> HOSTILE = Map.of("ClusterName", "other", "WebhookUrl", "https://evil.example/",
            "Manifests", "[{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRoleBinding\","
                    + "\"metadata\":{\"name\":\"evil\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                    + "\"kind\":\"ClusterRole\",\"name\":\"cluster-admin\"},\"subjects\":[{\"kind\":\"Group\","
                    + "\"name\":\"system:authenticated\",\"apiGroup\":\"rbac.authorization.k8s.io\"}]}]");
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T00:00:00Z"));
    private final List<Duration> sleeps = new ArrayList<>();
    private final List<String> sweepSaw = new ArrayList<>();
    private final AtomicReference<String> token = new AtomicReference<>("tok3n");

    @BeforeEach
    void start() {
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> exp = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), exp,
                new KubernetesMixedDispatcher(exp), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private ClusterAttachHandler handler(FinalSweep.Invoke sweep) {
        String url = client.getConfiguration().getMasterUrl();
        FinalSweep retry = new FinalSweep(clock, d -> {
            sleeps.add(d);
            clock.advance(d);
        });
        return new ClusterAttachHandler(SETTINGS, cluster -> KubeClients.forUrl(url), arn -> token.get(), sweep, retry, clock);
    }

    private ClusterAttachHandler handler() {
        return handler(() -> sweepSaw.add(state()));
    }

    /** What the cluster holds when the sweep runs: is the webhook there, are the RBAC objects there. */
    private String state() {
        return "webhook=" + (webhook() != null) + " rbac=" + client.rbac().clusterRoles().list().getItems().size()
                + "+" + client.rbac().clusterRoleBindings().list().getItems().size();
    }

    private ValidatingWebhookConfiguration webhook() {
        return client.admissionRegistration().v1().validatingWebhookConfigurations().withName("gantry").get();
    }

    private static Map<String, Object> event(String type) {
        return Map.of("RequestType", type, "ResourceProperties", HOSTILE);
    }

    @Test
    void createAppliesTheObjectsFromItsOwnBuildAndIgnoresThePayload() {
        Map<String, Object> out = handler().handleRequest(event("Create"), null);

        assertThat(out).containsEntry("PhysicalResourceId", "gantry-attach-prod");
        assertThat(client.rbac().clusterRoles().list().getItems()).extracting(r -> r.getMetadata().getName())
                .containsExactlyInAnyOrder("gantry-provisioner", "gantry-interruption", "gantry-termination", "gantry-sweep");
        assertThat(client.rbac().clusterRoleBindings().withName("evil").get()).isNull();
        assertThat(webhook().getWebhooks()).hasSize(4).allSatisfy(h -> assertThat(h.getClientConfig().getUrl())
                .isEqualTo("https://abc.lambda-url.us-east-1.on.aws/hook/tok3n"));
        assertThat(sweepSaw).isEmpty();
    }

    @Test
    void updateRewritesTheWebhookWithTheTokensCurrentValue() {
        handler().handleRequest(event("Create"), null);
        token.set("r0tated");

        handler().handleRequest(event("Update"), null);

        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().list().getItems()).hasSize(1);
        assertThat(webhook().getWebhooks()).allSatisfy(h -> assertThat(h.getClientConfig().getUrl()).endsWith("/hook/r0tated"));
    }

    @Test
    void regressionDestroyLeftNodesTerminatingDeleteSweepsBeforeRbacGoesAndReleasesTheFinalizer() {
        handler().handleRequest(event("Create"), null);
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("gantry-node")
                .withFinalizers("gantry.dev/termination", "other.io/keep").endMetadata().build()).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("plain").endMetadata().build()).create();

        handler().handleRequest(event("Delete"), null);

        // The webhook went first (no new hints), the RBAC the sweep needs was still there while it ran.
        assertThat(sweepSaw).containsExactly("webhook=false rbac=4+4");
        assertThat(client.nodes().withName("gantry-node").get().getMetadata().getFinalizers()).containsExactly("other.io/keep");
        assertThat(client.nodes().withName("plain").get()).isNotNull();
        assertThat(client.rbac().clusterRoles().list().getItems()).isEmpty();
        assertThat(client.rbac().clusterRoleBindings().list().getItems()).isEmpty();
    }

    @Test
    void deleteOfObjectsAlreadyGoneStillSweeps() {
        handler().handleRequest(event("Delete"), null);

        assertThat(sweepSaw).hasSize(1);
    }

    @Test
    void throttledFinalSweepIsRetriedWithBackoffUntilTheRunningSweepEnds() {
        AtomicInteger calls = new AtomicInteger();
        ClusterAttachHandler h = handler(() -> {
            if (calls.incrementAndGet() <= 3) {
                throw new FinalSweep.Throttled("429", null);
            }
        });

        h.handleRequest(event("Delete"), null);

        assertThat(calls).hasValue(4);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    }

    @Test
    void throttledPastTheLastStartFailsTheDeleteAndKeepsRbacForTheRetry() {
        handler().handleRequest(event("Create"), null);
        ClusterAttachHandler h = handler(() -> {
            throw new FinalSweep.Throttled("429", null);
        });

        assertThatThrownBy(() -> h.handleRequest(event("Delete"), null)).hasMessageContaining("still throttled");
        // 5 min remaining - 50 s sweep - 30 s cleanup: attempts stop by 220 s.
        assertThat(sleeps.stream().mapToLong(Duration::toSeconds).sum()).isLessThanOrEqualTo(220).isGreaterThan(200);
        assertThat(sleeps).endsWith(Duration.ofSeconds(10));
        assertThat(client.rbac().clusterRoles().list().getItems()).hasSize(4);
    }

    @Test
    void failedFinalSweepFailsTheDeleteWithoutRetrying() {
        AtomicInteger calls = new AtomicInteger();
        ClusterAttachHandler failing = handler(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("the final sweep failed (Unhandled)");
        });

        assertThatThrownBy(() -> failing.handleRequest(event("Delete"), null)).hasMessageContaining("final sweep failed");
        assertThat(calls).hasValue(1);
    }

    @Test
    void unknownRequestTypeIsRefused() {
        assertThatThrownBy(() -> handler().handleRequest(Map.of("RequestType", "Patch"), null))
                .hasMessage("unknown RequestType Patch");
    }

    @Test
    void snapStartPrimingBuildsTheManifestsWithoutTouchingTheClusterTheSecretOrTheSweep() {
        List<String> secretReads = new ArrayList<>();
        ClusterAttachHandler priming = new ClusterAttachHandler(SETTINGS, c -> {
            throw new AssertionError("priming must not build a client");
        }, arn -> {
            secretReads.add(arn);
            return "x";
        }, () -> {
            throw new AssertionError("priming must not sweep");
        }, new FinalSweep(clock, d -> { }), clock);
        assertThat(priming.primeSerialization()).isEqualTo(9);
        priming.beforeCheckpoint(null);
        priming.afterRestore(null);
        assertThat(secretReads).isEmpty();
    }
}
