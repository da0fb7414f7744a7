package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long {@link KubeCluster} takes to read a 1,000-node, 20,000-pod cluster. Prints figures, asserts only the counts.
 * Off by default (it takes about a minute); run with {@code -Dgantry.bench=true -Dtest=ClusterReadBench}.
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "gantry.bench", matches = "true")
class ClusterReadBench {
    static final int NODES = 1_000;
    static final int PODS = 20_000;
    static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** A realistic Deployment pod: two containers, requests and limits, the default tolerations, a full status. */
    static io.fabric8.kubernetes.api.model.Pod pod(int i) {
        String node = "ip-10-0-" + (i % NODES / 250) + "-" + (i % NODES) + ".ec2.internal";
        return new PodBuilder().withNewMetadata().withName("app-" + (i / 20) + "-7d9c6b8f5-" + i).withNamespace("team-" + (i % 40))
                .withUid("0b9e2f5c-1111-4a8e-9c6f-" + String.format("%012d", i)).withResourceVersion(Integer.toString(1000 + i))
                .withCreationTimestamp("2026-03-01T10:00:00Z")
                .addToLabels(Map.of("app", "app-" + (i / 20), "pod-template-hash", "7d9c6b8f5", "team", "team-" + (i % 40)))
                .addToAnnotations("kubectl.kubernetes.io/restartedAt", "2026-03-01T09:59:00Z")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("app-" + (i / 20) + "-7d9c6b8f5")
                .withUid("rs-" + i / 20).withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).withServiceAccountName("default").withTerminationGracePeriodSeconds(30L)
                .addNewContainer().withName("app").withImage("123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1.2.3")
                .addNewPort().withContainerPort(8080).withProtocol("TCP").endPort()
                .withNewResources().addToRequests("cpu", new Quantity("250m")).addToRequests("memory", new Quantity("512Mi"))
                .addToLimits("memory", new Quantity("1Gi")).endResources()
                .addNewEnv().withName("JAVA_OPTS").withValue("-XX:MaxRAMPercentage=75").endEnv().endContainer()
                .addNewContainer().withName("envoy").withImage("envoyproxy/envoy:v1.30")
                .withNewResources().addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("64Mi")).endResources()
                .endContainer()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .addNewToleration().withKey("node.kubernetes.io/unreachable").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration()
                .addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("topology.kubernetes.io/zone")
                .withWhenUnsatisfiable("ScheduleAnyway").withNewLabelSelector().addToMatchLabels("app", "app-" + (i / 20))
                .endLabelSelector().endTopologySpreadConstraint()
                .withPriority(0).endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.0.1." + (i % 250)).withHostIP("10.0.0.1")
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0).withImage("app:1.2.3")
                .withImageID("sha256:" + "a".repeat(64)).withContainerID("containerd://" + "b".repeat(64)).endContainerStatus()
                .addNewContainerStatus().withName("envoy").withReady(true).withRestartCount(0).withImage("envoy:v1.30")
                .withImageID("sha256:" + "c".repeat(64)).withContainerID("containerd://" + "d".repeat(64)).endContainerStatus()
                .endStatus().build();
    }

    static io.fabric8.kubernetes.api.model.Node node(int i) {
        String name = "ip-10-0-" + (i / 250) + "-" + i + ".ec2.internal";
        return new NodeBuilder().withNewMetadata().withName(name).withUid("node-" + i).withResourceVersion(Integer.toString(i + 1))
                .withCreationTimestamp("2026-03-01T09:00:00Z").addToFinalizers("gantry.dev/termination")
                .addToLabels(Map.of("kubernetes.io/hostname", name, "node.kubernetes.io/instance-type", "m6g.xlarge",
                        "topology.kubernetes.io/zone", "us-east-1" + "abc".charAt(i % 3), "karpenter.sh/nodepool", "default",
                        "karpenter.sh/capacity-type", i % 2 == 0 ? "spot" : "on-demand", "kubernetes.io/arch", "arm64",
                        "kubernetes.io/os", "linux"))
                .endMetadata()
                .withNewSpec().withProviderID("aws:///us-east-1a/i-" + String.format("%017x", i)).endSpec()
                .withNewStatus().addToAllocatable(Map.of("cpu", new Quantity("3920m"), "memory", new Quantity("14481380Ki"),
                        "pods", new Quantity("58"), "ephemeral-storage", new Quantity("18242267924")))
                .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady").endCondition().endStatus()
                .build();
    }

    /** Serves pods and nodes in pages of the requested size with continue tokens, as a real API server does. */
    static final class PagedApi extends Dispatcher {
        final List<String> podPages = new ArrayList<>();
        final List<String> nodePages = new ArrayList<>();

        PagedApi(int page) {
            for (int from = 0; from < PODS; from += page) {
                int to = Math.min(PODS, from + page);
                podPages.add(JSON.asJson(new PodListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < PODS ? Integer.toString(podPages.size() + 1) : null).build())
                        .withItems(IntStream.range(from, to).mapToObj(ClusterReadBench::pod).toList()).build()));
            }
            for (int from = 0; from < NODES; from += page) {
                int to = Math.min(NODES, from + page);
                nodePages.add(JSON.asJson(new NodeListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("9")
                        .withContinue(to < NODES ? Integer.toString(nodePages.size() + 1) : null).build())
                        .withItems(IntStream.range(from, to).mapToObj(ClusterReadBench::node).toList()).build()));
            }
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            List<String> pages = path.startsWith("/api/v1/pods") ? podPages : path.startsWith("/api/v1/nodes") ? nodePages : null;
            if (pages == null) {
                return new MockResponse().setResponseCode(404);
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("continue=(\\d+)").matcher(path);
            int index = m.find() ? Integer.parseInt(m.group(1)) : 0;
            return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json").setBody(pages.get(index));
        }
    }

    @Test
    void readsAThousandNodesAndTwentyThousandPagedPods() {
        PagedApi api = new PagedApi((int) KubeCluster.PAGE_SIZE);
        System.out.printf("BENCH page JSON: pods %.1f MB total (%d pages), nodes %.1f MB%n",
                api.podPages.stream().mapToLong(String::length).sum() / 1e6, api.podPages.size(),
                api.nodePages.stream().mapToLong(String::length).sum() / 1e6);
        MockWebServer server = new MockWebServer();
        server.setDispatcher(api);
        server.start();
        try {
            KubeCluster cluster = new KubeCluster(KubeClients.forUrl("http://localhost:" + server.getPort()), Clock.systemUTC());
            measure("paged", cluster, 5);
        } finally {
            server.shutdown();
        }
    }

    @Test
    void readsAThousandNodesAndTwentyThousandPodsFromTheCrudMockServer() throws InterruptedException {
        try (MockApi api = new MockApi()) {
            long seed = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            KubernetesClient c = api.client;
            for (int i = 0; i < NODES; i++) {
                int n = i;
                pool.execute(() -> c.resource(node(n)).create());
            }
            for (int i = 0; i < PODS; i++) {
                int n = i;
                pool.execute(() -> c.resource(pod(n)).create());
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.MINUTES)).isTrue();
            System.out.printf("BENCH crud seeding %d nodes + %d pods: %d ms%n", NODES, PODS, (System.nanoTime() - seed) / 1_000_000);
            measure("crud", api.cluster(Clock.systemUTC()), 3);
        }
    }

    private static void measure(String label, KubeCluster cluster, int rounds) {
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            List<Node> nodes = cluster.nodes();
            long t1 = System.nanoTime();
            List<Pod> pods = cluster.pods();
            long t2 = System.nanoTime();
            long pending = pods.stream().filter(Pod::isProvisionable).count();
            long t3 = System.nanoTime();
            assertThat(nodes).hasSize(NODES);
            assertThat(pods).hasSize(PODS);
            assertThat(pending).isZero();
            System.out.printf("BENCH %s round %d: nodes %d ms, pods %d ms, pending filter %d ms, total %d ms%n", label, round,
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, (t3 - t0) / 1_000_000);
        }
    }
}
