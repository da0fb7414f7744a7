package dev.gantry.kube;

import dev.gantry.core.config.ConfigObject;
import dev.gantry.core.config.ConfigObjects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster's configuration objects through fabric8's generic resources: list {@code nodepools.karpenter.sh/v1} and
 * {@code ec2nodeclasses.karpenter.k8s.aws/v1} and {@code nodeoverlays.karpenter.sh/v1alpha1} (cluster-scoped), then the CapacityBuffers and their targets
 * ({@link KubeBuffers}). Each object is handed on whole, as the API server's JSON, for the config reader.
 *
 * <p>A kind whose CRD is not installed answers 404 on its list: no objects of that kind. Any other failure is a
 * {@link dev.gantry.core.cluster.ClusterException} and nothing is returned, so a failed list never reads as deleted
 * NodePools.
 */
public final class KubeConfigObjects implements ConfigObjects {
    public static final ResourceDefinitionContext NODE_POOLS = new ResourceDefinitionContext.Builder()
            .withGroup("karpenter.sh").withVersion("v1").withKind("NodePool").withPlural("nodepools").withNamespaced(false).build();
    public static final ResourceDefinitionContext EC2_NODE_CLASSES = new ResourceDefinitionContext.Builder()
            .withGroup("karpenter.k8s.aws").withVersion("v1").withKind("EC2NodeClass").withPlural("ec2nodeclasses")
            .withNamespaced(false).build();
    public static final ResourceDefinitionContext NODE_OVERLAYS = new ResourceDefinitionContext.Builder()
            .withGroup("karpenter.sh").withVersion("v1alpha1").withKind("NodeOverlay").withPlural("nodeoverlays")
            .withNamespaced(false).build();

    private final KubernetesClient client;
    private final KubeBuffers buffers;

    public KubeConfigObjects(KubernetesClient client) {
        this.client = client;
        this.buffers = new KubeBuffers(client);
    }

    @Override
    public List<ConfigObject> list() {
        List<ConfigObject> out = new ArrayList<>();
        out.addAll(listed(EC2_NODE_CLASSES));
        out.addAll(listed(NODE_POOLS));
        out.addAll(listed(NODE_OVERLAYS));
        out.addAll(buffers.objects());
        return out;
    }

    private List<ConfigObject> listed(ResourceDefinitionContext kind) {
        try {
            return client.genericKubernetesResources(kind).list().getItems().stream().map(o -> object(o, kind)).toList();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw ApiCall.translate("list " + kind.getPlural(), e);
        }
    }

    /** One object as the reader takes it. */
    static ConfigObject object(HasMetadata o) {
        var m = o.getMetadata();
        return new ConfigObject(o.getKind(), m.getNamespace(), m.getName(), m.getResourceVersion(), Serialization.asJson(o));
    }

    /** A listed item; one without kind or apiVersion (allowed in a list's items) gets them from the list. */
    private static ConfigObject object(GenericKubernetesResource o, ResourceDefinitionContext kind) {
        if (o.getKind() == null || o.getApiVersion() == null) {
            o.setKind(kind.getKind());
            o.setApiVersion(kind.getGroup() + "/" + kind.getVersion());
        }
        return object(o);
    }
}
