package dev.gantry.core.headroom;

import dev.gantry.core.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The objects buffers refer to, as read from the config bundle or the cluster: PodTemplates and scalable workloads,
 * each with the pod one chunk copies and (for workloads) its current replica count. Later entries replace earlier
 * ones with the same key, so the cluster's view can be laid over the bundle's.
 */
public record BufferTargets(Map<String, Target> byKey) {
    public static final BufferTargets NONE = new BufferTargets(Map.of());

    public BufferTargets {
        byKey = Map.copyOf(byKey);
    }

    /**
     * One referable object.
     *
     * @param kind     {@code PodTemplate}, {@code Deployment}, {@code StatefulSet}, {@code ReplicaSet}, …
     * @param template the pod one replica (or one chunk) is; requests already effective
     * @param replicas the workload's current replicas; 0 for a PodTemplate
     */
    public record Target(String namespace, String kind, String name, Pod template, int replicas) {
        public Target {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(template, "template");
        }
    }

    public static BufferTargets of(List<Target> targets) {
        Map<String, Target> m = new LinkedHashMap<>();
        targets.forEach(t -> m.put(key(t.namespace(), t.kind(), t.name()), t));
        return new BufferTargets(m);
    }

    /** This set with {@code other}'s entries laid over it. */
    public BufferTargets with(BufferTargets other) {
        Map<String, Target> m = new LinkedHashMap<>(byKey);
        m.putAll(other.byKey);
        return new BufferTargets(m);
    }

    /** What {@code buffer} refers to, if known. */
    public Optional<Target> resolve(CapacityBuffer buffer) {
        String kind = switch (buffer.target()) {
            case CapacityBuffer.PodTemplateRef r -> "PodTemplate";
            case CapacityBuffer.ScalableRef r -> r.kind();
        };
        String name = switch (buffer.target()) {
            case CapacityBuffer.PodTemplateRef r -> r.name();
            case CapacityBuffer.ScalableRef r -> r.name();
        };
        return Optional.ofNullable(byKey.get(key(buffer.namespace(), kind, name)));
    }

    static String key(String namespace, String kind, String name) {
        return namespace + "/" + kind + "/" + name;
    }
}
