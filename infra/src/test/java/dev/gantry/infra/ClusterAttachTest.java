package dev.gantry.infra;

import static dev.gantry.infra.TemplateQueries.json;
import static dev.gantry.infra.TemplateQueries.list;
import static dev.gantry.infra.TemplateQueries.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClusterAttachTest {
    private static Map<String, Object> props;
    private static List<Map<String, Object>> manifests;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void synth() throws Exception {
        var resources = new TemplateQueries(SynthFixture.shared().template).properties(ClusterAttach.TYPE);
        assertThat(resources).hasSize(1);
        props = resources.values().iterator().next();
        manifests = new ObjectMapper().readValue((String) props.get("Manifests"), List.class);
    }

    @Test
    void carriesTheClusterTheWebhookUrlTheTokenSecretAndTheFinalSweep() {
        assertThat(props).containsEntry("ClusterName", "demo")
                .containsKeys("ServiceToken", "WebhookUrl", "WebhookTokenSecretArn", "FinalSweepFunctionArn");
        assertThat(json(props.get("WebhookUrl"))).contains("FunctionUrl");
        assertThat(json(props.get("FinalSweepFunctionArn"))).contains("GantrySweepAlias");
        assertThat(json(props)).doesNotContain("SecretString");
    }

    @Test
    void appliesTheRoleThenItsBindingThenTheWebhook() {
        assertThat(manifests).extracting(m -> m.get("kind"))
                .containsExactly("ClusterRole", "ClusterRoleBinding", "ValidatingWebhookConfiguration");
    }

    @Test
    void clusterRoleGrantsOnlyTheVerbsTheHandlersUse() {
        List<Object> rules = list(manifests.get(0).get("rules"));
        assertThat(rules).containsExactlyInAnyOrder(
                rule("", List.of("pods", "nodes"), "get", "list", "watch"),
                rule("apps", List.of("daemonsets"), "get", "list", "watch"),
                rule("policy", List.of("poddisruptionbudgets"), "get", "list", "watch"),
                rule("storage.k8s.io", List.of("volumeattachments"), "get", "list", "watch"),
                rule("", List.of("nodes"), "patch", "delete"),
                rule("", List.of("pods/eviction"), "create"),
                rule("", List.of("pods"), "delete"),
                rule("", List.of("events"), "create"),
                rule("events.k8s.io", List.of("events"), "create"));
        assertThat(json(rules)).doesNotContain("\"*\"");
    }

    @Test
    void bindingGivesTheRoleToTheControllerGroupOnly() {
        Map<String, Object> binding = manifests.get(1);
        assertThat(binding.get("subjects")).isEqualTo(List.of(Map.of("apiGroup", "rbac.authorization.k8s.io",
                "kind", "Group", "name", "gantry:controller")));
        assertThat(map(binding.get("roleRef"))).containsEntry("name", "gantry-controller");
    }

    @Test
    void webhooksAreScopedFailOpenAndFast() {
        List<Object> webhooks = list(manifests.get(2).get("webhooks"));
        assertThat(webhooks).hasSize(3).allSatisfy(o -> {
            Map<String, Object> w = map(o);
            assertThat(w).containsEntry("failurePolicy", "Ignore").containsEntry("timeoutSeconds", 2)
                    .containsEntry("sideEffects", "NoneOnDryRun").doesNotContainKey("clientConfig");
            assertThat(json(w.get("namespaceSelector")))
                    .isEqualTo("{\"matchExpressions\":[{\"key\":\"kubernetes.io/metadata.name\","
                            + "\"operator\":\"NotIn\",\"values\":[\"kube-system\"]}]}");
        });
        assertThat(webhooks).extracting(w -> json(map(list(map(w).get("rules")).get(0)).get("operations"))
                        + " " + json(map(list(map(w).get("rules")).get(0)).get("resources")))
                .containsExactly("[\"CREATE\"] [\"pods\"]", "[\"UPDATE\"] [\"pods/status\"]",
                        "[\"CREATE\",\"DELETE\"] [\"nodes\"]");
    }

    @Test
    void onlyUnschedulableStatusUpdatesReachTheWebhook() {
        Map<String, Object> status = map(list(manifests.get(2).get("webhooks")).get(1));
        assertThat(list(status.get("matchConditions"))).singleElement().satisfies(c -> assertThat(
                (String) map(c).get("expression")).contains("c.type == 'PodScheduled'", "c.status == 'False'",
                "c.reason == 'Unschedulable'"));
    }

    private static Map<String, Object> rule(String group, List<String> resources, String... verbs) {
        return Map.of("apiGroups", List.of(group), "resources", resources, "verbs", List.of(verbs));
    }
}
