package dev.gantry.handlers.attach;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.config.deployment.ClusterManifests;
import dev.gantry.core.cluster.ClusterReader;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.status.NodeClaimObjects;
import dev.gantry.core.status.OverlayStatusObjects;
import dev.gantry.core.status.StatusObjects;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each controller's ClusterRole grants every API call its code makes through the Kubernetes ports. The calls per
 * function are read from the services each handler wires (a termination slice runs in process wherever
 * {@code TerminationService.start} is called); the API calls per port method from {@code KubeCluster}. A new port
 * method without an entry here fails {@link #everyPortMethodHasItsApiCalls}.
 */
class RbacCoverageTest {
    /** Port method -> the (group/resource verb) calls KubeCluster makes for it. */
    private static final Map<String, List<String>> API_CALLS = Map.ofEntries(
            Map.entry("pods", List.of("/pods list")),
            Map.entry("nodes", List.of("/nodes list")),
            Map.entry("daemonSets", List.of("apps/daemonsets list")),
            Map.entry("podDisruptionBudgets", List.of("policy/poddisruptionbudgets list")),
            Map.entry("nodesWithVolumeAttachments", List.of("storage.k8s.io/volumeattachments list")),
            Map.entry("namespaceLabels", List.of("/namespaces list")),
            Map.entry("patchNode", List.of("/nodes get", "/nodes patch")),
            Map.entry("evict", List.of("/pods/eviction create")),
            Map.entry("deletePod", List.of("/pods delete")),
            Map.entry("deleteNode", List.of("/nodes delete")),
            Map.entry("event", List.of("/events create")));
    /** What KubeConfigObjects.list calls on every run (not a port method: the configuration's source). */
    private static final List<String> BUFFER_CALLS = List.of("karpenter.sh/nodepools list", "karpenter.sh/nodeoverlays list",
            "karpenter.k8s.aws/ec2nodeclasses list", "autoscaling.x-k8s.io/capacitybuffers list",
            "/podtemplates get", "apps/deployments get", "apps/statefulsets get", "apps/replicasets get");
    /** What the sweep's cluster-object steps call, per port method (KubeNodeClaims, KubeStatusObjects). */
    private static final Map<String, List<String>> OBJECT_CALLS = Map.ofEntries(
            Map.entry("list", List.of("karpenter.sh/nodeclaims list")),
            Map.entry("create", List.of("karpenter.sh/nodeclaims create", "karpenter.sh/nodeclaims/status patch", "karpenter.sh/nodeclaims patch")),
            Map.entry("update", List.of("karpenter.sh/nodeclaims/status patch", "karpenter.sh/nodeclaims patch")),
            Map.entry("removeFinalizer", List.of("karpenter.sh/nodeclaims patch")),
            Map.entry("delete", List.of("karpenter.sh/nodeclaims delete")),
            Map.entry("nodePools", List.of("karpenter.sh/nodepools list")),
            Map.entry("nodeClasses", List.of("karpenter.k8s.aws/ec2nodeclasses list")),
            Map.entry("writeNodePool", List.of("karpenter.sh/nodepools/status patch")),
            Map.entry("writeNodeClass", List.of("karpenter.k8s.aws/ec2nodeclasses/status patch")),
            Map.entry("nodeOverlays", List.of("karpenter.sh/nodeoverlays list")),
            Map.entry("writeNodeOverlay", List.of("karpenter.sh/nodeoverlays/status patch")));
    /** What a termination slice calls (TerminationService.slice and its commands). */
    private static final List<String> SLICE = List.of("pods", "nodes", "podDisruptionBudgets",
            "nodesWithVolumeAttachments", "patchNode", "evict", "deletePod", "deleteNode");
    private static final Map<String, List<String>> CALLS = Map.of(
            // ClusterView.read, RunLog events, registration patches, startForDeletedNode's slice.
            "provisioner", concat(SLICE, List.of("daemonSets", "namespaceLabels", "event", "buffers")),
            // InterruptionService reads pods and records events, then starts a slice.
            "interruption", concat(SLICE, List.of("event", "buffers")),
            // Consolidation's validation reads the planning view (ClusterView.read) and the headroom's buffers, and
            // taints (patch) candidates.
            // Consolidation's hand-off starts the candidates' flows: DisruptionTerminating events.
            "termination", concat(SLICE, List.of("daemonSets", "namespaceLabels", "buffers", "event")),
            // SweepService reads pods and nodes, registers (patch) and finishes (delete) nodes, starts slices; its
            // consolidation step reads the planning view and records node events; it reads the headroom's buffers.
            // and writes the NodeClaim objects and the NodePool/EC2NodeClass status.
            "sweep", concat(SLICE, List.of("daemonSets", "namespaceLabels", "event", "buffers", "objects")));

    /** Every call source: the port methods, and the headroom's buffer reads. */
    private static final Map<String, List<String>> CALLS_OF = withBuffers();

    private static Map<String, List<String>> withBuffers() {
        Map<String, List<String>> m = new java.util.HashMap<>(API_CALLS);
        m.put("buffers", BUFFER_CALLS);
        m.put("objects", OBJECT_CALLS.values().stream().flatMap(List::stream).distinct().toList());
        return Map.copyOf(m);
    }

    @Test
    void everyPortMethodHasItsApiCalls() {
        Set<String> methods = Stream.of(ClusterReader.class, ClusterWriter.class)
                .flatMap(c -> Arrays.stream(c.getDeclaredMethods())).filter(m -> !m.isDefault() && !m.isSynthetic())
                .map(Method::getName).collect(Collectors.toSet());
        assertThat(API_CALLS.keySet()).isEqualTo(methods);
        assertThat(CALLS_OF.keySet()).containsAll(API_CALLS.keySet()).contains("buffers");
        Set<String> objectMethods = Stream.of(NodeClaimObjects.class, StatusObjects.class, OverlayStatusObjects.class)
                .flatMap(c -> Arrays.stream(c.getDeclaredMethods())).filter(m -> !m.isDefault() && !m.isSynthetic())
                .map(Method::getName).collect(Collectors.toSet());
        assertThat(OBJECT_CALLS.keySet()).isEqualTo(objectMethods);
    }

    @Test
    void eachControllersRoleGrantsEveryCallItMakes() {
        assertThat(CALLS.keySet()).containsExactlyInAnyOrderElementsOf(ClusterManifests.CONTROLLERS);
        CALLS.forEach((function, methods) -> {
            Set<String> granted = granted(function);
            for (String m : methods) {
                assertThat(granted).as(function + " calls " + m).containsAll(CALLS_OF.get(m));
            }
        });
    }

    @Test
    void regressionTheProvisionerMayListNamespacesForAffinitySelectors() {
        assertThat(granted("provisioner")).contains("/namespaces list");
    }

    @Test
    void noRoleGrantsACallItsFunctionDoesNotMake() {
        CALLS.forEach((function, methods) -> {
            Set<String> needed = methods.stream().flatMap(m -> CALLS_OF.get(m).stream()).collect(Collectors.toSet());
            assertThat(granted(function)).as(function).isEqualTo(needed);
        });
    }

    @SuppressWarnings("unchecked")
    private static Set<String> granted(String function) {
        return ClusterManifests.rules(function).stream().flatMap(r -> ((List<String>) r.get("apiGroups")).stream()
                .flatMap(g -> ((List<String>) r.get("resources")).stream()
                        .flatMap(res -> ((List<String>) r.get("verbs")).stream().map(v -> g + "/" + res + " " + v))))
                .collect(Collectors.toSet());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
