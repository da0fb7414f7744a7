package dev.gantry.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.model.HostPort;
import dev.gantry.core.model.LabelSelector;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.PodAffinityTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.model.Toleration;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pods written as real manifests, created in the CRUD mock server and read back through {@link KubeCluster}. */
class KubeClusterPodsTest {
    static MockApi api;
    static KubernetesClient client;
    static KubeCluster cluster;
    static Map<String, Pod> pods;

    @AfterAll
    static void stop() {
        api.close();
    }

    @BeforeAll
    static void readCluster() {
        api = new MockApi();
        client = api.client;
        Manifests.createPod(client, "nginx-seed002.yaml");
        Manifests.createPod(client, "sidecars.yaml");
        Manifests.createPod(client, "affinities.yaml");
        client.resource(new PodBuilder().withNewMetadata().withName("kube-proxy-node1").withNamespace("kube-system")
                .addToAnnotations("kubernetes.io/config.mirror", "abc").endMetadata()
                .withNewSpec().withNodeName("node1").addNewContainer().withName("p").withImage("p").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        client.resource(new PodBuilder().withNewMetadata().withName("fluent-bit-x").withNamespace("logging")
                .addToFinalizers("example.com/keep")
                .addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName("cfg").withUid("u1").endOwnerReference()
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("DaemonSet").withName("fluent-bit").withUid("u2")
                .withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("node1").addNewContainer().withName("f").withImage("f").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        client.pods().inNamespace("logging").withName("fluent-bit-x").delete(); // kept by its finalizer, now deleting
        client.resource(new PodBuilder().withNewMetadata().withName("pod-level").withNamespace("default").endMetadata()
                .withNewSpec().withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("3"))
                .addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("2Gi")).endResources()
                .addNewContainer().withName("c").withImage("c").withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("100m")).endResources().endContainer().endSpec()
                .build()).create();
        cluster = api.cluster(Clock.systemUTC());
        pods = new java.util.HashMap<>();
        cluster.pods().forEach(p -> pods.put(p.key(), p));
    }

    @Test
    void readsPodsFromEveryNamespace() {
        assertThat(pods.keySet()).containsExactlyInAnyOrder("default/nginx-7d9c6b8f5-abcde", "shop/app-with-sidecar",
                "web/web-0", "kube-system/kube-proxy-node1", "logging/fluent-bit-x", "default/pod-level");
    }

    @Test
    void defaultsSeed002NginxRequestsFromItsLimits() {
        Pod nginx = pods.get("default/nginx-7d9c6b8f5-abcde");
        assertThat(nginx.requests()).isEqualTo(new Resources(250, 512L << 20, 0, 1, Map.of()));
        assertThat(nginx.hostPorts()).isEmpty(); // a containerPort without hostPort takes no node port
        assertThat(nginx.ownerKind()).isEqualTo("ReplicaSet");
        assertThat(nginx.ownerName()).isEqualTo("nginx-7d9c6b8f5");
        assertThat(nginx.uid()).isNotBlank().isNotEqualTo(nginx.key());
    }

    @Test
    void mapsSeed002NodeAffinityToOneRequirementTerm() {
        Pod nginx = pods.get("default/nginx-7d9c6b8f5-abcde");
        assertThat(nginx.requiredNodeAffinity()).containsExactly(Requirements.of(
                Requirement.of("kubernetes.io/arch", Operator.In, "arm64"),
                Requirement.of("karpenter.k8s.aws/instance-category", Operator.In, "t"),
                Requirement.of("karpenter.k8s.aws/instance-cpu", Operator.In, "2", "4"),
                Requirement.of("karpenter.k8s.aws/instance-generation", Operator.In, "4"),
                Requirement.of("topology.kubernetes.io/zone", Operator.In, "ap-northeast-2a", "ap-northeast-2b"),
                Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot")));
    }

    @Test
    void marksAPodThatKubeSchedulerGaveUpOnAsProvisionable() {
        Pod nginx = pods.get("default/nginx-7d9c6b8f5-abcde");
        assertThat(nginx.status().phase()).isEqualTo("Pending");
        assertThat(nginx.status().unschedulable()).isTrue();
        assertThat(nginx.status().terminationGracePeriodSeconds()).isEqualTo(30L);
        assertThat(nginx.isProvisionable()).isTrue();
    }

    @Test
    void filtersPendingUnschedulablePodsInJava() {
        List<String> provisionable = cluster.pods().stream().filter(Pod::isProvisionable).map(Pod::key).toList();
        // The sidecar pod is Pending but kube-scheduler has not marked it Unschedulable yet; the others are bound.
        assertThat(provisionable).containsExactlyInAnyOrder("default/nginx-7d9c6b8f5-abcde", "web/web-0");
    }

    @Test
    void sumsSidecarsWithAppsAndTakesTheInitPeakAsKubeSchedulerDoes() {
        Pod p = pods.get("shop/app-with-sidecar");
        // apps 300m+50m (+ the limit-only GPU) + sidecar 200m = 550m; init peak = sidecar 200m + migrate 1000m = 1200m;
        // the larger plus the 100m runtime overhead = 1300m. Memory: apps 544Mi + 128Mi = 672Mi vs 384Mi, + 64Mi.
        assertThat(p.requests().cpuMillis()).isEqualTo(1300);
        assertThat(p.requests().memoryBytes()).isEqualTo(736L << 20);
        assertThat(p.requests().get("nvidia.com/gpu")).isEqualTo(1);
        assertThat(p.hostPorts()).containsExactly(new HostPort(8080, "TCP", null), new HostPort(9090, "UDP", "10.0.0.1"));
        assertThat(p.priority()).isEqualTo(2_000_000_000);
        assertThat(p.isCritical()).isTrue();
        assertThat(p.status().terminationGracePeriodSeconds()).isEqualTo(120L);
        assertThat(p.isProvisionable()).isFalse();
    }

    @Test
    void normalizesNodeAffinityKeysAndKeepsTermsOred() {
        Pod web = pods.get("web/web-0");
        assertThat(web.requiredNodeAffinity()).containsExactly(
                Requirements.of(Requirement.of("karpenter.k8s.aws/instance-category", Operator.In, "c", "m"),
                        Requirement.of("karpenter.k8s.aws/instance-generation", Operator.Gt, "5")),
                Requirements.of(Requirement.of("node.kubernetes.io/instance-type", Operator.In, "m5.large")));
        assertThat(web.nodeSelector()).containsEntry("beta.kubernetes.io/arch", "amd64");
        assertThat(web.nodeRequirementTerms().get(0).get("kubernetes.io/arch").has("amd64")).isTrue();
        assertThat(web.preferredNodeAffinity()).extracting(Pod.WeightedRequirements::weight).containsExactly(80, 20);
        assertThat(web.preferredNodeAffinity().get(0).requirements())
                .isEqualTo(Requirements.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "spot")));
    }

    @Test
    void mapsPodAffinityTermsWithNamespacesAndNamespaceSelectors() {
        Pod web = pods.get("web/web-0");
        assertThat(web.podAffinity()).isEmpty();
        assertThat(web.preferredPodAffinity()).containsExactly(new PodAffinityTerm(LabelSelector.of(Map.of("app", "cache")),
                "topology.kubernetes.io/zone", List.of(), LabelSelector.EVERYTHING, 50));
        PodAffinityTerm anti = web.podAntiAffinity().get(0);
        assertThat(anti.topologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(anti.namespaces()).containsExactly("web", "web-canary");
        assertThat(anti.namespaceSelector()).isNull();
        assertThat(anti.weight()).isZero();
        // matchLabelKeys pins the pod's own version; mismatchLabelKeys excludes its own tier.
        assertThat(anti.selector().matches(Map.of("app", "web", "version", "v2", "tier", "backend"))).isTrue();
        assertThat(anti.selector().matches(Map.of("app", "web", "version", "v1", "tier", "backend"))).isFalse();
        assertThat(anti.selector().matches(Map.of("app", "web", "version", "v2", "tier", "frontend"))).isFalse();
        assertThat(web.preferredPodAntiAffinity()).isEmpty();
    }

    @Test
    void mapsTopologySpreadConstraintsWithAllTheirPolicies() {
        Pod web = pods.get("web/web-0");
        assertThat(web.topologySpread()).containsExactly(
                new TopologySpread(1, "topology.kubernetes.io/zone", true, LabelSelector.of(Map.of("app", "web", "version", "v2")),
                        3, List.of("version"), false, true),
                new TopologySpread(2, "kubernetes.io/hostname", false, LabelSelector.of(Map.of("app", "web")),
                        null, List.of(), true, false));
    }

    @Test
    void mapsTolerationsIncludingEmptyKeyAndEffect() {
        Pod web = pods.get("web/web-0");
        assertThat(web.tolerations()).containsExactly(
                Toleration.equal("dedicated", "web", Taint.Effect.NoSchedule),
                Toleration.exists("karpenter.sh/disrupted"),
                new Toleration("", Toleration.Operator.Exists, "", Taint.Effect.NoExecute));
        assertThat(web.doNotDisrupt()).isTrue();
    }

    @Test
    void readsAMirrorPodAsOwnedByItsNode() {
        Pod mirror = pods.get("kube-system/kube-proxy-node1");
        assertThat(mirror.ownerKind()).isEqualTo("Node");
        assertThat(mirror.ownerName()).isEqualTo("node1");
        assertThat(mirror.isMirror()).isTrue();
        assertThat(mirror.isBound()).isTrue();
    }

    @Test
    void takesTheControllerAmongSeveralOwnersAndReadsTimestamps() {
        Pod ds = pods.get("logging/fluent-bit-x");
        assertThat(ds.isDaemon()).isTrue();
        assertThat(ds.ownerName()).isEqualTo("fluent-bit");
        assertThat(ds.status().createdAt()).isNotNull();
        assertThat(ds.status().deletingSince()).isAfterOrEqualTo(ds.status().createdAt());
        assertThat(ds.status().phase()).isEqualTo("Running");
    }
    @Test
    void readsPodLevelResourcesAsKubernetes134Does() {
        Pod p = pods.get("default/pod-level");
        assertThat(p.requests().cpuMillis()).isEqualTo(3000);
        assertThat(p.requests().memoryBytes()).isEqualTo(2L << 30);
    }
}
