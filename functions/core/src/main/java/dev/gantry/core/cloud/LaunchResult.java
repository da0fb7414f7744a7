package dev.gantry.core.cloud;

import dev.gantry.core.catalog.OfferingKey;
import java.util.List;

/**
 * The instances a launch produced (at least one, at most the request's count: EC2 may fulfil a fleet in part), and the
 * offerings that failed along the way (to be marked unavailable).
 */
public record LaunchResult(List<CloudInstance> instances, List<OfferingKey> unavailable) {
    public LaunchResult {
        instances = List.copyOf(instances);
        unavailable = List.copyOf(unavailable == null ? List.of() : unavailable);
        if (instances.isEmpty()) {
            throw new IllegalArgumentException("a launch result has at least one instance");
        }
    }

    /** One instance. */
    public LaunchResult(CloudInstance instance, List<OfferingKey> unavailable) {
        this(List.of(instance), unavailable);
    }

    /** The first instance (the only one of a single launch). */
    public CloudInstance instance() {
        return instances.getFirst();
    }
}
