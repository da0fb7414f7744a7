package dev.gantry.handlers.lifecycle.it;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sets the scene in the rig's world the way Gantry and the cluster would have left it: an instance, its claim, its
 * Node (with Gantry's finalizer) and pods. Names follow events/README.md.
 */
final class Scene {
    static final String POOL = "default";
    static final String CLAIM = "default-x7k2p";
    static final String NODE = "ip-10-0-0-4.ec2.internal";
    static final String NS = "default";
    static final String POD = "web-6d5f7c8b9-x7k2p";

    private final LifecycleRig rig;

    Scene(LifecycleRig rig) {
        this.rig = rig;
    }

    static NodePool pool(Map<String, String> annotations, Duration terminationGracePeriod) {
        return new NodePool(POOL, annotations, new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.ofNullable(terminationGracePeriod)),
                null, Map.of(), null, null);
    }

    /** A node Gantry launched an hour ago, registered and initialized; returns its instance id. */
    String ownedNode(String claimName, String nodeName) {
        Instant launched = rig.clock.instant().minus(Duration.ofHours(1));
        String id = rig.launchedInstance(claimName, launched);
        rig.store.create(NodeClaim.launching(claimName, POOL, "hash", List.of(), List.of("m5.large"), List.of(), "m5.large",
                        "us-east-1a", "spot", 0.035, launched)
                .launched(id, "m5.large", "us-east-1a", "spot", 0.035, launched)
                .registered(nodeName, launched.plusSeconds(40)).initialized(launched.plusSeconds(60)));
        node(nodeName, id, true);
        return id;
    }

    void node(String name, String instanceId, boolean withFinalizer) {
        rig.kube.nodes().resource(new NodeBuilder()
                .withNewMetadata().withName(name).withUid("uid-" + name).withCreationTimestamp("2025-06-01T11:00:40Z")
                .addToLabels("karpenter.sh/nodepool", POOL).addToLabels("node.kubernetes.io/instance-type", "m5.large")
                .addToLabels("topology.kubernetes.io/zone", "us-east-1a").addToLabels("karpenter.sh/initialized", "true")
                .withFinalizers(withFinalizer ? List.of(Node.FINALIZER) : List.of()).endMetadata()
                .withNewSpec().withProviderID("aws:///us-east-1a/" + instanceId).endSpec()
                .withNewStatus().addToAllocatable("cpu", new Quantity("1930m")).addToAllocatable("memory", new Quantity("7Gi"))
                .addToAllocatable("pods", new Quantity("29"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus()
                .build()).create();
    }

    /** A Running pod of a ReplicaSet, bound to {@code node}, labelled app=web. */
    void pod(String name, String node, Map<String, String> annotations) {
        rig.kube.pods().inNamespace(NS).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).withUid("uid-" + name).addToLabels("app", "web")
                .withAnnotations(annotations).addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet")
                .withName("web-6d5f7c8b9").withUid("rs-uid").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("app").withImage("nginx")
                .withNewResources().addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("512Mi"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
    }

    /** A PodDisruptionBudget over app=web whose status allows {@code disruptionsAllowed} evictions. */
    void pdb(String name, int disruptionsAllowed) {
        rig.kube.policy().v1().podDisruptionBudget().inNamespace(NS).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withNewSpec().withNewMinAvailable(1).withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(disruptionsAllowed).withCurrentHealthy(1).withDesiredHealthy(1)
                .withExpectedPods(1).endStatus().build()).create();
    }

    /** What the API server does once an eviction is accepted (the mock server only answers it). */
    void evictionCompletes(String pod) {
        rig.kube.pods().inNamespace(NS).withName(pod).delete();
    }

    boolean nodeExists(String name) {
        return rig.kube.nodes().withName(name).get() != null;
    }

    boolean podExists(String name) {
        return rig.kube.pods().inNamespace(NS).withName(name).get() != null;
    }

    io.fabric8.kubernetes.api.model.Node getNode(String name) {
        return rig.kube.nodes().withName(name).get();
    }
}
