package dev.gantry.kube;

import dev.gantry.core.cluster.ClusterException;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.status.Condition;
import dev.gantry.core.status.NodeClaimObject;
import dev.gantry.core.status.NodeClaimObjects;
import dev.gantry.core.status.ObservedNodeClaim;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link NodeClaimObjects} over fabric8's generic resources ({@code karpenter.sh/v1} NodeClaims need no generated
 * model). Status and finalizers are written with JSON patches that first set the read {@code metadata.resourceVersion},
 * which the API server treats as a precondition (409 when the object moved on: {@link NodeClaimObjects.Stale}); labels
 * and the digest annotation, maps whose keys merge, with a JSON merge patch after them. Status goes through the
 * {@code status} subresource, as the CRD declares one and the main endpoint ignores status.
 */
public final class KubeNodeClaims implements NodeClaimObjects {
    public static final ResourceDefinitionContext NODE_CLAIMS = new ResourceDefinitionContext.Builder()
            .withGroup("karpenter.sh").withVersion("v1").withKind("NodeClaim").withPlural("nodeclaims")
            .withNamespaced(false).build();

    private final KubernetesClient client;
    /** Learns the objects' UIDs, so Events on NodeClaims are found by {@code kubectl describe}; null: none. */
    private final EventRecorder events;

    /** Objects only; Events on NodeClaims go without UIDs. {@link KubeCluster#nodeClaimObjects()} shares its Events'. */
    public KubeNodeClaims(KubernetesClient client) {
        this(client, null);
    }

    KubeNodeClaims(KubernetesClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
    }

    @Override
    public List<ObservedNodeClaim> list() {
        List<ObservedNodeClaim> out = new ArrayList<>();
        Map<String, String> uids = new java.util.HashMap<>();
        String token = null;
        do {
            var options = new ListOptionsBuilder().withLimit(KubeCluster.PAGE_SIZE).withContinue(token).build();
            GenericKubernetesResourceList page = ApiCall.run("list nodeclaims",
                    () -> client.genericKubernetesResources(NODE_CLAIMS).list(options));
            page.getItems().forEach(o -> {
                out.add(observed(o));
                uids.put(EventRecorder.key(null, o.getMetadata().getName()), String.valueOf(o.getMetadata().getUid()));
            });
            token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (token != null && !token.isEmpty());
        if (events != null) {
            events.rememberAll("NodeClaim", uids);
        }
        return out;
    }

    private static ObservedNodeClaim observed(GenericKubernetesResource o) {
        var m = o.getMetadata();
        String digest = m.getAnnotations() == null ? null : m.getAnnotations().get(NodeClaimObject.DIGEST_ANNOTATION);
        Instant deleting = m.getDeletionTimestamp() == null ? null : Instant.parse(m.getDeletionTimestamp());
        boolean hasStatus = o.getAdditionalProperties().get("status") instanceof Map<?, ?> st && !st.isEmpty();
        return new ObservedNodeClaim(m.getName(), m.getResourceVersion(), digest, m.getFinalizers(), deleting, hasStatus);
    }

    @Override
    public void create(NodeClaimObject object) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", object.name());
        metadata.put("labels", object.labels());
        metadata.put("annotations", annotations(object));
        metadata.put("finalizers", List.of(NodeClaimObject.FINALIZER));
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion("karpenter.sh/v1");
        resource.setKind("NodeClaim");
        resource.setAdditionalProperty("metadata", metadata);
        resource.setAdditionalProperty("spec", spec(object));
        resource = client.getKubernetesSerialization().convertValue(resource, GenericKubernetesResource.class);
        GenericKubernetesResource toCreate = resource;
        GenericKubernetesResource created = guarded("create nodeclaim " + object.name(),
                () -> client.genericKubernetesResources(NODE_CLAIMS).resource(toCreate).create());
        if (created != null && events != null && created.getMetadata().getUid() != null) {
            events.rememberSome("NodeClaim", Map.of(EventRecorder.key(null, object.name()), created.getMetadata().getUid()));
        }
        if (created != null) {
            jsonPatch(object.name(), true, created.getMetadata().getResourceVersion(),
                    Map.of("op", "add", "path", "/status", "value", status(object.status())));
        }
    }

    /** Gantry's annotations (the drift hashes under Karpenter's keys) and the digest of what is written. */
    private static Map<String, String> annotations(NodeClaimObject object) {
        Map<String, String> out = new LinkedHashMap<>(object.annotations());
        out.put(NodeClaimObject.DIGEST_ANNOTATION, object.digest());
        return out;
    }

    /** Status first, the digest last: the digest says the status it fingerprints was written. */
    @Override
    public void update(ObservedNodeClaim observed, NodeClaimObject object) {
        String resourceVersion = observed.resourceVersion();
        GenericKubernetesResource afterStatus = jsonPatch(object.name(), true, resourceVersion,
                Map.of("op", "add", "path", "/status", "value", status(object.status())));
        if (afterStatus == null) {
            return; // gone meanwhile
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("labels", object.labels());
        metadata.put("annotations", annotations(object));
        List<String> finalizers = afterStatus.getMetadata().getFinalizers() == null ? List.of()
                : afterStatus.getMetadata().getFinalizers();
        // No finalizer may be added to an object being deleted: the API server refuses it.
        if (!finalizers.contains(NodeClaimObject.FINALIZER) && afterStatus.getMetadata().getDeletionTimestamp() == null) {
            List<String> with = new ArrayList<>(finalizers);
            with.add(NodeClaimObject.FINALIZER);
            jsonPatch(object.name(), false, afterStatus.getMetadata().getResourceVersion(),
                    Map.of("op", "add", "path", "/metadata/finalizers", "value", with));
        }
        mergePatch(object.name(), Map.of("metadata", metadata));
    }

    @Override
    public void removeFinalizer(ObservedNodeClaim observed) {
        List<String> rest = observed.finalizers().stream().filter(f -> !f.equals(NodeClaimObject.FINALIZER)).toList();
        jsonPatch(observed.name(), false, observed.resourceVersion(),
                Map.of("op", "replace", "path", "/metadata/finalizers", "value", rest));
    }

    @Override
    public void delete(String name) {
        try {
            ApiCall.run("delete nodeclaim " + name, () -> client.genericKubernetesResources(NODE_CLAIMS).withName(name).delete());
        } catch (ClusterException e) {
            if (!e.notFound()) {
                throw e;
            }
        }
    }

    /**
     * A JSON patch (lists are replaced whole, as JSON merge patch would too on a real server but the mock server
     * appends) whose first operation sets the read resourceVersion: the API server then refuses it with 409 if the
     * object moved on. Null when the object is gone.
     */
    private GenericKubernetesResource jsonPatch(String name, boolean status, String resourceVersion, Map<String, Object> op) {
        String json = client.getKubernetesSerialization().asJson(List.of(
                Map.of("op", "replace", "path", "/metadata/resourceVersion", "value", resourceVersion), op));
        return patch(name, status, json, PatchType.JSON);
    }

    /** A JSON merge patch of the object's maps (labels, annotations): no precondition needed, keys merge. */
    private GenericKubernetesResource mergePatch(String name, Map<String, Object> body) {
        return patch(name, false, client.getKubernetesSerialization().asJson(body), PatchType.JSON_MERGE);
    }

    private GenericKubernetesResource patch(String name, boolean status, String json, PatchType type) {
        String what = "patch nodeclaim " + name + (status ? " status" : "");
        try {
            return guarded(what, () -> {
                var r = client.genericKubernetesResources(NODE_CLAIMS).withName(name);
                return status ? r.subresource("status").patch(PatchContext.of(type), json) : r.patch(PatchContext.of(type), json);
            });
        } catch (ClusterException e) {
            if (e.notFound()) {
                return null;
            }
            throw e;
        }
    }

    /** A call whose 409 (stale resourceVersion, or already exists) means "decide again from a fresh read". */
    private static <T> T guarded(String what, java.util.function.Supplier<T> call) {
        try {
            return ApiCall.run(what, call);
        } catch (ClusterException e) {
            if (e.status() == 409) {
                throw new Stale(e.getMessage());
            }
            throw e;
        }
    }

    static Map<String, Object> spec(NodeClaimObject object) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("nodeClassRef", Map.of("group", object.nodeClassRef().group(), "kind", object.nodeClassRef().kind(),
                "name", object.nodeClassRef().name()));
        List<Map<String, Object>> requirements = new ArrayList<>();
        for (Requirement r : object.requirements()) {
            Map<String, Object> req = new LinkedHashMap<>();
            req.put("key", r.key());
            req.put("operator", r.operator().name());
            if (!r.values().isEmpty()) {
                req.put("values", r.values());
            }
            if (r.minValues() != null) {
                req.put("minValues", r.minValues());
            }
            requirements.add(req);
        }
        spec.put("requirements", requirements);
        if (object.expireAfter() != null) {
            spec.put("expireAfter", object.expireAfter());
        }
        return spec;
    }

    static Map<String, Object> status(NodeClaimObject.Status s) {
        Map<String, Object> status = new LinkedHashMap<>();
        putIfSet(status, "providerID", s.providerID());
        putIfSet(status, "nodeName", s.nodeName());
        putIfSet(status, "imageID", s.imageID());
        if (!s.capacity().isEmpty()) {
            status.put("capacity", s.capacity());
        }
        if (!s.allocatable().isEmpty()) {
            status.put("allocatable", s.allocatable());
        }
        status.put("conditions", conditions(s.conditions()));
        return status;
    }

    static List<Map<String, Object>> conditions(List<Condition> conditions) {
        return conditions.stream().map(c -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", c.type());
            m.put("status", c.status().name());
            m.put("reason", c.reason());
            m.put("message", c.message());
            m.put("lastTransitionTime", c.lastTransitionTime().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
            if (c.observedGeneration() > 0) {
                m.put("observedGeneration", c.observedGeneration());
            }
            return (Map<String, Object>) m;
        }).toList();
    }

    private static void putIfSet(Map<String, Object> m, String key, String value) {
        if (value != null && !value.isEmpty()) {
            m.put(key, value);
        }
    }
}
