package dev.gantry.core.cloud;

import dev.gantry.core.catalog.OfferingKey;
import java.util.List;

/** No option of a launch could be fulfilled; every offering tried is listed, to be marked unavailable. */
public final class InsufficientCapacity extends CloudException {
    private final List<OfferingKey> offerings;

    public InsufficientCapacity(String code, List<OfferingKey> offerings) {
        super(code, "no capacity for " + offerings, true);
        this.offerings = List.copyOf(offerings);
    }

    public List<OfferingKey> offerings() {
        return offerings;
    }
}
