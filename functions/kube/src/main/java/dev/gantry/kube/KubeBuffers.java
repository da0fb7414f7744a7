package dev.gantry.kube;

import dev.gantry.core.config.ConfigObject;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the cluster's {@code autoscaling.x-k8s.io/v1beta1} CapacityBuffers and the objects they refer to (the
 * PodTemplate of a {@code podTemplateRef}; the Deployment, StatefulSet or ReplicaSet of a {@code scalableRef}), as
 * JSON documents for the config reader, which reads them exactly as it reads YAML files. Calls: list
 * capacitybuffers (all namespaces), get podtemplates, get deployments/statefulsets/replicasets. The buffer part of
 * {@link KubeConfigObjects}.
 *
 * <p>A cluster without the CRD answers 404 on the list: that is no buffers, not an error. A referenced object that is
 * not there is left out (the buffer then shows as unresolved). Any other failure is a
 * {@link dev.gantry.core.cluster.ClusterException}.
 */
public final class KubeBuffers {
    public static final ResourceDefinitionContext CAPACITY_BUFFERS = new ResourceDefinitionContext.Builder()
            .withGroup("autoscaling.x-k8s.io").withVersion("v1beta1").withKind("CapacityBuffer").withPlural("capacitybuffers")
            .withNamespaced(true).build();
    /** The scalable kinds a {@code scalableRef} may name, as the config reader accepts them. */
    static final Set<String> SCALABLE = Set.of("Deployment", "StatefulSet", "ReplicaSet");

    private final KubernetesClient client;

    public KubeBuffers(KubernetesClient client) {
        this.client = client;
    }

    /** Every CapacityBuffer with what it refers to, each with its resourceVersion; empty when the CRD is not installed. */
    public List<ConfigObject> objects() {
        List<GenericKubernetesResource> buffers;
        try {
            buffers = client.genericKubernetesResources(CAPACITY_BUFFERS).inAnyNamespace().list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw ApiCall.translate("list capacitybuffers", e);
        }
        List<ConfigObject> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (GenericKubernetesResource b : buffers) {
            out.add(KubeConfigObjects.object(b));
            String ns = b.getMetadata().getNamespace();
            Object spec = b.getAdditionalProperties().get("spec");
            if (!(spec instanceof Map<?, ?> s)) {
                continue;
            }
            HasMetadata target = null;
            if (s.get("podTemplateRef") instanceof Map<?, ?> ref && ref.get("name") instanceof String name
                    && seen.add(ns + "/PodTemplate/" + name)) {
                target = ApiCall.run("get podtemplate " + ns + "/" + name,
                        () -> client.v1().podTemplates().inNamespace(ns).withName(name).get());
            } else if (s.get("scalableRef") instanceof Map<?, ?> ref && ref.get("kind") instanceof String kind
                    && ref.get("name") instanceof String name && SCALABLE.contains(kind) && seen.add(ns + "/" + kind + "/" + name)) {
                target = ApiCall.run("get " + kind.toLowerCase() + " " + ns + "/" + name, () -> switch (kind) {
                    case "Deployment" -> client.apps().deployments().inNamespace(ns).withName(name).get();
                    case "StatefulSet" -> client.apps().statefulSets().inNamespace(ns).withName(name).get();
                    default -> client.apps().replicaSets().inNamespace(ns).withName(name).get();
                });
            }
            if (target != null) {
                out.add(KubeConfigObjects.object(target));
            }
        }
        return out;
    }
}
