package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One node's pods are selected by the API server. The CRUD mock answers a {@code spec.nodeName} field selector with an
 * empty list whatever it holds (see STACK-NOTES), so what is checked is the query the adapter sends, and an
 * expectation on exactly that query stands in for the API server's answer.
 */
class KubeClusterPodsOnNodeTest {
    static MockApi api;
    static KubeCluster cluster;

    @BeforeAll
    static void start() {
        api = new MockApi();
        cluster = api.cluster(Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @Test
    void asksTheApiServerForTheNodesPodsWithASpecNodeNameFieldSelectorAcrossNamespaces() throws InterruptedException {
        cluster.podsOn("ip-10-0-0-4.ec2.internal");
        RecordedRequest sent = api.server.getLastRequest();
        String path = sent.getPath();
        assertThat(sent.getMethod()).isEqualTo("GET");
        assertThat(URLDecoder.decode(path, StandardCharsets.UTF_8)).startsWith("/api/v1/pods?")
                .contains("fieldSelector=spec.nodeName=ip-10-0-0-4.ec2.internal", "limit=" + KubeCluster.PAGE_SIZE);

        api.server.expect().get().withPath(path).andReturn(200, new PodListBuilder().withNewMetadata().endMetadata()
                .addToItems(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("shop").withUid("u-web-0")
                        .endMetadata().withNewSpec().withNodeName("ip-10-0-0-4.ec2.internal").addNewContainer().withName("w")
                        .withImage("w").endContainer().endSpec().withNewStatus().withPhase("Running").endStatus().build())
                .build()).once();

        assertThat(cluster.podsOn("ip-10-0-0-4.ec2.internal")).extracting(Pod::key, Pod::nodeName)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("shop/web-0", "ip-10-0-0-4.ec2.internal"));
    }

    @Test
    void readsOneNodeWithASingleGetByName() throws InterruptedException {
        api.client.nodes().resource(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("node-1")
                .endMetadata().withNewSpec().withProviderID("aws:///us-east-1a/i-0001").endSpec().build()).create();
        api.client.nodes().resource(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("node-2")
                .endMetadata().build()).create();

        assertThat(cluster.findNode("node-1")).hasValueSatisfying(n -> assertThat(n.instanceId()).isEqualTo("i-0001"));
        RecordedRequest sent = api.server.getLastRequest();
        assertThat(sent.getMethod()).isEqualTo("GET");
        assertThat(sent.getPath()).isEqualTo("/api/v1/nodes/node-1");
        assertThat(cluster.findNode("gone")).isEmpty();
    }

    @Test
    void theWholeClusterListSendsNoFieldSelector() throws InterruptedException {
        cluster.pods();
        assertThat(URLDecoder.decode(api.server.getLastRequest().getPath(), StandardCharsets.UTF_8)).doesNotContain("fieldSelector");
    }
}
