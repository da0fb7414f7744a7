package dev.gantry.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.config.codec.HintCodec;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.config.ConfigBound;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.provisioning.HintBatchService;
import dev.gantry.core.provisioning.Provisioner;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.handlers.metrics.EmbeddedMetrics;
import dev.gantry.kube.KubeClients;
import dev.gantry.kube.KubeConfigObjects;
import dev.gantry.testing.Events;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provisioner handler reads its NodePools from the cluster on every run: seed 002's NodePool and EC2NodeClass are
 * applied to the fabric8 mock API server (CRUD, Gantry's CRDs installed), read through the kube adapter and the one
 * reader, and the services are built over them ({@link ConfigBound}), as the composition root builds them.
 */
class ClusterConfigPerRunTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final List<String> ZONES = List.of("ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c");

    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final FirstOfferingCloud cloud = new FirstOfferingCloud();
    private final AtomicInteger compositions = new AtomicInteger();
    private ProvisioningQueueHandler handler;

    @BeforeEach
    void start() throws Exception {
        Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        client = server.createClient();
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            client.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class)).create();
        }
        List<HasMetadata> seed = Serialization.unmarshal(Files.readString(
                Events.root().getParent().resolve("samples/nodepools/seed002-v1.yaml")));
        for (HasMetadata o : seed) {
            client.genericKubernetesResources(o.getKind().equals("NodePool") ? KubeConfigObjects.NODE_POOLS
                    : KubeConfigObjects.EC2_NODE_CLASSES).resource((GenericKubernetesResource) o).create();
        }
        ClusterConfigReader reader = new ClusterConfigReader(
                new KubeConfigObjects(KubeClients.forUrl(client.getConfiguration().getMasterUrl())), "ap-northeast-2", ZONES);
        ConfigBound<HintBatchService> services = new ConfigBound<>(reader, CLOCK, c -> {
            compositions.incrementAndGet();
            Provisioner p = new Provisioner(cluster, cluster, store, cloud, BuiltInCatalog.load("ap-northeast-2", ZONES),
                    c.config(), CLOCK);
            return new HintBatchService(p, cluster, store, n -> { }, CLOCK);
        });
        ObjectMapper json = new ObjectMapper();
        handler = new ProvisioningQueueHandler(services, new HintCodec(json),
                new EmbeddedMetrics(json, "test", new PrintStream(OutputStream.nullOutputStream())), CLOCK, SnapStartPrimer.NONE,
                dev.gantry.core.work.Redelivery.NONE, ProvisioningQueueHandler.RETRY_DELAY, null, null, null);
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private void pending(String name) {
        pending(name, 500);
    }

    private void pending(String name, long cpuMillis) {
        cluster.putPod(Pod.builder("default", name).requests(Resources.of(cpuMillis, 512L << 20)).build().toBuilder()
                .status(new Pod.Status("Pending", true, NOW, null, null)).build());
    }

    private static SQSEvent hint(String id) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(id);
        m.setBody("{\"reason\":\"pod-created\",\"namespace\":\"default\",\"name\":\"" + id + "\",\"uid\":\"u-" + id
                + "\",\"at\":\"2026-01-01T00:00:00Z\"}");
        SQSEvent e = new SQSEvent();
        e.setRecords(List.of(m));
        return e;
    }

    @Test
    void aNodePoolChangedBetweenTwoRunsIsUsedByTheSecondRun() {
        pending("web-0");
        SQSBatchResponse first = handler.handleRequest(hint("web-0"), null);
        assertThat(first.getBatchItemFailures()).isEmpty();
        // arm64 and amd64 allowed: both are offered, and the cheapest is a Graviton t4g.
        assertThat(cloud.requests).singleElement().satisfies(r -> assertThat(r.options()).extracting(t -> t.labels()
                .get(WellKnownLabels.ARCH)).contains("arm64", "amd64").first().isEqualTo("arm64"));

        // `kubectl edit nodepool seed002-node-pool`: amd64 only.
        client.genericKubernetesResources(KubeConfigObjects.NODE_POOLS).withName("seed002-node-pool").edit(p -> {
            @SuppressWarnings("unchecked")
            var spec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) p.getAdditionalProperties().get("spec"))
                    .get("template")).get("spec");
            @SuppressWarnings("unchecked")
            var requirements = (List<Map<String, Object>>) spec.get("requirements");
            requirements.stream().filter(r -> r.get("key").equals(WellKnownLabels.ARCH)).forEach(r -> r.put("values", List.of("amd64")));
            return p;
        });
        pending("web-1", 3000); // too big for the first run's node
        SQSBatchResponse second = handler.handleRequest(hint("web-1"), null);

        assertThat(second.getBatchItemFailures()).isEmpty();
        assertThat(cloud.requests).hasSize(2);
        assertThat(cloud.requests.get(1).options()).isNotEmpty().allSatisfy(t ->
                assertThat(t.labels()).containsEntry(WellKnownLabels.ARCH, "amd64"));
        assertThat(compositions).hasValue(2);
    }

    @Test
    void runsOnAnUnchangedClusterKeepTheServicesTheyWereBuiltWith() {
        pending("web-0");
        handler.handleRequest(hint("web-0"), null);
        handler.handleRequest(hint("web-0"), null);
        handler.handleRequest(hint("web-0"), null);

        assertThat(compositions).hasValue(1);
    }

    @Test
    void aRunWhoseConfigurationCannotBeReadFailsItsHintRatherThanRunningWithNoNodePools() {
        server.expect().get().withPath("/apis/karpenter.sh/v1/nodepools").andReturn(503,
                Map.of("kind", "Status", "code", 503, "reason", "ServiceUnavailable")).always();
        pending("web-0");

        SQSBatchResponse r = handler.handleRequest(hint("web-0"), null);

        assertThat(r.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier).containsExactly("web-0");
        assertThat(cloud.requests).isEmpty();
        assertThat(compositions).hasValue(0);
    }
}
