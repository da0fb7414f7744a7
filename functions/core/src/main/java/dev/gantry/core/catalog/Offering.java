package dev.gantry.core.catalog;

import java.util.Objects;

/**
 * Where and how an instance type can be bought: a zone, a capacity type ({@code on-demand}, {@code spot},
 * {@code reserved}) and an hourly price. {@code available} is false while the offering is marked unavailable
 * (after an insufficient-capacity error, for example).
 */
public record Offering(String zone, String zoneId, String capacityType, double pricePerHour, boolean available) {
    public Offering {
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(capacityType, "capacityType");
        if (pricePerHour < 0 || Double.isNaN(pricePerHour)) {
            throw new IllegalArgumentException("price must be a non-negative number, got " + pricePerHour);
        }
    }

    public static Offering of(String zone, String capacityType, double price) {
        return new Offering(zone, null, capacityType, price, true);
    }

    public Offering unavailable() {
        return new Offering(zone, zoneId, capacityType, pricePerHour, false);
    }
}
