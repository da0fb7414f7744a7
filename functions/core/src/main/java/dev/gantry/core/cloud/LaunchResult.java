package dev.gantry.core.cloud;

import dev.gantry.core.catalog.OfferingKey;
import java.util.List;

/** The instance a launch produced, and offerings that failed before it did (to be marked unavailable). */
public record LaunchResult(CloudInstance instance, List<OfferingKey> unavailable) {
    public LaunchResult {
        unavailable = List.copyOf(unavailable == null ? List.of() : unavailable);
    }
}
