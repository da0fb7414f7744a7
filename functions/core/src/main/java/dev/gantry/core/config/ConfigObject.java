package dev.gantry.core.config;

import java.util.Objects;

/**
 * One configuration object as the API server stores it: a NodePool, an EC2NodeClass, a CapacityBuffer, or an object a
 * buffer refers to (a PodTemplate, a Deployment, StatefulSet or ReplicaSet), as its JSON document.
 *
 * @param namespace       empty for cluster-scoped kinds
 * @param resourceVersion the API server's version of the object; a changed object has a different one
 * @param json            the whole object, as the API server returned it
 */
public record ConfigObject(String kind, String namespace, String name, String resourceVersion, String json) {
    public ConfigObject {
        Objects.requireNonNull(kind, "kind");
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        Objects.requireNonNull(json, "json");
    }

    /** {@code Kind/name}, or {@code Kind/namespace/name} for a namespaced object. */
    public String key() {
        return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
    }
}
