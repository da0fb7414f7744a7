package dev.gantry.cli.status;

import dev.gantry.kube.KubeNodeClaims;
import dev.gantry.kube.KubeStatusObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code kubectl get nodepools,ec2nodeclasses,nodeoverlays,nodeclaims} reads, for {@code gantry status}: the
 * configuration objects (as the functions list them) as documents for {@code ConfigLoader} (the reader {@code gantry validate} uses), each NodePool's status
 * against its limits, and the NodeClaim objects. A cluster without the CRDs has none of them (404: empty, not an
 * error), and status falls back to the {@code --config} files and the state table.
 */
public final class ClusterObjects {
    /** A NodePool as {@code kubectl describe} shows it: its status against its limits. */
    public record Pool(String name, Object nodes, Map<?, ?> resources, Map<?, ?> limits, String ready, String message) {
    }

    /** A NodeClaim as {@code kubectl get nodeclaims} shows it. */
    public record Claim(String name, String type, String capacity, String zone, String node, String ready) {
    }

    /** What was read; {@code documents} are the NodePools, EC2NodeClasses and NodeOverlays as JSON. */
    public record Read(List<String> documents, List<Pool> pools, List<Claim> claims) {
        public boolean isEmpty() {
            return documents.isEmpty() && claims.isEmpty();
        }
    }

    private ClusterObjects() {
    }

    public static Read read(KubernetesClient kube) {
        List<String> docs = new ArrayList<>();
        List<Pool> pools = new ArrayList<>();
        for (GenericKubernetesResource p : list(kube, KubeStatusObjects.NODE_POOLS)) {
            docs.add(Serialization.asJson(clean(p)));
            Map<String, Object> json = p.getAdditionalProperties();
            pools.add(new Pool(p.getMetadata().getName(), at(json, "status", "nodes"), map(at(json, "status", "resources")),
                    map(at(json, "spec", "limits")), condition(json, "Ready", "status"), condition(json, "Ready", "message")));
        }
        for (GenericKubernetesResource c : list(kube, KubeStatusObjects.EC2_NODE_CLASSES)) {
            docs.add(Serialization.asJson(clean(c)));
        }
        for (GenericKubernetesResource o : list(kube, dev.gantry.kube.KubeConfigObjects.NODE_OVERLAYS)) {
            docs.add(Serialization.asJson(clean(o))); // priced as the provisioner prices, in the plan's reasons
        }
        List<Claim> claims = new ArrayList<>();
        for (GenericKubernetesResource c : list(kube, KubeNodeClaims.NODE_CLAIMS)) {
            Map<String, String> labels = c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels();
            claims.add(new Claim(c.getMetadata().getName(), labels.get("node.kubernetes.io/instance-type"),
                    labels.get("karpenter.sh/capacity-type"), labels.get("topology.kubernetes.io/zone"),
                    (String) at(c.getAdditionalProperties(), "status", "nodeName"),
                    condition(c.getAdditionalProperties(), "Ready", "status")));
        }
        return new Read(docs, pools, claims);
    }

    /** The two sections, as {@code kubectl describe nodepool} and {@code kubectl get nodeclaims} would show them. */
    public static String table(Read r) {
        StringBuilder b = new StringBuilder();
        b.append("\nNODEPOOLS IN THE CLUSTER (").append(r.pools().size()).append(")\n");
        for (Pool p : r.pools()) {
            b.append("  ").append(p.name()).append(": ").append(p.nodes() == null ? 0 : p.nodes()).append(" nodes, Ready ")
                    .append(p.ready() == null ? "Unknown" : p.ready())
                    .append(p.message() == null || p.message().isEmpty() ? "" : " (" + p.message() + ")").append('\n');
            if (p.resources() != null) {
                p.resources().forEach((k, v) -> b.append(String.format("    %-8s %s%n", k,
                        v + (p.limits() != null && p.limits().containsKey(k) ? "/" + p.limits().get(k) : ""))));
            }
        }
        b.append("\nNODECLAIMS IN THE CLUSTER (").append(r.claims().size()).append(")\n");
        if (!r.claims().isEmpty()) {
            b.append(String.format("  %-28s %-14s %-10s %-14s %-28s %s%n", "NAME", "TYPE", "CAPACITY", "ZONE", "NODE", "READY"));
        }
        for (Claim c : r.claims()) {
            b.append(String.format("  %-28s %-14s %-10s %-14s %-28s %s%n", c.name(), dash(c.type()), dash(c.capacity()),
                    dash(c.zone()), dash(c.node()), dash(c.ready())));
        }
        return b.toString();
    }

    private static List<GenericKubernetesResource> list(KubernetesClient kube, ResourceDefinitionContext kind) {
        try {
            return kube.genericKubernetesResources(kind).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of(); // the CRD is not installed
            }
            throw e;
        }
    }

    /** The object as a user wrote it: the server's bookkeeping and the status are not configuration. */
    private static GenericKubernetesResource clean(GenericKubernetesResource o) {
        GenericKubernetesResource copy = Serialization.clone(o);
        copy.getAdditionalProperties().remove("status");
        copy.getMetadata().setManagedFields(null);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Object at(Map<String, Object> json, String... path) {
        Object at = json;
        for (String p : path) {
            if (!(at instanceof Map<?, ?> m)) {
                return null;
            }
            at = ((Map<String, Object>) m).get(p);
        }
        return at;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : null;
    }

    private static String condition(Map<String, Object> json, String type, String field) {
        if (at(json, "status", "conditions") instanceof List<?> l) {
            for (Object c : l) {
                if (c instanceof Map<?, ?> m && type.equals(m.get("type"))) {
                    return m.get(field) == null ? null : String.valueOf(m.get(field));
                }
            }
        }
        return null;
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
