package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.config.ConfigLoader;
import dev.gantry.config.LoadOptions;
import dev.gantry.config.LoadResult;
import dev.gantry.config.cluster.ClusterConfigReader;
import dev.gantry.config.crd.KarpenterCrd;
import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.config.ConfigUnavailable;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seeds' NodePools and EC2NodeClasses applied to the fabric8 mock API server (CRUD mode, Gantry's CRDs installed),
 * then listed by the adapter and read by the one reader: the cluster's configuration is the file's configuration.
 * The mock is kinder than an API server: it checks neither the CRDs' schemas nor their CEL rules, and it neither
 * defaults fields nor prunes unknown ones. So an object the real server would refuse can reach the reader here; the
 * reader's own checks are what leaves it out (the config module's crd tests cover schema and CEL).
 */
class KubeConfigObjectsTest {
    static final List<String> SEEDS = List.of("seed000-v1.yaml", "seed001-v1.yaml", "seed002-v1.yaml");

    static void installCrdsAndApply(MockApi api, List<String> seeds) throws IOException {
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            api.client.apiextensions().v1().customResourceDefinitions()
                    .resource(Serialization.unmarshal(crd.manifest(), CustomResourceDefinition.class)).create();
        }
        for (String seed : seeds) {
            List<HasMetadata> objects = Serialization.unmarshal(Files.readString(Path.of("../../samples/nodepools", seed)));
            for (HasMetadata o : objects) {
                GenericKubernetesResource g = (GenericKubernetesResource) o;
                api.client.genericKubernetesResources(context(g.getKind())).resource(g).create();
            }
        }
    }

    static ResourceDefinitionContext context(String kind) {
        return kind.equals("NodePool") ? KubeConfigObjects.NODE_POOLS : KubeConfigObjects.EC2_NODE_CLASSES;
    }

    @Test
    void theSeedsAppliedToTheClusterReadAsTheSameConfigurationAsTheirFiles() throws IOException {
        try (MockApi api = new MockApi()) {
            installCrdsAndApply(api, SEEDS);

            List<ConfigObject> listed = new KubeConfigObjects(KubeClients.forUrl(api.url())).list();
            ClusterConfig fromCluster = new ClusterConfigReader(() -> listed, "us-east-1", List.of()).current(Instant.EPOCH);

            assertThat(listed).extracting(ConfigObject::key).containsExactlyInAnyOrder("EC2NodeClass/seed000", "EC2NodeClass/seed001",
                    "EC2NodeClass/seed002", "NodePool/seed000", "NodePool/seed001-general-purpose", "NodePool/seed002-node-pool");
            assertThat(listed).allSatisfy(o -> assertThat(o.resourceVersion()).isNotEmpty());
            LoadResult fromFiles = ConfigLoader.load(SEEDS.stream().map(s -> Path.of("../../samples/nodepools", s)).toList(),
                    LoadOptions.DEFAULT);
            assertThat(fromCluster.invalid()).isEmpty();
            assertThat(fromCluster.config().nodePools()).containsExactlyInAnyOrderElementsOf(fromFiles.nodePools());
            assertThat(fromCluster.config().nodeClasses()).containsExactlyInAnyOrderElementsOf(fromFiles.nodeClasses());
        }
    }

    @Test
    void aChangedNodePoolHasANewResourceVersionAndTheReaderParsesItAgain() throws IOException {
        try (MockApi api = new MockApi()) {
            installCrdsAndApply(api, List.of("seed002-v1.yaml"));
            ClusterConfigReader reader = new ClusterConfigReader(new KubeConfigObjects(KubeClients.forUrl(api.url())),
                    "ap-northeast-2", List.of());
            ClusterConfig before = reader.current(Instant.EPOCH);
            assertThat(reader.current(Instant.EPOCH.plusSeconds(1))).isSameAs(before);

            // What `kubectl patch nodepool seed002-node-pool --type merge` sends.
            api.client.genericKubernetesResources(KubeConfigObjects.NODE_POOLS).withName("seed002-node-pool")
                    .edit(p -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> spec = (Map<String, Object>) p.getAdditionalProperties().get("spec");
                        spec.put("limits", Map.of("cpu", "8"));
                        return p;
                    });
            ClusterConfig after = reader.current(Instant.EPOCH.plusSeconds(2));

            assertThat(reader.parses()).isEqualTo(2);
            assertThat(after.config().nodePools().getFirst().limits().get("cpu").toMillis()).isEqualTo(8_000);
        }
    }

    @Test
    void aClusterWithoutKarpentersCrdsHasNoNodePoolsRatherThanAnError() {
        try (MockApi api = new MockApi()) {
            for (String path : List.of("/apis/karpenter.sh/v1/nodepools", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses",
                    "/apis/autoscaling.x-k8s.io/v1beta1/capacitybuffers")) {
                api.server.expect().get().withPath(path).andReturn(404, Map.of("kind", "Status", "code", 404, "reason", "NotFound")).always();
            }

            assertThat(new KubeConfigObjects(KubeClients.forUrl(api.url())).list()).isEmpty();
        }
    }

    @Test
    void aForbiddenListIsAClusterExceptionAndTheReaderFailsTheRunWithoutAnEarlierReading() {
        try (MockApi api = new MockApi()) {
            api.server.expect().get().withPath("/apis/karpenter.sh/v1/nodepools").andReturn(403,
                    Map.of("kind", "Status", "code", 403, "reason", "Forbidden", "message", "nodepools is forbidden")).always();
            KubeConfigObjects objects = new KubeConfigObjects(KubeClients.forUrl(api.url()));

            assertThatThrownBy(objects::list).isInstanceOfSatisfying(ClusterException.class, e -> assertThat(e.status()).isEqualTo(403))
                    .hasMessageContaining("list nodepools");
            assertThatThrownBy(() -> new ClusterConfigReader(objects, "us-east-1", List.of()).current(Instant.EPOCH))
                    .isInstanceOf(ConfigUnavailable.class);
        }
    }
}
