package dev.gantry.core.config;

import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.core.provisioning.GantryConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration one run uses, as read from the cluster: the valid NodePools and NodeClasses, the valid
 * CapacityBuffers with their targets, and why each object that was left out was left out.
 *
 * @param config  the valid NodePools and the NodeClasses they may use; a NodePool whose NodeClass is missing or invalid
 *                is not in it
 * @param buffers the valid CapacityBuffers and the PodTemplates and workloads they refer to
 * @param invalid the messages of every object left out, by {@code Kind/name} ({@code NodePool/default},
 *                {@code CapacityBuffer/warm}, as the config reader names objects), in the order read; empty when all is valid
 * @param version the set of objects this was read from (kind, name and resourceVersion of each), for logs and equality
 */
public record ClusterConfig(GantryConfig config, LiveHeadroom.Buffers buffers, Map<String, List<String>> invalid,
                            String version) {
    public ClusterConfig {
        Objects.requireNonNull(config, "config");
        buffers = buffers == null ? LiveHeadroom.Buffers.NONE : buffers;
        Map<String, List<String>> copy = new LinkedHashMap<>();
        (invalid == null ? Map.<String, List<String>>of() : invalid).forEach((k, v) -> copy.put(k, List.copyOf(v)));
        invalid = java.util.Collections.unmodifiableMap(copy);
        Objects.requireNonNull(version, "version");
    }

    /** The messages of each NodePool left out, by NodePool name (what a {@code ValidationSucceeded=False} condition says). */
    public Map<String, List<String>> invalidNodePools() {
        return ofKind("NodePool");
    }

    /** The messages of each EC2NodeClass left out, by name. */
    public Map<String, List<String>> invalidNodeClasses() {
        return ofKind("EC2NodeClass");
    }

    private Map<String, List<String>> ofKind(String kind) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        invalid.forEach((k, v) -> {
            if (k.startsWith(kind + "/")) {
                out.put(k.substring(kind.length() + 1), v);
            }
        });
        return out;
    }
}
