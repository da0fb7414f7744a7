package dev.gantry.core.status;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A NodePool's {@code status} as Gantry writes it: the capacity of its nodes ({@code resources}, what
 * {@code kubectl describe} sets against {@code spec.limits}), how many there are, its conditions
 * ({@code ValidationSucceeded}, {@code NodeClassReady}, {@code NodeRegistrationHealthy}, {@code Ready}), and the
 * generation of its NodeClass they were set against.
 *
 * @param resources                   resource name to quantity ({@code cpu: "8"}, {@code memory: "32Gi"}), summed
 *                                    over its live claims
 * @param nodeClassObservedGeneration Karpenter's field: the {@code metadata.generation} of its EC2NodeClass when the
 *                                    conditions were set (a change starts {@code NodeRegistrationHealthy} over); 0
 *                                    when not known
 */
public record PoolStatus(Map<String, String> resources, long nodes, List<Condition> conditions, long nodeClassObservedGeneration) {
    public PoolStatus {
        resources = java.util.Collections.unmodifiableMap(new TreeMap<>(resources == null ? Map.of() : resources));
        conditions = List.copyOf(conditions == null ? List.of() : conditions);
    }

    public PoolStatus(Map<String, String> resources, long nodes, List<Condition> conditions) {
        this(resources, nodes, conditions, 0);
    }
}
