package dev.gantry.core.catalog;

import java.util.Objects;

/** Names one offering: an instance type in a zone with a capacity type ({@code on-demand}, {@code spot}). */
public record OfferingKey(String instanceType, String zone, String capacityType) {
    public OfferingKey {
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(capacityType, "capacityType");
    }
}
