package dev.gantry.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * How Gantry's clients turn the API server's JSON into fabric8's model: fabric8's own serialization (the mapper its
 * default constructor builds, configured by it as always), except that fields nothing reads are skipped while
 * decoding, at the token level, without building them:
 * <ul>
 *   <li>{@code metadata.managedFields}, the field-ownership records: about half of a pod's JSON as the API server
 *       lists it (the controller's and the kubelet's entries), and read by nothing in Gantry;</li>
 *   <li>a Node's {@code status.images}, the kubelet's list of the images on the node (up to 50 by default,
 *       {@code nodeStatusMaxImages}), read by nothing in Gantry;</li>
 *   <li>the parts of a pod that say how its containers run rather than what they ask of a node: {@code spec.volumes}
 *       (every pod has at least its service account token's projected volume), each container's environment, mounts,
 *       command, probes, lifecycle hooks and security context, and each container status's image, ids and last state
 *       (the mapper reads a status's restart count and waiting reason only). The dump reader leaves the same out
 *       ({@code KubectlItemText.UNREAD}). A mapper that comes to read one of them (a pod's volumes, for the zones of its
 *       persistent volumes) must take it off here.</li>
 * </ul>
 * Both are skipped on reads only: an object Gantry builds and sends is written as before. An object read, changed and
 * written back whole (an update) goes without its managedFields, which the API server then keeps as they were:
 * managedFields are reset only by a write that sets them (Kubernetes' "Server-Side Apply", Clearing managedFields);
 * Gantry updates no Node, so no image list is written back either. The kube-objects {@code KubeJson} mapper that reads
 * dumps skips managedFields the same way.
 */
final class KubeSerialization {
    @JsonIgnoreProperties(value = {"managedFields"}, allowGetters = true)
    private abstract static class UnreadMetadata {
    }

    @JsonIgnoreProperties(value = {"images"}, allowGetters = true)
    private abstract static class UnreadNodeStatus {
    }

    @JsonIgnoreProperties(value = {"volumes"}, allowGetters = true)
    private abstract static class UnreadPodSpec {
    }

    @JsonIgnoreProperties(value = {"env", "envFrom", "volumeMounts", "volumeDevices", "command", "args", "livenessProbe",
            "readinessProbe", "startupProbe", "lifecycle", "securityContext"}, allowGetters = true)
    private abstract static class UnreadContainer {
    }

    @JsonIgnoreProperties(value = {"image", "imageID", "containerID", "lastState", "allocatedResources",
            "allocatedResourcesStatus", "resources", "volumeMounts", "user"}, allowGetters = true)
    private abstract static class UnreadContainerStatus {
    }

    private KubeSerialization() {
    }

    /** A new serialization for one client (fabric8 registers resource types on it, so clients do not share one). */
    static KubernetesSerialization create() {
        return new KubernetesSerialization(JsonMapper.builderWithJackson2Defaults().addModule(new Jackson2JdkTypesModule())
                .addMixIn(ObjectMeta.class, UnreadMetadata.class).addMixIn(NodeStatus.class, UnreadNodeStatus.class)
                .addMixIn(PodSpec.class, UnreadPodSpec.class).addMixIn(Container.class, UnreadContainer.class)
                .addMixIn(ContainerStatus.class, UnreadContainerStatus.class).build(), true);
    }
}
