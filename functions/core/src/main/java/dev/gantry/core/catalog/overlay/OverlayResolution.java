package dev.gantry.core.catalog.overlay;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * NodeOverlays merged over every NodePool's instance types, as Karpenter v1.14.1's overlay controller and store do
 * ({@code pkg/controllers/nodeoverlay/controller.go}, {@code store.go}):
 * <ul>
 *   <li>Overlays are taken by weight, highest first; at equal weight, the name later in the alphabet first.</li>
 *   <li>An overlay matches an instance type of a pool when its requirements are compatible with the type's labels,
 *       the pool's name ({@code karpenter.sh/nodepool}) and template labels; then it applies to the type's offerings
 *       whose zone and capacity type it allows. Capacity applies to the whole type once any offering matches.</li>
 *   <li>Per offering, the first (highest-weight) price wins. Per extended resource, the highest weight wins and
 *       different resources from several overlays merge.</li>
 *   <li>An overlay that would set a price on an offering, or a resource, that an overlay of the <em>same</em> weight
 *       already set, conflicts: it is marked invalid and applies nowhere (in no pool: all or nothing).</li>
 *   <li>Preview types ({@link NodeOverlay#previewTypes()}): a named type the pool's catalogue lacks is added with the
 *       overlay's price when {@link PreviewShapes} knows its shape.</li>
 * </ul>
 * The result is a value: {@link #apply} gives a pool's types as scheduling and consolidation see them. Billing never
 * goes through here.
 */
public final class OverlayResolution {
    /** No overlays: {@link #apply} returns its input. */
    public static final OverlayResolution NONE = new OverlayResolution(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    /** One instance type's changes in one pool: prices by offering ({@code zone/capacityType}) and added resources. */
    private record Update(Map<String, PriceChange> prices, Map<String, Long> capacity) {
    }

    private final Map<String, Map<String, Update>> byPool;
    private final Map<String, List<InstanceType>> previews;
    private final Map<String, String> invalid;
    private final Map<String, List<String>> unknownPreviews;
    private final Map<String, List<String>> unansweredPreviews;

    private OverlayResolution(Map<String, Map<String, Update>> byPool, Map<String, List<InstanceType>> previews,
                              Map<String, String> invalid, Map<String, List<String>> unknownPreviews,
                              Map<String, List<String>> unansweredPreviews) {
        this.byPool = byPool;
        this.previews = previews;
        this.invalid = invalid;
        this.unknownPreviews = unknownPreviews;
        this.unansweredPreviews = unansweredPreviews;
    }

    /**
     * @param pools the NodePools with their NodeClass and the catalogue's instance types under it
     * @param shapes where preview types' shapes come from
     */
    public static OverlayResolution resolve(List<NodeOverlay> overlays, Map<NodePool, PoolTypes> pools, PreviewShapes shapes) {
        if (overlays.isEmpty()) {
            return NONE;
        }
        List<NodeOverlay> ordered = new ArrayList<>(overlays);
        ordered.sort(Comparator.comparingInt(NodeOverlay::weight).reversed()
                .thenComparing(NodeOverlay::name, Comparator.reverseOrder()));
        Map<String, Map<String, Staged>> staged = new HashMap<>();
        Map<String, List<InstanceType>> previews = new HashMap<>();
        Map<String, String> invalid = new LinkedHashMap<>();
        Set<String> known = new HashSet<>();
        pools.values().forEach(pt -> pt.types().forEach(t -> known.add(t.name())));
        for (NodeOverlay o : ordered) {
            Requirements reqs = Requirements.of(o.requirements());
            // Validate against every pool before storing in any: an overlay in conflict is applied nowhere.
            List<Runnable> writes = new ArrayList<>();
            String conflict = null;
            for (var e : pools.entrySet()) {
                NodePool pool = e.getKey();
                List<InstanceType> types = withPreviews(o, pool, e.getValue(), shapes, previews, known);
                Map<String, Staged> poolStage = staged.computeIfAbsent(pool.name(), k -> new HashMap<>());
                for (InstanceType t : types) {
                    List<String> offerings = matchedOfferings(reqs, pool, t);
                    if (offerings.isEmpty()) {
                        continue;
                    }
                    Staged s = poolStage.computeIfAbsent(t.name(), k -> new Staged());
                    conflict = conflict != null ? conflict : s.conflict(o, offerings, pool.name(), t.name());
                    writes.add(() -> s.write(o, offerings));
                }
            }
            if (conflict != null) {
                invalid.put(o.name(), conflict);
            } else {
                writes.forEach(Runnable::run);
            }
        }
        Map<String, Map<String, Update>> byPool = new HashMap<>();
        staged.forEach((pool, types) -> {
            Map<String, Update> u = new HashMap<>();
            types.forEach((type, s) -> {
                if (!s.prices.isEmpty() || !s.capacity.isEmpty()) {
                    u.put(type, new Update(Map.copyOf(s.prices), Map.copyOf(s.capacity)));
                }
            });
            byPool.put(pool, Map.copyOf(u));
        });
        // A preview type whose overlay was invalid, or overridden, stays out unless a valid overlay priced it.
        Map<String, List<InstanceType>> usedPreviews = new HashMap<>();
        previews.forEach((pool, list) -> usedPreviews.put(pool, list.stream()
                .filter(t -> byPool.getOrDefault(pool, Map.of()).containsKey(t.name())
                        && !byPool.get(pool).get(t.name()).prices().isEmpty()).toList()));
        Map<String, List<String>> unknown = new LinkedHashMap<>();
        Map<String, List<String>> unanswered = new LinkedHashMap<>();
        for (NodeOverlay o : ordered) {
            List<String> missing = o.previewTypes().stream().filter(n -> !known.contains(n)).toList();
            // A type the source could not be asked about is neither known nor unknown yet: the next resolution asks again.
            List<String> notFound = missing.stream().filter(n -> !shapes.unanswered(n)).toList();
            if (!notFound.isEmpty()) {
                unknown.put(o.name(), notFound);
            } else if (!missing.isEmpty()) {
                unanswered.put(o.name(), missing);
            }
        }
        return new OverlayResolution(Map.copyOf(byPool), Map.copyOf(usedPreviews), java.util.Collections.unmodifiableMap(invalid),
                java.util.Collections.unmodifiableMap(unknown), java.util.Collections.unmodifiableMap(unanswered));
    }

    /**
     * Preview-shaped overlays ({@link NodeOverlay#previewTypes()}) naming types that neither any pool's catalogue nor
     * {@link PreviewShapes} knows, by overlay name (Gantry's own: Karpenter silently prices nothing for them).
     */
    public Map<String, List<String>> unknownPreviews() {
        return unknownPreviews;
    }

    /**
     * Preview-shaped overlays whose missing types {@link PreviewShapes} could not be asked about (a throttle, a 5xx),
     * by overlay name: whether they exist is not known this time (Gantry's own).
     */
    public Map<String, List<String>> unansweredPreviews() {
        return unansweredPreviews;
    }

    /** A pool's NodeClass and its catalogue types (before overlays), what {@link #resolve} matches against. */
    public record PoolTypes(NodeClass nodeClass, List<InstanceType> types) {
    }

    /** Overlays in conflict with another of the same weight, by name, with the reason (Karpenter's ValidationSucceeded=False). */
    public Map<String, String> invalid() {
        return invalid;
    }

    /** Whether nothing changes any type. */
    public boolean isEmpty() {
        return byPool.values().stream().allMatch(Map::isEmpty) && previews.values().stream().allMatch(List::isEmpty);
    }

    /**
     * The pool's instance types as scheduling and consolidation see them: overlay prices on the matched offerings,
     * extended resources added, preview types appended. Offerings keep their availability. Types without changes are
     * returned as they are.
     */
    public List<InstanceType> apply(NodePool pool, List<InstanceType> types) {
        Map<String, Update> updates = byPool.getOrDefault(pool.name(), Map.of());
        List<InstanceType> extra = previews.getOrDefault(pool.name(), List.of());
        if (updates.isEmpty() && extra.isEmpty()) {
            return types;
        }
        List<InstanceType> out = new ArrayList<>(types.size() + extra.size());
        Set<String> names = new HashSet<>();
        for (InstanceType t : types) {
            names.add(t.name());
            Update u = updates.get(t.name());
            out.add(u == null ? t : applied(t, u));
        }
        for (InstanceType t : extra) {
            if (!names.contains(t.name())) {
                // EC2 publishes no price for a preview type: the overlay's estimate is its list price too, so what
                // Gantry reports such a node costs (and counts against a dollar limit) is not zero.
                InstanceType priced = applied(t, updates.get(t.name()));
                out.add(priced.withOfferings(priced.offerings().stream().map(o -> new Offering(o.zone(), o.zoneId(),
                        o.capacityType(), o.pricePerHour(), o.available(), o.pricePerHour())).toList()));
            }
        }
        return out;
    }

    private static InstanceType applied(InstanceType t, Update u) {
        List<Offering> offerings = new ArrayList<>(t.offerings().size());
        for (Offering o : t.offerings()) {
            PriceChange p = u.prices().get(o.zone() + "/" + o.capacityType());
            offerings.add(p == null ? o : o.priced(p.apply(o.pricePerHour())));
        }
        Resources capacity = t.capacity();
        for (var e : u.capacity().entrySet()) {
            capacity = capacity.with(e.getKey(), e.getValue());
        }
        return new InstanceType(t.name(), t.labels(), capacity, t.overhead(), offerings, t.undefinedLabels());
    }

    /** The offerings ({@code zone/capacityType}) of {@code t} in {@code pool} that the overlay selects; empty if none. */
    static List<String> matchedOfferings(Requirements overlay, NodePool pool, InstanceType t) {
        TreeSet<String> zones = new TreeSet<>();
        TreeSet<String> capacityTypes = new TreeSet<>();
        for (Offering o : t.offerings()) {
            zones.add(o.zone());
            capacityTypes.add(o.capacityType());
        }
        Requirements own = t.requirements().with(WellKnownLabels.ZONE, ValueSet.in(zones))
                .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(capacityTypes))
                .with(WellKnownLabels.NODEPOOL, ValueSet.in(pool.name()));
        for (var e : pool.template().labels().entrySet()) {
            own = own.with(e.getKey(), ValueSet.in(e.getValue()));
        }
        if (!own.compatible(overlay)) {
            return List.of();
        }
        for (String key : overlay.keys()) {
            // A label neither the type nor the pool has: only a requirement that allows its absence matches.
            if (!own.has(key) && !overlay.get(key).has(null)) {
                return List.of();
            }
        }
        ValueSet z = overlay.get(WellKnownLabels.ZONE);
        ValueSet c = overlay.get(WellKnownLabels.CAPACITY_TYPE);
        List<String> out = new ArrayList<>();
        for (Offering o : t.offerings()) {
            if (z.has(o.zone()) && c.has(o.capacityType())) {
                out.add(o.zone() + "/" + o.capacityType());
            }
        }
        return out;
    }

    private static List<InstanceType> withPreviews(NodeOverlay o, NodePool pool, PoolTypes pt, PreviewShapes shapes,
                                                   Map<String, List<InstanceType>> previews, Set<String> described) {
        List<String> named = o.previewTypes();
        if (named.isEmpty()) {
            return pt.types();
        }
        List<InstanceType> out = new ArrayList<>(pt.types());
        Set<String> have = new HashSet<>();
        pt.types().forEach(t -> have.add(t.name()));
        List<InstanceType> poolPreviews = previews.computeIfAbsent(pool.name(), k -> new ArrayList<>());
        poolPreviews.forEach(t -> have.add(t.name()));
        out.addAll(poolPreviews);
        for (String n : named) {
            if (!have.contains(n)) {
                shapes.shape(n, pt.nodeClass()).map(t -> {
                    described.add(t.name());
                    return t;
                }).filter(t -> pool.requirements().compatible(t.requirements())).ifPresent(t -> {
                    poolPreviews.add(t);
                    out.add(t);
                });
            }
        }
        return out;
    }

    /** What overlays set so far on one type of one pool, with the weight of the last overlay that touched each field. */
    private static final class Staged {
        final Map<String, PriceChange> prices = new HashMap<>();
        final Map<String, Integer> priceWeight = new HashMap<>();
        final Map<String, Long> capacity = new HashMap<>();
        final Map<String, Integer> capacityWeight = new HashMap<>();

        String conflict(NodeOverlay o, List<String> offerings, String pool, String type) {
            if (o.price() != null) {
                for (String k : offerings) {
                    Integer w = priceWeight.get(k);
                    if (w != null && w == o.weight()) {
                        return "conflicts with another overlay of weight " + o.weight() + " on the price of " + type + " "
                                + k + " in NodePool " + pool + " (give one of them a different weight)";
                    }
                }
            }
            for (String r : o.capacity().keySet()) {
                Integer w = capacityWeight.get(r);
                if (w != null && w == o.weight()) {
                    return "conflicts with another overlay of weight " + o.weight() + " on capacity " + r + " of " + type
                            + " in NodePool " + pool + " (give one of them a different weight)";
                }
            }
            return null;
        }

        void write(NodeOverlay o, List<String> offerings) {
            if (o.price() != null) {
                for (String k : offerings) {
                    prices.putIfAbsent(k, o.price());
                    priceWeight.put(k, o.weight());
                }
            }
            o.capacity().forEach((r, q) -> {
                capacity.putIfAbsent(r, q);
                capacityWeight.put(r, o.weight());
            });
        }
    }
}
