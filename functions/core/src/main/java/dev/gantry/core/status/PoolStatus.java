package dev.gantry.core.status;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A NodePool's {@code status} as Gantry writes it: the capacity of its nodes ({@code resources}, what
 * {@code kubectl describe} sets against {@code spec.limits}), how many there are, and its conditions
 * ({@code ValidationSucceeded}, {@code NodeClassReady}, {@code Ready}).
 *
 * @param resources resource name to quantity ({@code cpu: "8"}, {@code memory: "32Gi"}), summed over its live claims
 */
public record PoolStatus(Map<String, String> resources, long nodes, List<Condition> conditions) {
    public PoolStatus {
        resources = java.util.Collections.unmodifiableMap(new TreeMap<>(resources == null ? Map.of() : resources));
        conditions = List.copyOf(conditions == null ? List.of() : conditions);
    }
}
