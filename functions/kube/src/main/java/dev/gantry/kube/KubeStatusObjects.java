package dev.gantry.kube;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.Condition;
import dev.gantry.core.status.NodeClaimObjects;
import dev.gantry.core.status.NodeClassStatus;
import dev.gantry.core.status.OverlayStatusObjects;
import dev.gantry.core.status.PoolStatus;
import dev.gantry.core.status.StatusObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link StatusObjects} over fabric8's generic resources: NodePools and EC2NodeClasses listed whole (there are few),
 * status written with a JSON patch to the {@code status} subresource that first sets the listed resourceVersion (409
 * when the object moved on: {@link NodeClaimObjects.Stale}) and then replaces {@code /status}. NodeOverlays
 * ({@code karpenter.sh/v1alpha1}) the same way: their status is only {@code conditions}.
 */
public final class KubeStatusObjects implements StatusObjects, OverlayStatusObjects {
    public static final ResourceDefinitionContext NODE_POOLS = context("karpenter.sh", "NodePool", "nodepools");
    public static final ResourceDefinitionContext EC2_NODE_CLASSES = context("karpenter.k8s.aws", "EC2NodeClass", "ec2nodeclasses");

    private final KubernetesClient client;

    public KubeStatusObjects(KubernetesClient client) {
        this.client = client;
    }

    private static ResourceDefinitionContext context(String group, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion("v1").withKind(kind)
                .withPlural(plural).withNamespaced(false).build();
    }

    @Override
    public List<Observed<PoolStatus>> nodePools() {
        return list(NODE_POOLS, "nodepools", s -> new PoolStatus(strings(s.get("resources")),
                s.get("nodes") instanceof Number n ? n.longValue() : 0, conditions(s.get("conditions")),
                s.get("nodeClassObservedGeneration") instanceof Number g ? g.longValue() : 0));
    }

    @Override
    public List<Observed<NodeClassStatus>> nodeClasses() {
        return list(EC2_NODE_CLASSES, "ec2nodeclasses", s -> new NodeClassStatus(
                maps(s.get("subnets")).stream().map(m -> new NodeClassStatus.Subnet(str(m, "id"), str(m, "zone"), str(m, "zoneID"))).toList(),
                maps(s.get("securityGroups")).stream().map(m -> new NodeClassStatus.SecurityGroup(str(m, "id"), str(m, "name"))).toList(),
                maps(s.get("amis")).stream().map(m -> new NodeClassStatus.Ami(str(m, "id"), str(m, "name"),
                        maps(m.get("requirements")).stream().map(r -> new Requirement(str(r, "key"), Operator.parse(str(r, "operator")),
                                r.get("values") instanceof List<?> v ? v.stream().map(String::valueOf).toList() : List.of(), null)).toList(),
                        Boolean.TRUE.equals(m.get("deprecated")))).toList(),
                (String) s.get("instanceProfile"), conditions(s.get("conditions")), KubeReservations.read(s)));
    }

    @Override
    public List<Observed<List<Condition>>> nodeOverlays() {
        return list(KubeConfigObjects.NODE_OVERLAYS, "nodeoverlays", s -> conditions(s.get("conditions")));
    }

    @Override
    public void writeNodeOverlay(Observed<List<Condition>> observed, List<Condition> conditions) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("conditions", KubeNodeClaims.conditions(conditions));
        writeStatus(KubeConfigObjects.NODE_OVERLAYS, "nodeoverlay", observed, s);
    }

    @Override
    public void writeNodePool(Observed<PoolStatus> observed, PoolStatus status) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("resources", status.resources());
        s.put("nodes", status.nodes());
        if (status.nodeClassObservedGeneration() > 0) {
            s.put("nodeClassObservedGeneration", status.nodeClassObservedGeneration());
        }
        s.put("conditions", KubeNodeClaims.conditions(status.conditions()));
        writeStatus(NODE_POOLS, "nodepool", observed, s);
    }

    @Override
    public void writeNodeClass(Observed<NodeClassStatus> observed, NodeClassStatus status) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("subnets", status.subnets().stream().map(x -> compact("id", x.id(), "zone", x.zone(), "zoneID", x.zoneId())).toList());
        s.put("securityGroups", status.securityGroups().stream().map(x -> compact("id", x.id(), "name", x.name())).toList());
        s.put("amis", status.amis().stream().map(a -> {
            Map<String, Object> m = compact("id", a.id(), "name", a.name());
            if (a.deprecated()) {
                m.put("deprecated", true);
            }
            m.put("requirements", a.requirements().stream().map(r -> {
                Map<String, Object> req = compact("key", r.key(), "operator", r.operator().name());
                if (!r.values().isEmpty()) {
                    req.put("values", r.values());
                }
                return req;
            }).toList());
            return m;
        }).toList());
        if (status.instanceProfile() != null) {
            s.put("instanceProfile", status.instanceProfile());
        }
        KubeReservations.write(status, s);
        s.put("conditions", KubeNodeClaims.conditions(status.conditions()));
        writeStatus(EC2_NODE_CLASSES, "ec2nodeclass", observed, s);
    }

    private void writeStatus(ResourceDefinitionContext kind, String what, Observed<?> observed, Map<String, Object> status) {
        String json = client.getKubernetesSerialization().asJson(List.of(
                Map.of("op", "replace", "path", "/metadata/resourceVersion", "value", observed.resourceVersion()),
                Map.of("op", "add", "path", "/status", "value", status)));
        try {
            ApiCall.run("patch " + what + " " + observed.name() + " status", () -> client.genericKubernetesResources(kind)
                    .withName(observed.name()).subresource("status").patch(PatchContext.of(PatchType.JSON), json));
        } catch (ClusterException e) {
            if (e.status() == 409) {
                throw new NodeClaimObjects.Stale(e.getMessage());
            }
            if (!e.notFound()) {
                throw e;
            }
        }
    }

    private <T> List<Observed<T>> list(ResourceDefinitionContext kind, String what, Function<Map<String, Object>, T> parse) {
        List<Observed<T>> out = new ArrayList<>();
        for (GenericKubernetesResource o : ApiCall.run("list " + what, () -> client.genericKubernetesResources(kind).list()).getItems()) {
            T status = o.getAdditionalProperties().get("status") instanceof Map<?, ?> m ? parseQuietly(parse, m) : null;
            Long generation = o.getMetadata().getGeneration();
            out.add(new Observed<>(o.getMetadata().getName(), o.getMetadata().getResourceVersion(),
                    generation == null ? 0 : generation, status));
        }
        return out;
    }

    /** A status Gantry cannot read (written by someone else, in another shape) reads as none: it gets rewritten. */
    @SuppressWarnings("unchecked")
    private static <T> T parseQuietly(Function<Map<String, Object>, T> parse, Map<?, ?> m) {
        try {
            return parse.apply((Map<String, Object>) m);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<Condition> conditions(Object o) {
        return maps(o).stream().map(m -> new Condition(str(m, "type"), Condition.Status.valueOf(str(m, "status")),
                str(m, "reason"), str(m, "message"), Instant.parse(str(m, "lastTransitionTime")),
                m.get("observedGeneration") instanceof Number g ? g.longValue() : 0)).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object o) {
        return o instanceof List<?> l ? l.stream().filter(Map.class::isInstance).map(x -> (Map<String, Object>) x).toList() : List.of();
    }

    private static Map<String, String> strings(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        }
        return out;
    }

    private static String str(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v == null ? null : String.valueOf(v);
    }

    private static Map<String, Object> compact(String... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put(kv[i], kv[i + 1]);
            }
        }
        return m;
    }
}
