package dev.gantry.config.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterManifestsTest {
    private static final List<Map<String, Object>> DRAIN = List.of(
            rule("", List.of("pods"), "list", "delete"),
            rule("", List.of("nodes"), "list", "get", "patch", "delete"),
            rule("", List.of("pods/eviction"), "create"),
            rule("policy", List.of("poddisruptionbudgets"), "list"),
            rule("storage.k8s.io", List.of("volumeattachments"), "list"));

    @Test
    void appliesEachRoleThenItsBindingThenTheWebhookLast() {
        assertThat(ClusterManifests.all()).extracting(m -> m.get("kind") + " " + name(m)).containsExactly(
                "ClusterRole gantry-provisioner", "ClusterRoleBinding gantry-provisioner",
                "ClusterRole gantry-interruption", "ClusterRoleBinding gantry-interruption",
                "ClusterRole gantry-termination", "ClusterRoleBinding gantry-termination",
                "ClusterRole gantry-sweep", "ClusterRoleBinding gantry-sweep",
                "ValidatingWebhookConfiguration gantry");
    }

    @Test
    void theProvisionerAlsoListsDaemonSetsAndNamespacesRecordsEventsAndReadsBuffers() {
        List<Map<String, Object>> expected = with(DRAIN, rule("apps", List.of("daemonsets"), "list"),
                rule("", List.of("namespaces"), "list"), rule("", List.of("events"), "create"));
        expected.addAll(BUFFERS_READ);
        assertThat(ClusterManifests.rules("provisioner")).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** The configuration every controller reads on every run: NodePools, EC2NodeClasses, buffers and their targets. */
    private static final List<Map<String, Object>> BUFFERS_READ = List.of(rule("karpenter.sh", List.of("nodepools", "nodeoverlays"), "list"),
            rule("karpenter.k8s.aws", List.of("ec2nodeclasses"), "list"),
            rule("autoscaling.x-k8s.io", List.of("capacitybuffers"), "list"), rule("", List.of("podtemplates"), "get"),
            rule("apps", List.of("deployments", "statefulsets", "replicasets"), "get"));

    @Test
    void theInterruptionFunctionAlsoRecordsEventsAndReadsTheConfiguration() {
        List<Map<String, Object>> expected = with(DRAIN, rule("", List.of("events"), "create"));
        expected.addAll(BUFFERS_READ);
        assertThat(ClusterManifests.rules("interruption")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void terminationAlsoListsDaemonSetsAndNamespacesAndReadsBuffersForConsolidationAndTheSweepAlsoRecordsEvents() {
        List<Map<String, Object>> termination = with(DRAIN, rule("apps", List.of("daemonsets"), "list"),
                rule("", List.of("namespaces"), "list"), rule("", List.of("events"), "create"));
        termination.addAll(BUFFERS_READ); // validation keeps room for the buffers the sweep's decision kept
        assertThat(ClusterManifests.rules("termination")).containsExactlyInAnyOrderElementsOf(termination);
        List<Map<String, Object>> sweep = with(DRAIN, rule("apps", List.of("daemonsets"), "list"),
                rule("", List.of("namespaces"), "list"), rule("", List.of("events"), "create"));
        sweep.addAll(BUFFERS_READ);
        // The NodeClaim projection and NodePool/EC2NodeClass/NodeOverlay status: only the verbs their adapters call.
        sweep.add(rule("karpenter.sh", List.of("nodeclaims"), "list", "create", "patch", "delete"));
        sweep.add(rule("karpenter.sh", List.of("nodeclaims/status", "nodepools/status", "nodeoverlays/status"), "patch"));
        sweep.add(rule("karpenter.sh", List.of("nodepools"), "list"));
        sweep.add(rule("karpenter.k8s.aws", List.of("ec2nodeclasses"), "list"));
        sweep.add(rule("karpenter.k8s.aws", List.of("ec2nodeclasses/status"), "patch"));
        assertThat(ClusterManifests.rules("sweep")).containsExactlyInAnyOrderElementsOf(sweep);
    }

    @Test
    void noRuleUsesAWildcardOrAVerbNoFunctionCalls() {
        for (String f : ClusterManifests.CONTROLLERS) {
            for (Map<String, Object> r : ClusterManifests.rules(f)) {
                assertThat(List.of(r.get("apiGroups"), r.get("resources"), r.get("verbs")).toString()).doesNotContain("*");
                assertThat((List<?>) r.get("verbs")).as(f).allMatch(v -> List.of("list", "get", "patch", "delete", "create")
                        .contains(v));
            }
        }
        // Termination records DisruptionTerminating events (consolidation's hand-off), nothing more.
        assertThat(ClusterManifests.rules("termination").toString()).doesNotContain("secrets", "watch", "nodeclaims");
    }

    @Test
    void eachBindingGivesItsRoleToItsOwnGroupOnly() {
        for (String f : ClusterManifests.CONTROLLERS) {
            Map<String, Object> b = ClusterManifests.clusterRoleBinding(f);
            assertThat(b.get("subjects")).isEqualTo(List.of(Map.of("apiGroup", "rbac.authorization.k8s.io",
                    "kind", "Group", "name", "gantry:" + f)));
            assertThat(b.get("roleRef")).isEqualTo(Map.of("apiGroup", "rbac.authorization.k8s.io",
                    "kind", "ClusterRole", "name", "gantry-" + f));
        }
    }

    @Test
    void onlyControllerFunctionsHaveRoles() {
        assertThatThrownBy(() -> ClusterManifests.rules("webhook")).hasMessage("not a controller function: webhook");
    }

    @Test
    @SuppressWarnings("unchecked")
    void webhooksAreScopedFailOpenFastAndCarryNoUrl() {
        List<Map<String, Object>> webhooks = (List<Map<String, Object>>) ClusterManifests.webhookConfiguration().get("webhooks");
        assertThat(webhooks).hasSize(4).allSatisfy(w -> assertThat(w).containsEntry("failurePolicy", "Ignore")
                .containsEntry("sideEffects", "NoneOnDryRun").containsEntry("admissionReviewVersions", List.of("v1"))
                .doesNotContainKey("clientConfig"));
        assertThat(webhooks.subList(0, 3)).allSatisfy(w -> assertThat(w).containsEntry("timeoutSeconds", 2));
        assertThat(webhooks).extracting(w -> ((List<Map<String, Object>>) w.get("rules")).getFirst().get("resources"))
                .containsExactly(List.of("pods"), List.of("pods/status"), List.of("nodes"), List.of("nodepools"));
        assertThat(webhooks.get(1).get("matchConditions").toString()).contains("c.reason == 'Unschedulable'");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theConfigWebhookValidatesCreateAndUpdateOfNodePoolsNodeClassesAndBuffersFailingOpen() {
        List<Map<String, Object>> webhooks = (List<Map<String, Object>>) ClusterManifests.webhookConfiguration().get("webhooks");
        Map<String, Object> config = webhooks.getLast();
        assertThat(config).containsEntry("name", "config.gantry.dev").containsEntry("failurePolicy", "Ignore")
                .containsEntry("timeoutSeconds", 5).doesNotContainKey("matchConditions");
        assertThat((List<Map<String, Object>>) config.get("rules")).extracting(
                r -> r.get("apiGroups") + " " + r.get("apiVersions") + " " + r.get("resources") + " " + r.get("operations"))
                .containsExactly("[karpenter.sh] [v1] [nodepools] [CREATE, UPDATE]",
                        "[karpenter.k8s.aws] [v1] [ec2nodeclasses] [CREATE, UPDATE]",
                        "[autoscaling.x-k8s.io] [v1beta1] [capacitybuffers] [CREATE, UPDATE]",
                        "[karpenter.sh] [v1alpha1] [nodeoverlays] [CREATE, UPDATE]");
    }

    @SafeVarargs
    private static List<Map<String, Object>> with(List<Map<String, Object>> base, Map<String, Object>... more) {
        List<Map<String, Object>> out = new ArrayList<>(base);
        out.addAll(List.of(more));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object name(Map<String, Object> m) {
        return ((Map<String, Object>) m.get("metadata")).get("name");
    }

    private static Map<String, Object> rule(String group, List<String> resources, String... verbs) {
        return Map.of("apiGroups", List.of(group), "resources", resources, "verbs", List.of(verbs));
    }
}
