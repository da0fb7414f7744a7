package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Taint;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Node patches, deletions and events written through {@link KubeCluster} and checked with a plain client. */
class KubeClusterWritesTest {
    static final AtomicInteger SEQ = new AtomicInteger();
    static MockApi api;
    static KubernetesClient client;
    static KubeCluster cluster;

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeAll
    static void connect() {
        api = new MockApi();
        client = api.client;
        cluster = new KubeCluster(KubeClients.forUrl(client.getConfiguration().getMasterUrl()),
                Clock.fixed(Instant.parse("2026-04-01T12:00:00Z"), ZoneOffset.UTC));
    }

    /** The node under test: node.yaml under a name of its own, since its finalizer keeps a deleted node around. */
    String node;

    @BeforeEach
    void freshNode() {
        node = "ip-10-0-1-" + SEQ.incrementAndGet() + ".ec2.internal";
        Node n = Manifests.node(client, "node.yaml");
        n.getMetadata().setName(node);
        client.resource(n).create();
    }

    private Node read() {
        return client.nodes().withName(node).get();
    }

    private static List<String> taints(Node n) {
        return n.getSpec().getTaints() == null ? List.of()
                : n.getSpec().getTaints().stream().map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect()).toList();
    }

    @Test
    void mergesLabelsIntoTheExistingOnes() {
        cluster.patchNode(node, NodePatch.labels(Map.of("node.kubernetes.io/exclude-from-external-load-balancers", "true",
                "karpenter.sh/nodepool", "default")));
        Map<String, String> labels = read().getMetadata().getLabels();
        assertThat(labels).containsEntry("node.kubernetes.io/exclude-from-external-load-balancers", "true")
                .containsEntry("karpenter.sh/capacity-type", "spot").hasSize(6);
    }

    /** Registration's patch for the labels the kubelet may not set itself (#21): empty values and restricted domains. */
    @Test
    void setsTheNodePoolLabelsTheKubeletMayNotSetItselfEmptyValuesIncluded() {
        cluster.patchNode(node, NodePatch.labels(Map.of("node-role.kubernetes.io/worker", "",
                "node-restriction.kubernetes.io/tier", "gold")));
        assertThat(read().getMetadata().getLabels()).containsEntry("node-role.kubernetes.io/worker", "")
                .containsEntry("node-restriction.kubernetes.io/tier", "gold").containsEntry("karpenter.sh/capacity-type", "spot");
    }

    /** Registration's patch for the pool's template annotations: merged into those the node has, through the mock. */
    @Test
    void mergesAnnotationsIntoTheExistingOnes() {
        Map<String, String> before = read().getMetadata().getAnnotations();
        cluster.patchNode(node, new NodePatch(null, null, null, null, null, null, null,
                Map.of("example.com/team", "web", "karpenter.sh/do-not-disrupt", "true")));
        Map<String, String> after = read().getMetadata().getAnnotations();
        assertThat(after).containsEntry("example.com/team", "web").containsEntry("karpenter.sh/do-not-disrupt", "true")
                .containsAllEntriesOf(before).hasSize(before.size() + 2);
        String version = read().getMetadata().getResourceVersion();
        cluster.patchNode(node, new NodePatch(null, null, null, null, null, null, null, Map.of("example.com/team", "web")));
        assertThat(read().getMetadata().getResourceVersion()).as("nothing sent when already set").isEqualTo(version);
    }

    @Test
    void addsATaintAndKeepsTheOthersWithTheirTimeAdded() {
        cluster.patchNode(node, new NodePatch(null, List.of(Taint.DISRUPTED), null, true, null, null));
        Node n = read();
        assertThat(taints(n)).containsExactly("dedicated=web:NoSchedule", "example.com/startup=null:NoExecute",
                "karpenter.sh/disrupted=null:NoSchedule");
        assertThat(n.getSpec().getTaints().get(1).getTimeAdded()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(n.getSpec().getUnschedulable()).isTrue();
    }

    @Test
    void removesTaintsByKeyAndUncordons() {
        cluster.patchNode(node, new NodePatch(null, null, null, true, null, null));
        cluster.patchNode(node, new NodePatch(null, null, List.of("example.com/startup", "absent"), false, null, null));
        Node n = read();
        assertThat(taints(n)).containsExactly("dedicated=web:NoSchedule");
        assertThat(n.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void addsAndRemovesFinalizers() {
        cluster.patchNode(node, NodePatch.addFinalizer("example.com/other"));
        assertThat(read().getMetadata().getFinalizers()).containsExactly("gantry.dev/termination", "example.com/other");
        cluster.patchNode(node, NodePatch.removeFinalizer("gantry.dev/termination"));
        assertThat(read().getMetadata().getFinalizers()).containsExactly("example.com/other");
    }

    @Test
    void sendsNothingWhenTheNodeAlreadyIsAsAsked() {
        String before = read().getMetadata().getResourceVersion();
        cluster.patchNode(node, new NodePatch(Map.of("karpenter.sh/nodepool", "default"),
                List.of(new Taint("dedicated", "web", Taint.Effect.NoSchedule)), List.of("absent"), false,
                List.of("gantry.dev/termination"), List.of("absent")));
        assertThat(read().getMetadata().getResourceVersion()).isEqualTo(before);
    }

    @Test
    void reportsAMissingNodeAsNotFound() {
        assertThatThrownBy(() -> cluster.patchNode("ghost", NodePatch.labels(Map.of("a", "b"))))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.notFound()).isTrue();
                    assertThat(e.retryable()).isFalse();
                });
    }

    @Test
    void deletingANodeWithOurFinalizerOnlyMarksItUntilTheFinalizerIsRemoved() {
        cluster.deleteNode(node);
        assertThat(read().getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(cluster.nodes()).filteredOn(n -> n.name().equals(node)).singleElement()
                .satisfies(n -> assertThat(n.deleting()).isTrue());
        cluster.patchNode(node, NodePatch.removeFinalizer("gantry.dev/termination"));
        assertThat(read()).isNull();
        cluster.deleteNode(node); // already gone: quietly done
    }

    @Test
    void recomputesFromAFreshCopyWhenTheNodeChangedSinceItWasRead() {
        Node stale = read();
        // Someone else taints the node after our read...
        client.nodes().withName(node).edit(n -> {
            n.getSpec().getTaints().add(new io.fabric8.kubernetes.api.model.TaintBuilder().withKey("other.io/maintenance")
                    .withEffect("NoExecute").build());
            return n;
        });
        // ...so the first GET answers with our stale copy, and the patch built from it must not win.
        api.server.expect().get().withPath("/api/v1/nodes/" + node).andReturn(200, stale).once();
        cluster.patchNode(node, new NodePatch(null, List.of(Taint.DISRUPTED), null, null, null, null));
        assertThat(taints(read())).containsExactly("dedicated=web:NoSchedule", "example.com/startup=null:NoExecute",
                "other.io/maintenance=null:NoExecute", "karpenter.sh/disrupted=null:NoSchedule");
    }

    @Test
    void deletesAPodAndToleratesOneAlreadyGone() {
        client.resource(new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withTerminationGracePeriodSeconds(5L).addNewContainer().withName("c").withImage("c").endContainer()
                .endSpec().build()).create();
        Pod pod = cluster.pods().stream().filter(p -> p.name().equals("p")).findFirst().orElseThrow();
        cluster.deletePod(pod);
        assertThat(client.pods().inNamespace("ns").withName("p").get()).isNull();
        cluster.deletePod(pod);
    }

    @Test
    void recordsEventsOnPodsAndNodesWithTheObjectsUid() {
        client.resource(new PodBuilder().withNewMetadata().withName("pending").withNamespace("shop").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("c").endContainer().endSpec().build()).create();
        cluster.pods();
        cluster.nodes();
        cluster.event("Pod", "shop", "pending", "Normal", "Nominated", "Pod should schedule on nodeclaim default-abc12");
        cluster.event("Node", null, node, "Normal", "DisruptionBlocked", "PDB web/web prevents eviction");

        Event onPod = client.v1().events().inNamespace("shop").list().getItems().get(0);
        assertThat(onPod.getInvolvedObject().getKind()).isEqualTo("Pod");
        assertThat(onPod.getInvolvedObject().getName()).isEqualTo("pending");
        assertThat(onPod.getInvolvedObject().getUid()).isEqualTo(client.pods().inNamespace("shop").withName("pending").get()
                .getMetadata().getUid());
        assertThat(onPod.getReason()).isEqualTo("Nominated");
        assertThat(onPod.getType()).isEqualTo("Normal");
        assertThat(onPod.getMessage()).isEqualTo("Pod should schedule on nodeclaim default-abc12");
        assertThat(onPod.getSource().getComponent()).isEqualTo("gantry");
        assertThat(onPod.getFirstTimestamp()).isEqualTo("2026-04-01T12:00:00Z");

        Event onNode = client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> e.getReason().equals("DisruptionBlocked")).findFirst().orElseThrow();
        assertThat(onNode.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(onNode.getInvolvedObject().getNamespace()).isNull();
        assertThat(onNode.getInvolvedObject().getUid()).isEqualTo(read().getMetadata().getUid());
    }

    @Test
    void swallowsAnEventTheApiServerRefuses() {
        api.server.expect().post().withPath("/api/v1/namespaces/broken/events").andReturn(403, "forbidden").always();
        cluster.event("Pod", "broken", "p", "Warning", "FailedScheduling", "no NodePool fits");
        assertThat(client.v1().events().inNamespace("broken").list().getItems()).isEmpty();
    }

    @Test
    void givesEachEventItsOwnNameUnderAFixedClock() {
        cluster.event("Pod", "burst", "p", "Warning", "FailedScheduling", "one");
        cluster.event("Pod", "burst", "p", "Warning", "FailedScheduling", "two");
        assertThat(client.v1().events().inNamespace("burst").list().getItems()).hasSize(2);
    }
}
