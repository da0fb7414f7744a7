package dev.gantry.config.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The facts {@code kubectl} shows, as Karpenter v1.14 serves them: names, short names and categories, one served and
 * stored version, the status (and, for NodePool, scale) subresource, and the printer columns of {@code kubectl get}
 * and {@code kubectl get -o wide} (priority 1).
 */
class CrdManifestsTest {
    private static Map<String, Object> spec(KarpenterCrd crd) {
        return Yaml.map(CrdValidator.of(crd).manifest().get("spec"));
    }

    private static Map<String, Object> version(KarpenterCrd crd) {
        return Yaml.map(Yaml.at(spec(crd), "versions", 0));
    }

    /** Columns as NAME[wide]=jsonPath, in order. */
    private static List<String> columns(KarpenterCrd crd) {
        return Yaml.list(version(crd).get("additionalPrinterColumns")).stream().map(Yaml::map)
                .map(c -> c.get("name") + (c.containsKey("priority") ? "[wide]" : "") + "=" + c.get("jsonPath")).toList();
    }

    @Test
    void eachManifestIsOneClusterScopedCrdServingAndStoringV1() {
        for (KarpenterCrd crd : KarpenterCrd.values()) {
            Map<String, Object> m = CrdValidator.of(crd).manifest();
            assertThat(m).containsEntry("apiVersion", "apiextensions.k8s.io/v1").containsEntry("kind", "CustomResourceDefinition");
            assertThat(Yaml.at(m, "metadata", "name")).isEqualTo(crd.crdName());
            assertThat(spec(crd)).containsEntry("group", crd.group()).containsEntry("scope", "Cluster");
            assertThat(Yaml.list(spec(crd).get("versions"))).hasSize(1);
            assertThat(version(crd)).containsEntry("name", "v1").containsEntry("served", true).containsEntry("storage", true);
            assertThat(Yaml.at(spec(crd), "names", "kind")).isEqualTo(crd.kind());
            assertThat(Yaml.at(spec(crd), "names", "plural")).isEqualTo(crd.plural());
            assertThat(Yaml.at(spec(crd), "names", "categories")).isEqualTo(List.of("karpenter"));
            assertThat(Yaml.at(m, "metadata", "annotations", KarpenterCrd.API_VERSION_ANNOTATION)).isEqualTo(KarpenterCrd.KARPENTER_RELEASE);
            assertThat(crd.manifest()).as("credits its source").contains("Apache License 2.0").contains("aws/karpenter-provider-aws");
        }
    }

    @Test
    void onlyEc2NodeClassHasShortNames() {
        assertThat(Yaml.at(spec(KarpenterCrd.EC2_NODE_CLASS), "names", "shortNames")).isEqualTo(List.of("ec2nc", "ec2ncs"));
        assertThat(Yaml.at(spec(KarpenterCrd.NODE_POOL), "names", "shortNames")).isNull();
        assertThat(Yaml.at(spec(KarpenterCrd.NODE_CLAIM), "names", "shortNames")).isNull();
    }

    /** core {@code pkg/apis/v1/nodepool.go}: {@code +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.nodes}. */
    @Test
    void nodePoolHasStatusAndAScaleSubresourceOnReplicasAndNodes() {
        assertThat(version(KarpenterCrd.NODE_POOL).get("subresources")).isEqualTo(Map.of("status", Map.of(),
                "scale", Map.of("specReplicasPath", ".spec.replicas", "statusReplicasPath", ".status.nodes")));
        assertThat(version(KarpenterCrd.NODE_CLAIM).get("subresources")).isEqualTo(Map.of("status", Map.of()));
        assertThat(version(KarpenterCrd.EC2_NODE_CLASS).get("subresources")).isEqualTo(Map.of("status", Map.of()));
    }

    @Test
    void printerColumnsAreKarpentersIncludingTheWideOnes() {
        assertThat(columns(KarpenterCrd.NODE_POOL)).containsExactly(
                "NodeClass=.spec.template.spec.nodeClassRef.name", "Nodes=.status.nodes",
                "Ready=.status.conditions[?(@.type==\"Ready\")].status", "Age=.metadata.creationTimestamp",
                "Weight[wide]=.spec.weight", "CPU[wide]=.status.resources.cpu", "Memory[wide]=.status.resources.memory");
        assertThat(columns(KarpenterCrd.NODE_CLAIM)).containsExactly(
                "Type=.metadata.labels.node\\.kubernetes\\.io/instance-type", "Capacity=.metadata.labels.karpenter\\.sh/capacity-type",
                "Zone=.metadata.labels.topology\\.kubernetes\\.io/zone", "Node=.status.nodeName",
                "Ready=.status.conditions[?(@.type==\"Ready\")].status", "Age=.metadata.creationTimestamp",
                "ImageID[wide]=.status.imageID", "ID[wide]=.status.providerID", "NodePool[wide]=.metadata.labels.karpenter\\.sh/nodepool",
                "NodeClass[wide]=.spec.nodeClassRef.name", "Drifted[wide]=.status.conditions[?(@.type==\"Drifted\")].status");
        assertThat(columns(KarpenterCrd.EC2_NODE_CLASS)).containsExactly(
                "Ready=.status.conditions[?(@.type==\"Ready\")].status", "Age=.metadata.creationTimestamp", "Role[wide]=.spec.role");
    }

    @Test
    void aStatusAsKarpenterWritesItIsValid() {
        String claim = CrdFixtures.claimRequirements(CrdFixtures.SPOT) + """
                status:
                  providerID: aws:///us-east-1a/i-0123456789abcdef0
                  imageID: ami-0123456789abcdef0
                  nodeName: ip-10-0-1-23.ec2.internal
                  capacity: {cpu: "2", memory: 7910Mi, pods: "29"}
                  allocatable: {cpu: 1930m, memory: 7220Mi, pods: "29"}
                  conditions:
                    - {type: Launched, status: "True", reason: Launched, message: "", lastTransitionTime: "2026-12-05T10:00:00Z"}
                    - {type: Drifted, status: "False", reason: NotDrifted, lastTransitionTime: "2026-12-05T10:00:00Z"}
                """;
        assertThat(CrdValidator.of(KarpenterCrd.NODE_CLAIM).validateCreate(CrdFixtures.object(claim))).isEmpty();
        String pool = CrdFixtures.pool("") + """
                status:
                  nodes: 3
                  resources: {cpu: "12", memory: 48Gi, pods: "87"}
                  conditions:
                    - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2026-12-05T10:00:00Z"}
                """;
        assertThat(CrdValidator.of(KarpenterCrd.NODE_POOL).validateCreate(CrdFixtures.object(pool))).isEmpty();
        String badCondition = pool.replace("status: \"True\", reason: Ready", "status: Yes, reason: Ready");
        assertThat(CrdValidator.of(KarpenterCrd.NODE_POOL).validateCreate(CrdFixtures.object(badCondition)))
                .extracting(CrdValidator.Violation::path).containsExactly("/status/conditions/0/status");
        String twice = pool.replace("    - {type: Ready,", "    - {type: Ready, status: \"False\", reason: NotReady, message: \"\", lastTransitionTime: \"2026-12-05T09:00:00Z\"}\n    - {type: Ready,");
        assertThat(CrdValidator.of(KarpenterCrd.NODE_POOL).validateCreate(CrdFixtures.object(twice)))
                .extracting(CrdValidator.Violation::toString).containsExactly("SCHEMA status.conditions[1]: duplicate value [Ready] in a list of type map");
    }

    @Test
    void defaultsFillWhatTheApiServerFills() {
        Object defaulted = Defaults.apply(Yaml.map(Yaml.at(version(KarpenterCrd.NODE_POOL), "schema", "openAPIV3Schema")),
                CrdFixtures.object(CrdFixtures.pool("")));
        assertThat(Yaml.at(defaulted, "spec", "disruption")).isEqualTo(Map.of("consolidateAfter", "0s",
                "consolidationPolicy", "WhenEmptyOrUnderutilized", "budgets", List.of(Map.of("nodes", "10%"))));
        assertThat(Yaml.at(defaulted, "spec", "template", "spec", "expireAfter")).isEqualTo("720h");
    }
}
