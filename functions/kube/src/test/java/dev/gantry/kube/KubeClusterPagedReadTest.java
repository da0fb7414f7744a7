package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.kube.objects.NodeMapper;
import dev.gantry.kube.objects.PodMapper;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Large lists as the API server sends them (Gantry's own rules): pages with continue tokens, objects carrying
 * {@code managedFields} and, on nodes, the kubelet's image list. What Gantry decides on must come through whole; what
 * it never reads is skipped while decoding ({@link KubeSerialization}).
 */
class KubeClusterPagedReadTest {
    /** fabric8's own serialization, which keeps every field: the reference for what the API server sent. */
    static final KubernetesSerialization FULL = new KubernetesSerialization();
    static final List<ManagedFieldsEntry> FIELDS = List.of(FULL.unmarshal("""
            [{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-06-01T10:00:09Z","fieldsType":"FieldsV1",
              "subresource":"status","fieldsV1":{"f:status":{"f:conditions":{"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:status":{}}},
              "f:phase":{},"f:podIP":{}}}}]""", ManagedFieldsEntry[].class));

    final List<String> paths = new ArrayList<>();
    List<io.fabric8.kubernetes.api.model.Pod> pods = IntStream.range(0, 1_201).mapToObj(KubeClusterPagedReadTest::pod).toList();
    final io.fabric8.kubernetes.api.model.Node node = node();
    MockWebServer server;
    KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            private static final Pattern CONTINUE = Pattern.compile("continue=(\\d+)");

            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String path = request.getPath();
                synchronized (paths) {
                    paths.add(path);
                }
                String body;
                if (path.startsWith("/api/v1/pods")) {
                    Matcher m = CONTINUE.matcher(path);
                    int from = m.find() ? Integer.parseInt(m.group(1)) : 0;
                    int to = Math.min(pods.size(), from + (int) KubeCluster.PAGE_SIZE);
                    body = FULL.asJson(new PodListBuilder().withMetadata(new ListMetaBuilder().withResourceVersion("77")
                            .withContinue(to < pods.size() ? Integer.toString(to) : null).build()).withItems(pods.subList(from, to)).build());
                } else {
                    body = FULL.asJson(new NodeListBuilder().withNewMetadata().withResourceVersion("77").endMetadata().withItems(node).build());
                }
                return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json").setBody(body);
            }
        });
        server.start();
        client = KubeClients.forUrl("http://localhost:" + server.getPort());
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdown();
    }

    @Test
    void readsEveryPageInOrderFollowingTheContinueTokens() {
        List<Pod> read = new KubeCluster(client, Clock.systemUTC()).pods();

        assertThat(read).extracting(Pod::name).containsExactlyElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
        assertThat(paths).hasSize(3);
        assertThat(paths.get(1)).contains("continue=500");
        assertThat(paths.get(2)).contains("continue=1000");
    }

    /**
     * Regression: every page's fabric8 objects were kept until the last page arrived, and only then mapped; at 100,000
     * pods that ran the sweep out of its 1 GB. Each page is now mapped before the next is asked for (a pod the mapper
     * refuses on the first page stops the read after one request).
     */
    @Test
    void mapsEachPageBeforeAskingForTheNext() {
        pods = new ArrayList<>(pods);
        pods.set(3, new PodBuilder(pods.get(3)).editSpec().addNewToleration().withKey("k").withOperator("Exists")
                .withEffect("Sometimes").endToleration().endSpec().build());

        assertThatThrownBy(() -> new KubeCluster(client, Clock.systemUTC()).pods()).isInstanceOf(IllegalArgumentException.class);
        assertThat(paths).hasSize(1);
    }

    @Test
    void mapsEachPodAndNodeExactlyAsFromEveryFieldTheApiServerSent() {
        KubeCluster cluster = new KubeCluster(client, Clock.systemUTC());

        List<Pod> read = cluster.pods();
        List<Node> nodes = cluster.nodes();

        assertThat(read).isEqualTo(pods.stream().map(p -> PodMapper.pod(FULL.unmarshal(FULL.asJson(p),
                io.fabric8.kubernetes.api.model.Pod.class))).toList());
        assertThat(nodes).containsExactly(NodeMapper.node(FULL.unmarshal(FULL.asJson(node), io.fabric8.kubernetes.api.model.Node.class)));
    }

    /** Regression: the API client decoded every pod's managedFields and every node's image list, which nothing reads. */
    @Test
    void skipsManagedFieldsAndTheNodesImageListWhileDecoding() {
        KubernetesSerialization json = client.getKubernetesSerialization();

        var pod = json.unmarshal(FULL.asJson(pods.getFirst()), io.fabric8.kubernetes.api.model.Pod.class);
        var read = json.unmarshal(FULL.asJson(node), io.fabric8.kubernetes.api.model.Node.class);

        assertThat(pod.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(pod.getMetadata().getLabels()).containsEntry("app", "web");
        assertThat(read.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(read.getStatus().getImages()).isNullOrEmpty();
        assertThat(read.getStatus().getAllocatable()).containsKey("cpu");
    }

    /** Regression: the API client decoded every container's environment, mounts and probes, and the pod's volumes. */
    @Test
    void skipsHowContainersRunWhileDecodingAndKeepsWhatTheyAskOfANode() {
        var pod = client.getKubernetesSerialization().unmarshal(FULL.asJson(pods.getFirst()), io.fabric8.kubernetes.api.model.Pod.class);

        var c = pod.getSpec().getContainers().getFirst();
        assertThat(pod.getSpec().getVolumes()).isNullOrEmpty();
        assertThat(c.getEnv()).isNullOrEmpty();
        assertThat(c.getVolumeMounts()).isNullOrEmpty();
        assertThat(c.getCommand()).isNullOrEmpty();
        assertThat(c.getReadinessProbe()).isNull();
        assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(c.getPorts()).singleElement().satisfies(p -> assertThat(p.getHostPort()).isEqualTo(8080));
        var status = pod.getStatus().getContainerStatuses().getFirst();
        assertThat(status.getImageID()).isNull();
        assertThat(status.getLastState()).isNull();
        assertThat(status.getRestartCount()).isZero();
        assertThat(status.getState().getWaiting().getReason()).isEqualTo("CrashLoopBackOff");
    }

    @Test
    void stillWritesTheFieldsOfAnObjectThatCarriesThem() {
        String written = client.getKubernetesSerialization().asJson(node);

        assertThat(written).contains("\"managedFields\"").contains("\"images\"");
    }

    static io.fabric8.kubernetes.api.model.Pod pod(int i) {
        return new PodBuilder().withNewMetadata().withName("web-" + i).withNamespace("team-" + i % 3).withUid("u-" + i)
                .withCreationTimestamp("2026-06-01T10:00:00Z").addToLabels("app", "web").withManagedFields(FIELDS)
                .addNewOwnerReference().withKind("ReplicaSet").withName("web-7d9").withController(true).withApiVersion("apps/v1")
                .withUid("rs").endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("node-" + i % 7).addNewContainer().withName("app").withImage("web")
                .withNewResources().addToRequests("cpu", new Quantity((100 + i % 5 * 50) + "m")).addToRequests("memory", new Quantity("256Mi"))
                .endResources().addNewPort().withContainerPort(8080).withHostPort(i % 2 == 0 ? 8080 : null).endPort()
                .addNewEnv().withName("JAVA_OPTS").withValue("-Xmx1g").endEnv().withCommand("java").withArgs("-jar", "app.jar")
                .addNewVolumeMount().withName("token").withMountPath("/var/run/secrets").endVolumeMount()
                .withNewReadinessProbe().withNewHttpGet().withPath("/ready").withNewPort(8080).endHttpGet().endReadinessProbe()
                .endContainer()
                .addNewVolume().withName("token").withNewProjected().withDefaultMode(420).endProjected().endVolume()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration().endSpec()
                .withNewStatus().withPhase("Running").withStartTime("2026-06-01T10:00:05Z")
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewContainerStatus().withName("app").withRestartCount(i % 3).withImage("web").withImageID("sha256:" + i)
                .withContainerID("containerd://" + i).withNewState().withNewWaiting().withReason(i % 4 == 0 ? "CrashLoopBackOff" : null)
                .endWaiting().endState().withNewLastState().withNewTerminated().withExitCode(1).endTerminated().endLastState()
                .endContainerStatus().endStatus().build();
    }

    static io.fabric8.kubernetes.api.model.Node node() {
        return new NodeBuilder().withNewMetadata().withName("node-0").withUid("n0").withCreationTimestamp("2026-06-01T09:00:00Z")
                .addToLabels(Map.of("karpenter.sh/nodepool", "default", "topology.kubernetes.io/zone", "us-east-1a"))
                .withManagedFields(FIELDS).endMetadata()
                .withNewSpec().withProviderID("aws:///us-east-1a/i-0").addNewTaint().withKey("dedicated").withValue("x")
                .withEffect("NoSchedule").endTaint().endSpec()
                .withNewStatus().addToAllocatable(Map.of("cpu", new Quantity("7910m"), "memory", new Quantity("31300Mi"),
                        "pods", new Quantity("58")))
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2026-06-01T09:01:00Z").endCondition()
                .withImages(new ContainerImage(List.of("registry/app@sha256:abc", "registry/app:1"), 123L)).endStatus().build();
    }
}
