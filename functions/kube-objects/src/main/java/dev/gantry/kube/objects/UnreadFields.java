package dev.gantry.kube.objects;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.MapperBuilder;

/**
 * The fields of Kubernetes objects that no mapper reads, skipped while decoding (at the token level, never built), in
 * one place for every reader: the API clients ({@code gantry-kube}'s serialization) and the dump and manifest reader
 * ({@link KubeJson}). Skipped on reads only: an object Gantry builds is written whole.
 * <ul>
 *   <li>{@code metadata.managedFields}: about half of an object's JSON as the API server lists it;</li>
 *   <li>a Node's {@code status.images}: the kubelet's list of cached images (up to 50);</li>
 *   <li>what says how a pod's containers run rather than what they ask of a node: {@code spec.volumes}, each
 *       container's environment, mounts, command, probes, lifecycle hooks and security context, and each container
 *       status's image, ids and last state ({@link PodMapper} reads a status's restart count and waiting reason).</li>
 * </ul>
 * A mapper that comes to read one of these (a pod's volumes, for its persistent volumes' zones) must take it off here.
 */
public final class UnreadFields {
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

    private UnreadFields() {
    }

    /** {@code b} skipping every unread field. */
    public static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B skippedBy(B b) {
        return b.addMixIn(ObjectMeta.class, UnreadMetadata.class).addMixIn(NodeStatus.class, UnreadNodeStatus.class)
                .addMixIn(PodSpec.class, UnreadPodSpec.class).addMixIn(Container.class, UnreadContainer.class)
                .addMixIn(ContainerStatus.class, UnreadContainerStatus.class);
    }
}
