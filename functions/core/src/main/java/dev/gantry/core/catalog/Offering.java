package dev.gantry.core.catalog;

import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.Objects;

/**
 * Where and how an instance type can be bought: a zone, a capacity type ({@code on-demand}, {@code spot},
 * {@code reserved}) and an hourly price. {@code available} is false while the offering is marked unavailable
 * (after an insufficient-capacity error, for example).
 *
 * @param pricePerHour the price decisions use: scheduling and consolidation compare it, after NodeOverlays
 * @param listPrice    the price EC2 bills for it, which a NodeOverlay never changes: a claim records this one, so what
 *                     Gantry reports a node costs is its bill (Karpenter v1.14: overlays are for simulation only)
 */
public record Offering(String zone, String zoneId, String capacityType, double pricePerHour, boolean available,
                       double listPrice) {
    public Offering {
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(capacityType, "capacityType");
        if (pricePerHour < 0 || Double.isNaN(pricePerHour)) {
            throw new IllegalArgumentException("price must be a non-negative number, got " + pricePerHour);
        }
        if (listPrice < 0 || Double.isNaN(listPrice)) {
            throw new IllegalArgumentException("list price must be a non-negative number, got " + listPrice);
        }
    }

    /** Whether {@code reqs} allow this offering's zone (and zone ID, where known) and capacity type. Availability aside. */
    public boolean allowedBy(Requirements reqs) {
        return allowedBy(reqs.get(WellKnownLabels.ZONE), reqs.get(WellKnownLabels.CAPACITY_TYPE), reqs.get(WellKnownLabels.ZONE_ID));
    }

    /**
     * The same, with the requirements' values for the three labels looked up once by a caller that asks of many
     * offerings ({@link InstanceType#cheapestOffering}, on the scheduler's hot path: three lookups an offering doubled
     * the time of the 5,000 anti-affinity pods' solve).
     */
    public boolean allowedBy(ValueSet zones, ValueSet capacityTypes, ValueSet zoneIds) {
        return zones.has(zone) && capacityTypes.has(capacityType) && (zoneId == null || zoneIds.has(zoneId));
    }

    /** An offering whose decision price is its list price (no overlay applies). */
    public Offering(String zone, String zoneId, String capacityType, double pricePerHour, boolean available) {
        this(zone, zoneId, capacityType, pricePerHour, available, pricePerHour);
    }

    public static Offering of(String zone, String capacityType, double price) {
        return new Offering(zone, null, capacityType, price, true);
    }

    public Offering unavailable() {
        return new Offering(zone, zoneId, capacityType, pricePerHour, false, listPrice);
    }

    /** This offering at {@code price} for decisions (a NodeOverlay's), billed as before. */
    public Offering priced(double price) {
        return new Offering(zone, zoneId, capacityType, price, available, listPrice);
    }
}
