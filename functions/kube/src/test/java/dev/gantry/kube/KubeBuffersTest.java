package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.config.ConfigObject;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CapacityBuffers and what they refer to, read from the fabric8 mock API server in CRUD mode. */
class KubeBuffersTest {
    private static GenericKubernetesResource buffer(String ns, String name, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.x-k8s.io/v1beta1").withKind("CapacityBuffer")
                .withNewMetadata().withNamespace(ns).withName(name)
                .addToAnnotations("gantry.dev/buffer-schedule", "50 8 * * 1-5").endMetadata()
                .withAdditionalProperties(Map.of("spec", spec)).build();
    }

    @Test
    void buffersComeWithTheirPodTemplatesAndWorkloadsAndAMissingTargetIsLeftOut() {
        try (MockApi api = new MockApi()) {
            var buffers = api.client.genericKubernetesResources(KubeBuffers.CAPACITY_BUFFERS);
            buffers.inNamespace("default").resource(buffer("default", "warm",
                    Map.of("podTemplateRef", Map.of("name", "warm-m"), "limits", Map.of("cpu", "20")))).create();
            buffers.inNamespace("shop").resource(buffer("shop", "web",
                    Map.of("scalableRef", Map.of("apiGroup", "apps", "kind", "Deployment", "name", "web"), "percentage", 20))).create();
            buffers.inNamespace("shop").resource(buffer("shop", "gone",
                    Map.of("podTemplateRef", Map.of("name", "nowhere"), "replicas", 1))).create();
            api.client.v1().podTemplates().inNamespace("default").resource(new PodTemplateBuilder().withNewMetadata()
                    .withName("warm-m").withNamespace("default").endMetadata().withNewTemplate().withNewSpec().addNewContainer()
                    .withName("pause").withImage("pause").endContainer().endSpec().endTemplate().build()).create();
            api.client.apps().deployments().inNamespace("shop").resource(new DeploymentBuilder().withNewMetadata()
                    .withName("web").withNamespace("shop").endMetadata().withNewSpec().withReplicas(10).withNewTemplate()
                    .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec().endTemplate()
                    .endSpec().build()).create();

            List<String> docs = new KubeBuffers(KubeClients.forUrl(api.url())).objects().stream().map(ConfigObject::json).toList();

            assertThat(docs).hasSize(5);
            assertThat(docs).filteredOn(d -> d.contains("\"kind\":\"CapacityBuffer\"")).hasSize(3)
                    .anySatisfy(d -> assertThat(d).contains("\"gantry.dev/buffer-schedule\":\"50 8 * * 1-5\"", "warm-m"));
            assertThat(docs).anySatisfy(d -> assertThat(d).contains("\"kind\":\"PodTemplate\"", "\"name\":\"warm-m\""));
            assertThat(docs).anySatisfy(d -> assertThat(d).contains("\"kind\":\"Deployment\"", "\"replicas\":10"));
        }
    }

    @Test
    void aClusterWithoutTheCapacityBufferCrdHasNoBuffers() {
        try (MockApi api = new MockApi()) {
            api.server.expect().get().withPath("/apis/autoscaling.x-k8s.io/v1beta1/capacitybuffers")
                    .andReturn(404, Map.of("kind", "Status", "code", 404, "reason", "NotFound")).always();

            assertThat(new KubeBuffers(KubeClients.forUrl(api.url())).objects().stream().map(ConfigObject::json).toList()).isEmpty();
        }
    }

    @Test
    void anyOtherFailureIsAClusterExceptionWithItsStatus() {
        try (MockApi api = new MockApi()) {
            api.server.expect().get().withPath("/apis/autoscaling.x-k8s.io/v1beta1/capacitybuffers")
                    .andReturn(403, Map.of("kind", "Status", "code", 403, "reason", "Forbidden",
                            "message", "capacitybuffers is forbidden")).always();

            assertThatThrownBy(() -> new KubeBuffers(KubeClients.forUrl(api.url())).objects().stream().map(ConfigObject::json).toList())
                    .isInstanceOfSatisfying(ClusterException.class, e -> assertThat(e.status()).isEqualTo(403))
                    .hasMessageContaining("list capacitybuffers");
        }
    }
}
