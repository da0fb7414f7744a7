package dev.gantry.handlers.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.kube.KubeClients;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClusterAttachHandlerTest {
    private static final String MANIFESTS = """
            [{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"gantry-controller"},
              "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]}]},
             {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"gantry-controller"},
              "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"gantry-controller"},
              "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"gantry:controllers"}]},
             {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"gantry"},
              "webhooks":[{"name":"pod-create.gantry.dev","admissionReviewVersions":["v1"],"sideEffects":"NoneOnDryRun",
                "failurePolicy":"Ignore","timeoutSeconds":2,"rules":[{"apiGroups":[""],"apiVersions":["v1"],
                "operations":["CREATE"],"resources":["pods"],"scope":"Namespaced"}]}]}]""";
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private final List<String> sweeps = new ArrayList<>();
    private ClusterAttachHandler handler;

    @BeforeEach
    void start() {
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> exp = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), exp,
                new KubernetesMixedDispatcher(exp), false);
        server.init();
        client = server.createClient();
        String url = client.getConfiguration().getMasterUrl();
        handler = new ClusterAttachHandler(cluster -> KubeClients.forUrl(url), arn -> "tok3n", sweeps::add);
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private static Map<String, Object> event(String type) {
        return Map.of("RequestType", type, "ResourceProperties", Map.of("ClusterName", "prod", "Manifests", MANIFESTS,
                "WebhookUrl", "https://abc.lambda-url.us-east-1.on.aws/", "WebhookTokenSecretArn", "arn:secret",
                "FinalSweepFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:sweep"));
    }

    @Test
    void createAppliesEveryObjectAndPointsTheWebhookAtTheTokenPath() {
        Map<String, Object> out = handler.handleRequest(event("Create"), null);

        assertThat(out).containsEntry("PhysicalResourceId", "gantry-attach-prod");
        assertThat(client.rbac().clusterRoles().withName("gantry-controller").get()).isNotNull();
        assertThat(client.rbac().clusterRoleBindings().withName("gantry-controller").get()).isNotNull();
        ValidatingWebhookConfiguration w = client.admissionRegistration().v1().validatingWebhookConfigurations().withName("gantry").get();
        assertThat(w.getWebhooks()).singleElement().satisfies(h -> {
            assertThat(h.getClientConfig().getUrl()).isEqualTo("https://abc.lambda-url.us-east-1.on.aws/hook/tok3n");
            assertThat(h.getTimeoutSeconds()).isEqualTo(2);
        });
        assertThat(sweeps).isEmpty();
    }

    @Test
    void updateAppliesAgainOverExistingObjects() {
        handler.handleRequest(event("Create"), null);

        assertThat(handler.handleRequest(event("Update"), null)).containsEntry("PhysicalResourceId", "gantry-attach-prod");
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().list().getItems()).hasSize(1);
    }

    @Test
    void deleteRemovesTheObjectsThenRunsTheFinalSweep() {
        handler.handleRequest(event("Create"), null);

        handler.handleRequest(event("Delete"), null);

        assertThat(client.rbac().clusterRoles().withName("gantry-controller").get()).isNull();
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName("gantry").get()).isNull();
        assertThat(sweeps).containsExactly("arn:aws:lambda:us-east-1:123456789012:function:sweep");
    }

    @Test
    void deleteOfObjectsAlreadyGoneStillSweeps() {
        handler.handleRequest(event("Delete"), null);

        assertThat(sweeps).hasSize(1);
    }

    @Test
    void failedFinalSweepFailsTheDelete() {
        ClusterAttachHandler failing = new ClusterAttachHandler(c -> KubeClients.forUrl(client.getConfiguration().getMasterUrl()),
                arn -> "t", arn -> {
                    throw new IllegalStateException("the final sweep failed (Unhandled)");
                });

        assertThatThrownBy(() -> failing.handleRequest(event("Delete"), null)).hasMessageContaining("final sweep failed");
    }

    @Test
    void missingPropertyIsNamed() {
        Map<String, Object> e = Map.of("RequestType", "Create", "ResourceProperties", Map.of("ClusterName", "prod"));
        assertThatThrownBy(() -> handler.handleRequest(e, null)).hasMessageContaining("WebhookTokenSecretArn");
    }

    @Test
    void snapStartPrimingParsesASampleWithoutTouchingTheClusterOrTheSecret() {
        java.util.List<String> secretReads = new java.util.ArrayList<>();
        ClusterAttachHandler priming = new ClusterAttachHandler(c -> {
            throw new AssertionError("priming must not build a client");
        }, arn -> {
            secretReads.add(arn);
            return "x";
        }, arn -> {
            throw new AssertionError("priming must not sweep");
        });
        assertThat(priming.primeSerialization()).isEqualTo(1);
        priming.beforeCheckpoint(null);
        priming.afterRestore(null);
        assertThat(secretReads).isEmpty();
    }
}
