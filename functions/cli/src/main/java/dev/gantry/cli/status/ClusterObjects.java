package dev.gantry.cli.status;

import dev.gantry.config.cluster.ClusterDocuments;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.kube.KubeConfigObjects;
import dev.gantry.kube.KubeNodeClaims;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code gantry status} reads of the cluster's objects: the configuration objects exactly as the deployed functions
 * list them ({@link KubeConfigObjects}: NodePools, EC2NodeClasses, NodeOverlays, CapacityBuffers and what the buffers
 * refer to), each NodePool's status against its limits (from the same list), and the NodeClaim objects. A cluster
 * without the CRDs has none of them (404: empty, not an error), and status falls back to the {@code --config} files and
 * the state table.
 */
public final class ClusterObjects {
    /** A NodePool as {@code kubectl describe} shows it: its status against its limits. */
    public record Pool(String name, Object nodes, Map<?, ?> resources, Map<?, ?> limits, String ready, String message,
                       String registrationHealthy, String registrationMessage) {
    }

    /**
     * An EC2NodeClass as {@code kubectl describe} shows it: its {@code Ready}, and each other condition that says
     * something (False or Unknown, or True for another reason than its type: {@code InstanceProfileReady} True,
     * {@code DeploymentNodeRole}, when its role runs as the stack's own), as {@code Type Status (Reason): message}.
     */
    public record NodeClass(String name, String ready, String message, List<String> notes) {
    }

    /** A NodeClaim as {@code kubectl get nodeclaims} shows it. */
    public record Claim(String name, String type, String capacity, String zone, String node, String ready) {
    }

    /** What was read; {@code objects} are the configuration as the functions read it ({@link ClusterDocuments} splits it). */
    public record Read(List<ConfigObject> objects, List<Pool> pools, List<NodeClass> classes, List<Claim> claims) {
        public boolean isEmpty() {
            return objects.isEmpty() && claims.isEmpty();
        }

        /** The NodePools, EC2NodeClasses and NodeOverlays, one JSON document each. */
        public List<String> poolDocuments() {
            return ClusterDocuments.pools(objects);
        }

        /** The CapacityBuffers and the objects they refer to, one JSON document each. */
        public List<String> bufferDocuments() {
            return ClusterDocuments.buffers(objects);
        }
    }

    private ClusterObjects() {
    }

    public static Read read(KubernetesClient kube) {
        List<ConfigObject> objects = new KubeConfigObjects(kube).list();
        List<Pool> pools = new ArrayList<>();
        List<NodeClass> classes = new ArrayList<>();
        for (ConfigObject o : objects) {
            if (o.kind().equals("NodePool")) {
                Map<String, Object> json = Serialization.unmarshal(o.json(), Map.class);
                pools.add(new Pool(o.name(), at(json, "status", "nodes"), map(at(json, "status", "resources")),
                        map(at(json, "spec", "limits")), condition(json, "Ready", "status"), condition(json, "Ready", "message"),
                        condition(json, "NodeRegistrationHealthy", "status"), condition(json, "NodeRegistrationHealthy", "message")));
            } else if (o.kind().equals("EC2NodeClass")) {
                Map<String, Object> json = Serialization.unmarshal(o.json(), Map.class);
                classes.add(new NodeClass(o.name(), condition(json, "Ready", "status"), condition(json, "Ready", "message"),
                        notes(json)));
            }
        }
        List<Claim> claims = new ArrayList<>();
        for (GenericKubernetesResource c : nodeClaims(kube)) {
            Map<String, String> labels = c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels();
            claims.add(new Claim(c.getMetadata().getName(), labels.get("node.kubernetes.io/instance-type"),
                    labels.get("karpenter.sh/capacity-type"), labels.get("topology.kubernetes.io/zone"),
                    (String) at(c.getAdditionalProperties(), "status", "nodeName"),
                    condition(c.getAdditionalProperties(), "Ready", "status")));
        }
        return new Read(objects, pools, classes, claims);
    }

    /**
     * The three sections, as {@code kubectl describe nodepool}, {@code kubectl describe ec2nodeclass} and
     * {@code kubectl get nodeclaims} would show them.
     */
    public static String table(Read r) {
        StringBuilder b = new StringBuilder();
        b.append("\nNODEPOOLS IN THE CLUSTER (").append(r.pools().size()).append(")\n");
        for (Pool p : r.pools()) {
            b.append("  ").append(p.name()).append(": ").append(p.nodes() == null ? 0 : p.nodes()).append(" nodes, Ready ")
                    .append(p.ready() == null ? "Unknown" : p.ready())
                    .append(p.message() == null || p.message().isEmpty() ? "" : " (" + p.message() + ")").append('\n');
            if ("False".equals(p.registrationHealthy())) {
                // Karpenter's NodeRegistrationHealthy: its recent launches were refused or its nodes did not join.
                b.append("    NodeRegistrationHealthy False: ").append(p.registrationMessage()).append('\n');
            }
            if (p.resources() != null) {
                p.resources().forEach((k, v) -> b.append(String.format("    %-8s %s%n", k,
                        v + (p.limits() != null && p.limits().containsKey(k) ? "/" + p.limits().get(k) : ""))));
            }
        }
        b.append("\nEC2NODECLASSES IN THE CLUSTER (").append(r.classes().size()).append(")\n");
        for (NodeClass c : r.classes()) {
            b.append("  ").append(c.name()).append(": Ready ").append(c.ready() == null ? "Unknown" : c.ready())
                    .append(c.message() == null || c.message().isEmpty() ? "" : " (" + c.message() + ")").append('\n');
            c.notes().forEach(n -> b.append("    ").append(n).append('\n'));
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

    private static List<GenericKubernetesResource> nodeClaims(KubernetesClient kube) {
        try {
            return kube.genericKubernetesResources(KubeNodeClaims.NODE_CLAIMS).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of(); // the CRD is not installed
            }
            throw e;
        }
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

    /** {@link NodeClass#notes}: the conditions other than Ready that say more than "ready". */
    private static List<String> notes(Map<String, Object> json) {
        List<String> out = new ArrayList<>();
        if (at(json, "status", "conditions") instanceof List<?> l) {
            for (Object c : l) {
                if (c instanceof Map<?, ?> m && !"Ready".equals(m.get("type"))
                        && !("True".equals(m.get("status")) && java.util.Objects.equals(m.get("type"), m.get("reason")))) {
                    Object message = m.get("message");
                    out.add(m.get("type") + " " + m.get("status") + " (" + m.get("reason") + ")"
                            + (message == null || message.toString().isEmpty() ? "" : ": " + message));
                }
            }
        }
        return out;
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
