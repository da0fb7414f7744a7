package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.DaemonSet;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.PodDisruptionBudget;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Nodes, DaemonSets, PDBs, VolumeAttachments and namespaces read back through {@link KubeCluster}. */
class KubeClusterObjectsTest {
    static MockApi api;
    static KubernetesClient client;
    static KubeCluster cluster;

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeAll
    static void seed() {
        api = new MockApi();
        client = api.client;
        Manifests.createNode(client, "node.yaml");
        client.resource(new NodeBuilder().withNewMetadata().withName("leaving")
                .addToFinalizers("gantry.dev/termination").endMetadata()
                .withNewSpec().withUnschedulable(true).addNewTaint().withKey("karpenter.sh/disrupted").withEffect("NoSchedule").endTaint()
                .endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("Unknown").endCondition().endStatus().build()).create();
        client.nodes().withName("leaving").delete(); // the finalizer keeps it, with a deletion timestamp
        client.resource(new DaemonSetBuilder().withNewMetadata().withName("aws-node").withNamespace("kube-system").endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("k8s-app", "aws-node").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("k8s-app", "aws-node").endMetadata()
                .withNewSpec().addNewContainer().withName("cni").withImage("cni").withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("25m")).endResources().endContainer()
                .addNewToleration().withOperator("Exists").endToleration().endSpec().endTemplate().endSpec().build()).create();
        client.resource(new PodDisruptionBudgetBuilder().withNewMetadata().withName("web").withNamespace("web").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString("50%")).withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(1).endStatus().build()).create();
        client.resource(new PodDisruptionBudgetBuilder().withNewMetadata().withName("db").withNamespace("data").endMetadata()
                .withNewSpec().withMaxUnavailable(new IntOrString(0)).endSpec().build()).create();
        client.resource(new VolumeAttachmentBuilder().withNewMetadata().withName("csi-123").endMetadata()
                .withNewSpec().withAttacher("ebs.csi.aws.com").withNodeName("ip-10-0-1-23.ec2.internal")
                .withNewSource().withPersistentVolumeName("pv-1").endSource().endSpec().build()).create();
        client.resource(new NamespaceBuilder().withNewMetadata().withName("web").addToLabels("team", "frontend").endMetadata().build()).create();
        client.resource(new NamespaceBuilder().withNewMetadata().withName("data").endMetadata().build()).create();
        cluster = api.cluster(Clock.systemUTC());
    }

    private static Node node(String name) {
        return cluster.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void mapsANodeWithItsTaintsAllocatableAndReadiness() {
        Node n = node("ip-10-0-1-23.ec2.internal");
        assertThat(n.providerId()).isEqualTo("aws:///us-east-1a/i-0123456789abcdef0");
        assertThat(n.instanceId()).isEqualTo("i-0123456789abcdef0");
        assertThat(n.labels()).containsEntry("node.kubernetes.io/instance-type", "m6g.large").hasSize(5);
        assertThat(n.annotations()).containsEntry("node.alpha.kubernetes.io/ttl", "0");
        assertThat(n.taints()).containsExactly(new Taint("dedicated", "web", Taint.Effect.NoSchedule),
                new Taint("example.com/startup", "", Taint.Effect.NoExecute));
        assertThat(n.allocatable()).isEqualTo(new Resources(1930, 7134256L * 1024, 18242267924L, 29,
                Map.of("vpc.amazonaws.com/pod-eni", 9L)));
        assertThat(n.ready()).isTrue();
        assertThat(n.unschedulable()).isFalse();
        assertThat(n.deleting()).isFalse();
        assertThat(n.finalizers()).containsExactly("gantry.dev/termination");
        assertThat(n.deletionTimestamp()).isNull();
        assertThat(n.createdAt()).isNotNull();
    }

    @Test
    void readsACordonedDeletedNodeAsDeletingAndNotReady() {
        Node n = node("leaving");
        assertThat(n.ready()).isFalse();
        assertThat(n.unschedulable()).isTrue();
        assertThat(n.deleting()).isTrue();
        assertThat(n.deletionTimestamp()).isNotNull();
        assertThat(n.deletionTimestamp()).isAfterOrEqualTo(n.createdAt());
        assertThat(n.effectiveTaints()).contains(Taint.UNSCHEDULABLE, Taint.DISRUPTED);
        assertThat(n.allocatable()).isEqualTo(Resources.ZERO);
    }

    @Test
    void readsADaemonSetTemplateAsADaemonPod() {
        List<DaemonSet> ds = cluster.daemonSets();
        assertThat(ds).hasSize(1);
        DaemonSet d = ds.get(0);
        assertThat(d.namespace()).isEqualTo("kube-system");
        assertThat(d.name()).isEqualTo("aws-node");
        assertThat(d.template().isDaemon()).isTrue();
        assertThat(d.template().ownerName()).isEqualTo("aws-node");
        assertThat(d.template().requests().cpuMillis()).isEqualTo(25);
        assertThat(d.template().labels()).containsEntry("k8s-app", "aws-node");
        assertThat(d.template().tolerations()).hasSize(1);
    }

    @Test
    void readsBudgetsWithTheirSelectorsAndAllowedDisruptions() {
        Map<String, PodDisruptionBudget> byName = new java.util.HashMap<>();
        cluster.podDisruptionBudgets().forEach(b -> byName.put(b.name(), b));
        assertThat(byName.get("web")).isEqualTo(new PodDisruptionBudget("web", "web", LabelSelector.of(Map.of("app", "web")),
                "50%", null, 1));
        PodDisruptionBudget db = byName.get("db");
        assertThat(db.maxUnavailable()).isEqualTo("0");
        assertThat(db.minAvailable()).isNull();
        assertThat(db.disruptionsAllowed()).isZero();
        assertThat(db.selector().matches(Map.of())).isFalse(); // a policy/v1 budget without a selector selects no pods
    }

    @Test
    void listsTheNodesThatStillHaveVolumeAttachments() {
        assertThat(cluster.nodesWithVolumeAttachments()).containsExactly("ip-10-0-1-23.ec2.internal");
    }

    @Test
    void readsNamespaceLabels() {
        assertThat(cluster.namespaceLabels()).containsEntry("web", Map.of("team", "frontend")).containsEntry("data", Map.of());
    }
}
