package dev.gantry.core.catalog;

import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * An instance type as the scheduler sees it under one NodeClass: its labels, its capacity, the overhead the kubelet
 * and the system reserve, and its offerings. {@link #allocatable()} is what pods may use.
 *
 * <p>{@link #requirements()} holds one single-valued set per instance label, plus the zones and capacity types of its
 * <em>available</em> offerings, so that "does this type fit these requirements" is one compatibility check.
 */
public final class InstanceType {
    private final String name;
    private final Map<String, String> labels;
    private final Resources capacity;
    private final Resources overhead;
    private final Resources allocatable;
    private final List<Offering> offerings;
    private final Requirements requirements;
    private final Set<String> undefinedLabels;

    public InstanceType(String name, Map<String, String> labels, Resources capacity, Resources overhead, List<Offering> offerings) {
        this(name, labels, capacity, overhead, offerings, Set.of());
    }

    /**
     * As the five-argument constructor, and {@code undefinedLabels} are keys this type is known <em>not</em> to carry
     * (a GPU label on a type without GPUs): its requirements hold them as DoesNotExist, so a pod that requires one
     * conflicts instead of passing as unconstrained, as Karpenter's instance types do.
     */
    public InstanceType(String name, Map<String, String> labels, Resources capacity, Resources overhead, List<Offering> offerings,
                        Set<String> undefinedLabels) {
        this.undefinedLabels = Set.copyOf(undefinedLabels);
        this.name = Objects.requireNonNull(name, "name");
        this.labels = Map.copyOf(labels);
        this.capacity = Objects.requireNonNull(capacity, "capacity");
        this.overhead = Objects.requireNonNull(overhead, "overhead");
        this.allocatable = capacity.minus(overhead);
        this.offerings = List.copyOf(offerings);
        TreeSet<String> zones = new TreeSet<>();
        TreeSet<String> capacityTypes = new TreeSet<>();
        TreeSet<String> zoneIds = new TreeSet<>();
        for (Offering o : this.offerings) {
            if (o.available()) {
                zones.add(o.zone());
                capacityTypes.add(o.capacityType());
                if (o.zoneId() != null) {
                    zoneIds.add(o.zoneId());
                }
            }
        }
        Requirements r = Requirements.fromLabels(this.labels)
                .with(WellKnownLabels.INSTANCE_TYPE, ValueSet.in(name))
                .with(WellKnownLabels.ZONE, ValueSet.in(zones))
                .with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(capacityTypes));
        if (!zoneIds.isEmpty()) {
            r = r.with(WellKnownLabels.ZONE_ID, ValueSet.in(zoneIds));
        }
        for (String key : this.undefinedLabels) {
            if (!this.labels.containsKey(key)) {
                r = r.with(key, ValueSet.of(Requirement.of(key, Operator.DoesNotExist)));
            }
        }
        this.requirements = r;
    }

    public String name() { return name; }
    public Map<String, String> labels() { return labels; }
    public Resources capacity() { return capacity; }
    public Resources overhead() { return overhead; }
    public Resources allocatable() { return allocatable; }
    public List<Offering> offerings() { return offerings; }
    public Requirements requirements() { return requirements; }
    /** Keys this type is known not to carry (held as DoesNotExist in {@link #requirements()}). */
    public Set<String> undefinedLabels() { return undefinedLabels; }

    /** A copy with different offerings (prices refreshed, some marked unavailable). */
    public InstanceType withOfferings(List<Offering> newOfferings) {
        return new InstanceType(name, labels, capacity, overhead, newOfferings, undefinedLabels);
    }

    /**
     * This type with the offerings {@code gone} accepts marked unavailable (out of capacity, or left out of a plan); the
     * same instance when it accepts none.
     */
    public InstanceType withUnavailable(java.util.function.Predicate<Offering> gone) {
        List<Offering> out = new java.util.ArrayList<>(offerings.size());
        boolean touched = false;
        for (Offering o : offerings) {
            boolean g = o.available() && gone.test(o);
            touched |= g;
            out.add(g ? o.unavailable() : o);
        }
        return touched ? withOfferings(out) : this;
    }

    /** The cheapest available offering whose zone and capacity type the requirements allow, or null. */
    public Offering cheapestOffering(Requirements reqs) {
        ValueSet zones = reqs.get(WellKnownLabels.ZONE);
        ValueSet types = reqs.get(WellKnownLabels.CAPACITY_TYPE);
        ValueSet zoneIds = reqs.get(WellKnownLabels.ZONE_ID);
        Offering best = null;
        for (Offering o : offerings) {
            if (o.available() && o.allowedBy(zones, types, zoneIds) && (best == null || o.pricePerHour() < best.pricePerHour())) {
                best = o;
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return name;
    }
}
