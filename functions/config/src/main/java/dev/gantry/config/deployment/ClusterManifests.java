package dev.gantry.config.deployment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-cluster objects the attach step applies, as plain maps (JSON-ready). They ship inside the attach function's
 * own jar, so nothing in its invoke payload decides what it applies; the CDK app reads the same class for its tests
 * and to detect a change.
 *
 * <p>RBAC, per function: each controller role's access entry carries its own group ({@link #group}), bound to its
 * own ClusterRole with only the verbs that function's code calls through the Kubernetes adapter:
 * <ul>
 *   <li>every controller runs termination slices in process ({@code TerminationService.start} executes the first
 *       slice at once), so each holds the {@link #DRAIN} verbs: list pods, nodes, PDBs and volume attachments; get,
 *       patch and delete nodes; evict and delete pods;</li>
 *   <li>the provisioner also lists DaemonSets and namespaces (overhead and pod-affinity namespace selectors) and
 *       records events;</li>
 *   <li>the provisioner, the sweep and termination also read headroom ({@link #BUFFERS}): list CapacityBuffers, get
 *       the PodTemplates and scalable workloads they refer to (consolidation's validation, run by termination, keeps
 *       room for the same buffers as the sweep's decision);</li>
 *   <li>the interruption function also records events;</li>
 *   <li>termination and sweep also list DaemonSets and namespaces (consolidation decides, and validates, over the
 *       same view the provisioner plans with); both record DisruptionTerminating events when they hand a claim to
 *       the termination flow (expiry, emptiness, consolidation's hand-off); the sweep records consolidation's node
 *       events, and writes the
 *       NodeClaim objects and the NodePool/EC2NodeClass status ({@link #OBJECTS}).</li>
 * </ul>
 *
 * <p>The webhook is a ValidatingWebhookConfiguration: Gantry never patches, so it should see each object after every
 * mutating webhook has run, and validating webhooks are called in parallel rather than in sequence. Its
 * {@code clientConfig} is left out on purpose: the attach handler sets {@code clientConfig.url} to the Function URL
 * plus the secret path token it reads from Secrets Manager, so the token never appears in the template.
 */
public final class ClusterManifests {
    /** The controller functions, in the order their access entries are declared. */
    public static final List<String> CONTROLLERS = List.of("provisioner", "interruption", "termination", "sweep");
    public static final String WEBHOOK_CONFIG_NAME = "gantry";
    /** Only pods the scheduler just gave up on: PodScheduled=False with reason Unschedulable. */
    static final String UNSCHEDULABLE_CEL = "has(object.status.conditions) && object.status.conditions.exists(c, "
            + "c.type == 'PodScheduled' && c.status == 'False' && c.reason == 'Unschedulable')";
    /** Pods created already bound (static pods' mirrors, some DaemonSets) never need a node from us. */
    static final String UNBOUND_CEL = "!has(object.spec.nodeName) || object.spec.nodeName == ''";

    /** What a termination slice calls: reads of what is on a node, then cordon/taint, evict, delete. */
    static final List<Map<String, Object>> DRAIN = List.of(
            rule("", List.of("pods"), "list", "delete"),
            rule("", List.of("nodes"), "list", "get", "patch", "delete"),
            rule("", List.of("pods/eviction"), "create"),
            rule("policy", List.of("poddisruptionbudgets"), "list"),
            rule("storage.k8s.io", List.of("volumeattachments"), "list"));

    /**
     * What reading the configuration calls on every run ({@code KubeConfigObjects}): NodePools, NodeOverlays, EC2NodeClasses, the
     * buffers, and the objects their refs name.
     */
    static final List<Map<String, Object>> BUFFERS = List.of(
            rule("karpenter.sh", List.of("nodepools", "nodeoverlays"), "list"),
            rule("karpenter.k8s.aws", List.of("ec2nodeclasses"), "list"),
            rule("autoscaling.x-k8s.io", List.of("capacitybuffers"), "list"),
            rule("", List.of("podtemplates"), "get"),
            rule("apps", List.of("deployments", "statefulsets", "replicasets"), "get"));

    /**
     * What the sweep's cluster-object steps call: the NodeClaim projection ({@code KubeNodeClaims}: list, create, patch
     * labels/finalizers, delete, patch status) and NodePool/EC2NodeClass/NodeOverlay status ({@code KubeStatusObjects}).
     */
    static final List<Map<String, Object>> OBJECTS = List.of(
            rule("karpenter.sh", List.of("nodeclaims"), "list", "create", "patch", "delete"),
            rule("karpenter.sh", List.of("nodeclaims/status", "nodepools/status", "nodeoverlays/status"), "patch"),
            rule("karpenter.sh", List.of("nodepools"), "list"),
            rule("karpenter.k8s.aws", List.of("ec2nodeclasses"), "list"),
            rule("karpenter.k8s.aws", List.of("ec2nodeclasses/status"), "patch"));

    private ClusterManifests() {
    }

    /** The Kubernetes group a controller function's access entry carries: {@code gantry:<function>}. */
    public static String group(String function) {
        return "gantry:" + function;
    }

    /** The ClusterRole and binding name of a controller function: {@code gantry-<function>}. */
    public static String roleName(String function) {
        return "gantry-" + function;
    }

    /** The RBAC rules of one controller function. */
    public static List<Map<String, Object>> rules(String function) {
        List<Map<String, Object>> rules = new ArrayList<>(DRAIN);
        switch (function) {
            case "provisioner" -> {
                rules.add(rule("apps", List.of("daemonsets"), "list"));
                rules.add(rule("", List.of("namespaces"), "list"));
                rules.add(rule("", List.of("events"), "create"));
                rules.addAll(BUFFERS);
            }
            case "interruption" -> {
                rules.add(rule("", List.of("events"), "create"));
                rules.addAll(BUFFERS);
            }
            case "termination", "sweep" -> {
                // Consolidation: the sweep decides and the termination queue validates, both over a full cluster view
                // (DaemonSets, namespace labels); the sweep records Unconsolidatable/DisruptionBlocked events.
                rules.add(rule("apps", List.of("daemonsets"), "list"));
                rules.add(rule("", List.of("namespaces"), "list"));
                rules.addAll(BUFFERS);
                // Both hand claims to the termination flow for a disruption (DisruptionTerminating events).
                rules.add(rule("", List.of("events"), "create"));
                if (function.equals("sweep")) {
                    rules.addAll(OBJECTS);
                }
            }
            default -> throw new IllegalArgumentException("not a controller function: " + function);
        }
        return List.copyOf(rules);
    }

    public static Map<String, Object> clusterRole(String function) {
        return Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRole",
                "metadata", Map.of("name", roleName(function)),
                "rules", rules(function));
    }

    public static Map<String, Object> clusterRoleBinding(String function) {
        return Map.of("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRoleBinding",
                "metadata", Map.of("name", roleName(function)),
                "roleRef", Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "ClusterRole",
                        "name", roleName(function)),
                "subjects", List.of(Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "Group",
                        "name", group(function))));
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
                                List.of()),
                        configWebhook()));
    }

    /** The configuration kinds the webhook validates (and hints on): group, version, resource. */
    public static final List<List<String>> CONFIG_RESOURCES = List.of(List.of("karpenter.sh", "v1", "nodepools"),
            List.of("karpenter.k8s.aws", "v1", "ec2nodeclasses"), List.of("autoscaling.x-k8s.io", "v1beta1", "capacitybuffers"),
            List.of("karpenter.sh", "v1alpha1", "nodeoverlays"));
    /** The config webhook reads the object with Gantry's YAML reader: a little more time than the pod hint path. */
    static final int CONFIG_TIMEOUT_SECONDS = 5;

    /**
     * Validation of NodePool, EC2NodeClass and CapacityBuffer writes, at the same URL (the handler dispatches by kind):
     * a bad object is refused with Gantry's message; an admitted one sends a hint. Ignore on failure, so a Gantry
     * outage never blocks kubectl (the CRDs' own rules still apply); NoneOnDryRun, since the hint is skipped on dry run.
     */
    private static Map<String, Object> configWebhook() {
        Map<String, Object> w = webhook("config.gantry.dev", "", "", List.of(), "*", List.of());
        w.put("timeoutSeconds", CONFIG_TIMEOUT_SECONDS);
        w.put("rules", CONFIG_RESOURCES.stream().map(r -> Map.of("apiGroups", List.of(r.get(0)),
                "apiVersions", List.of(r.get(1)), "operations", List.of("CREATE", "UPDATE"),
                "resources", List.of(r.get(2)), "scope", "*")).toList());
        return w;
    }

    /** Everything, in apply order: each role before its binding, the webhook last (it sends work to the roles). */
    public static List<Map<String, Object>> all() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String f : CONTROLLERS) {
            out.add(clusterRole(f));
            out.add(clusterRoleBinding(f));
        }
        out.add(webhookConfiguration());
        return List.copyOf(out);
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
