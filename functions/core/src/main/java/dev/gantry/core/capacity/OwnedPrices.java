package dev.gantry.core.capacity;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pool's node (or claim in flight) costs it, for the dollar limit: the rule {@link CostLimit} states, over the
 * catalogue the scheduler prices from (every pool's types, NodeOverlays applied). Indexes are built on first use, so a
 * count that only meets its pools' own offerings never looks past them. Not thread-safe; one per count.
 */
final class OwnedPrices {
    private final Map<String, PoolOffer> pools = new HashMap<>();
    private final Map<String, Map<String, InstanceType>> byPool = new HashMap<>();
    private final Map<String, Double> dearestAllowed = new HashMap<>();
    private Map<String, List<InstanceType>> everywhere;

    OwnedPrices(List<PoolOffer> offers) {
        offers.forEach(p -> pools.putIfAbsent(p.pool().name(), p));
    }

    /** Whether {@code pool} is among the pools this prices for. */
    boolean knows(String pool) {
        return pool != null && pools.containsKey(pool);
    }

    /** The $/h of capacity with these labels in {@code pool} (one of {@link #knows}); {@code launchPrice} 0 if unknown. */
    double price(String pool, Map<String, String> labels, double launchPrice) {
        String typeName = labels.get(WellKnownLabels.INSTANCE_TYPE);
        String zone = labels.get(WellKnownLabels.ZONE);
        String capacityType = labels.get(WellKnownLabels.CAPACITY_TYPE);
        InstanceType own = types(pool).get(typeName);
        Offering o = own == null ? null : offering(own, zone, capacityType);
        if (o != null) {
            return o.pricePerHour(); // 1. its offering in its pool's types
        }
        List<InstanceType> copies = typeName == null ? List.of() : everywhere().getOrDefault(typeName, List.of());
        double exact = -1;
        double dearest = -1;
        for (InstanceType t : copies) {
            Offering same = offering(t, zone, capacityType);
            if (same != null) {
                exact = Math.max(exact, same.pricePerHour()); // 2. that offering in another pool's types
            }
            for (Offering any : t.offerings()) {
                dearest = Math.max(dearest, any.pricePerHour()); // 4. the type's dearest known offering
            }
        }
        if (exact >= 0) {
            return exact;
        }
        if (launchPrice > 0) {
            return launchPrice; // 3. the price its claim recorded at launch
        }
        if (dearest >= 0) {
            return dearest;
        }
        return dearestAllowed.computeIfAbsent(pool, this::dearestAllowed); // 5. an unknown type
    }

    private Map<String, InstanceType> types(String pool) {
        return byPool.computeIfAbsent(pool, k -> {
            Map<String, InstanceType> m = new HashMap<>();
            pools.get(k).instanceTypes().forEach(t -> m.putIfAbsent(t.name(), t));
            return m;
        });
    }

    private Map<String, List<InstanceType>> everywhere() {
        if (everywhere == null) {
            everywhere = new HashMap<>();
            for (PoolOffer p : pools.values()) {
                p.instanceTypes().forEach(t -> everywhere.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(t));
            }
        }
        return everywhere;
    }

    private static Offering offering(InstanceType t, String zone, String capacityType) {
        for (Offering o : t.offerings()) {
            if (o.zone().equals(zone) && o.capacityType().equals(capacityType)) {
                return o;
            }
        }
        return null;
    }

    /** The dearest offering the pool's requirements allow in its types, else the dearest of its types; 0 for none. */
    private double dearestAllowed(String pool) {
        Requirements reqs = pools.get(pool).requirements();
        double allowed = 0;
        double any = 0;
        for (InstanceType t : pools.get(pool).instanceTypes()) {
            boolean typeAllowed = reqs.compatible(t.requirements());
            for (Offering o : t.offerings()) {
                any = Math.max(any, o.pricePerHour());
                if (typeAllowed && o.allowedBy(reqs)) {
                    allowed = Math.max(allowed, o.pricePerHour());
                }
            }
        }
        return allowed > 0 ? allowed : any;
    }
}
