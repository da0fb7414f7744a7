package dev.gantry.core.interruption;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The fields of one EventBridge event that interruption handling reads, already lifted out of the JSON by the handler.
 *
 * @param detail           the {@code detail} object's scalar fields as text ({@code instance-id}, {@code state},
 *                         {@code service}, {@code eventTypeCategory}…); nested values are left out
 * @param resources        the top-level {@code resources} ARNs (the spot and rebalance ARNs carry the zone)
 * @param affectedEntities for {@code aws.health}: the {@code entityValue} of each {@code detail.affectedEntities} entry
 */
public record EventEnvelope(String id, String source, String detailType, Instant time, Map<String, String> detail,
                            List<String> resources, List<String> affectedEntities) {
    public EventEnvelope {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(detailType, "detailType");
        detail = Map.copyOf(detail == null ? Map.of() : detail);
        resources = List.copyOf(resources == null ? List.of() : resources);
        affectedEntities = List.copyOf(affectedEntities == null ? List.of() : affectedEntities);
    }

    /** A detail field, or null. */
    public String field(String name) {
        return detail.get(name);
    }
}
