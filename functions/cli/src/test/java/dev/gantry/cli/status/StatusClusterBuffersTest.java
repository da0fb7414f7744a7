package dev.gantry.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.cli.validate.CatalogSource;
import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.core.headroom.CapacityBuffer;
import dev.gantry.core.headroom.InMemoryDemandHistoryStore;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** `gantry status` shows the cluster's CapacityBuffers as well as the bundle's, as the provisioner and the sweep use them. */
class StatusClusterBuffersTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final String BUNDLE = """
            apiVersion: karpenter.sh/v1
            kind: NodePool
            metadata: {name: general}
            spec:
              template:
                spec:
                  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
                  requirements:
                    - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m6a]}
            ---
            apiVersion: v1
            kind: PodTemplate
            metadata: {name: warm, namespace: default}
            template:
              spec:
                containers:
                  - name: pause
                    image: pause
                    resources: {requests: {cpu: "1", memory: 2Gi}}
            ---
            apiVersion: autoscaling.x-k8s.io/v1beta1
            kind: CapacityBuffer
            metadata: {name: shared, namespace: default}
            spec: {podTemplateRef: {name: warm}, replicas: 1}
            """;

    private KubernetesMockServer server;
    private NamespacedKubernetesClient kube;

    @BeforeEach
    void cluster() {
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        kube = server.createClient();
    }

    @AfterEach
    void close() {
        kube.close();
        server.destroy();
    }

    private static io.fabric8.kubernetes.api.model.GenericKubernetesResource buffer(String ns, String name, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion("autoscaling.x-k8s.io/v1beta1").withKind("CapacityBuffer")
                .withNewMetadata().withNamespace(ns).withName(name).endMetadata().withAdditionalProperties(Map.of("spec", spec))
                .build();
    }

    @Test
    void theClusterBuffersAreShownBesideTheBundlesAndABufferDefinedInBothKeepsTheBundlesVersion() {
        kube.v1().podTemplates().inNamespace("batch").resource(new PodTemplateBuilder().withNewMetadata().withName("gpu-warm")
                .withNamespace("batch").endMetadata().withNewTemplate().withNewSpec().addNewContainer().withName("pause")
                .withImage("pause").withNewResources().addToRequests("cpu", new Quantity("2")).endResources().endContainer()
                .endSpec().endTemplate().build()).create();
        var buffers = kube.genericKubernetesResources(dev.gantry.kube.KubeBuffers.CAPACITY_BUFFERS);
        buffers.inNamespace("batch").resource(buffer("batch", "night", Map.of("podTemplateRef", Map.of("name", "gpu-warm"),
                "replicas", 3))).create();
        // Defined in the bundle too, with another size: the bundle's version is the one Gantry uses.
        buffers.inNamespace("default").resource(buffer("default", "shared", Map.of("podTemplateRef", Map.of("name", "warm"),
                "replicas", 7))).create();
        LoadResult bundle = ConfigLoader.loadString("gantry.yaml", BUNDLE, LoadOptions.DEFAULT);
        assertThat(bundle.errors()).isEmpty();

        StatusSnapshot s = StatusSources.read(new InMemoryNodeClaimStore(), new InMemoryDemandHistoryStore(), kube, ClusterObjects.read(kube), bundle,
                new CatalogSource("us-east-1", List.of()), NOW, Duration.ofSeconds(90));

        assertThat(s.buffers()).extracting(CapacityBuffer::key).containsExactlyInAnyOrder("default/shared", "batch/night");
        StatusReport report = StatusReport.of(s);
        assertThat(report.buffers()).anySatisfy(e -> {
            assertThat(e.buffer().key()).isEqualTo("batch/night");
            assertThat(e.pods()).hasSize(3);
        });
        assertThat(report.buffers()).anySatisfy(e -> {
            assertThat(e.buffer().key()).isEqualTo("default/shared");
            assertThat(e.pods()).hasSize(1);
        });
    }

    @Test
    void aClusterWithoutTheCrdShowsTheBundlesBuffersAlone() {
        server.expect().get().withPath("/apis/autoscaling.x-k8s.io/v1beta1/capacitybuffers")
                .andReturn(404, Map.of("kind", "Status", "code", 404, "reason", "NotFound")).always();
        LoadResult bundle = ConfigLoader.loadString("gantry.yaml", BUNDLE, LoadOptions.DEFAULT);

        StatusSnapshot s = StatusSources.read(new InMemoryNodeClaimStore(), new InMemoryDemandHistoryStore(), kube, ClusterObjects.read(kube), bundle,
                new CatalogSource("us-east-1", List.of()), NOW, Duration.ofSeconds(90));

        assertThat(s.buffers()).extracting(CapacityBuffer::key).containsExactly("default/shared");
    }
}
