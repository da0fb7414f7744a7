package dev.gantry.infra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-cluster objects the attach step applies, as plain maps (JSON-ready): the controller ClusterRole with only
 * the verbs the handlers use, its binding to the {@value #CONTROLLER_GROUP} group (which the controller roles'
 * access entries carry), and the admission webhook configuration.
 *
 * <p>The webhook is a ValidatingWebhookConfiguration: Gantry never patches, so it should see each object after
 * every mutating webhook has run, and validating webhooks are called in parallel rather than in sequence. Its
 * {@code clientConfig} is left out on purpose: the attach handler sets {@code clientConfig.url} to the Function URL
 * plus the secret path token it reads from Secrets Manager, so the token never appears in the template.
 */
public final class ClusterManifests {
    public static final String CONTROLLER_GROUP = "gantry:controller";
    public static final String NAME = "gantry-controller";
    public static final String WEBHOOK_CONFIG_NAME = "gantry";
    /** Only pods the scheduler just gave up on: PodScheduled=False with reason Unschedulable. */
    static final String UNSCHEDULABLE_CEL = "has(object.status.conditions) && object.status.conditions.exists(c, "
            + "c.type == 'PodScheduled' && c.status == 'False' && c.reason == 'Unschedulable')";
    /** Pods created already bound (static pods' mirrors, some DaemonSets) never need a node from us. */
    static final String UNBOUND_CEL = "!has(object.spec.nodeName) || object.spec.nodeName == ''";

    private ClusterManifests() {
    }

    public static Map<String, Object> clusterRole() {
        return Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRole",
                "metadata", Map.of("name", NAME),
                "rules", List.of(
                        rule("", List.of("pods", "nodes"), "get", "list", "watch"),
                        rule("apps", List.of("daemonsets"), "get", "list", "watch"),
                        rule("policy", List.of("poddisruptionbudgets"), "get", "list", "watch"),
                        rule("storage.k8s.io", List.of("volumeattachments"), "get", "list", "watch"),
                        rule("", List.of("nodes"), "patch", "delete"),
                        rule("", List.of("pods/eviction"), "create"),
                        rule("", List.of("pods"), "delete"),
                        rule("", List.of("events"), "create"),
                        rule("events.k8s.io", List.of("events"), "create")));
    }

    public static Map<String, Object> clusterRoleBinding() {
        return Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRoleBinding",
                "metadata", Map.of("name", NAME),
                "roleRef", Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "ClusterRole", "name", NAME),
                "subjects", List.of(Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "Group",
                        "name", CONTROLLER_GROUP)));
    }

    public static Map<String, Object> webhookConfiguration() {
        return Map.of("apiVersion", "admissionregistration.k8s.io/v1", "kind", "ValidatingWebhookConfiguration",
                "metadata", Map.of("name", WEBHOOK_CONFIG_NAME),
                "webhooks", List.of(
                        webhook("pod-create.gantry.dev", "", "pods", List.of("CREATE"), "Namespaced",
                                List.of(condition("unbound", UNBOUND_CEL))),
                        webhook("pod-unschedulable.gantry.dev", "", "pods/status", List.of("UPDATE"), "Namespaced",
                                List.of(condition("unschedulable", UNSCHEDULABLE_CEL))),
                        webhook("node.gantry.dev", "", "nodes", List.of("CREATE", "DELETE"), "Cluster",
                                List.of())));
    }

    /** All three, in apply order (the role before its binding). */
    public static List<Map<String, Object>> all() {
        return List.of(clusterRole(), clusterRoleBinding(), webhookConfiguration());
    }

    private static Map<String, Object> rule(String group, List<String> resources, String... verbs) {
        return Map.of("apiGroups", List.of(group), "resources", resources, "verbs", List.of(verbs));
    }

    private static Map<String, Object> condition(String name, String expression) {
        return Map.of("name", name, "expression", expression);
    }

    private static Map<String, Object> webhook(String name, String group, String resource, List<String> operations,
                                               String scope, List<Map<String, Object>> conditions) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("name", name);
        w.put("admissionReviewVersions", List.of("v1"));
        w.put("sideEffects", "NoneOnDryRun");
        // A slow or absent Gantry must never block the API server: Ignore, and give up after 2 s.
        w.put("failurePolicy", "Ignore");
        w.put("timeoutSeconds", 2);
        w.put("matchPolicy", "Equivalent");
        w.put("rules", List.of(Map.of("apiGroups", List.of(group), "apiVersions", List.of("v1"),
                "operations", operations, "resources", List.of(resource), "scope", scope)));
        // Cluster-scoped objects (nodes) ignore namespaceSelector, so it is harmless on the node webhook.
        w.put("namespaceSelector", Map.of("matchExpressions", List.of(Map.of(
                "key", "kubernetes.io/metadata.name", "operator", "NotIn", "values", List.of("kube-system")))));
        if (!conditions.isEmpty()) {
            w.put("matchConditions", conditions);
        }
        return w;
    }
}
