package dev.gantry.core.catalog;

import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link InstanceTypeProvider} over a fixed list of {@link InstanceTypeSpec}s: the offline catalogue.
 *
 * <p>Every schedulable spec becomes an {@link InstanceType} with Karpenter's labels ({@link InstanceTypeLabels}) and
 * its capacity and overhead under the NodeClass ({@link AllocatableModel}). Its offerings are every zone × {on-demand,
 * spot} when the {@link PriceBook} prices the type in this region (after falling back to us-east-1, with a warning);
 * spot prices come from the {@link SpotPriceModel}. A type with no price has no offerings, so nothing can launch it.
 * Offerings named in {@link #withUnavailable(Set)} are kept but marked unavailable.
 *
 * <p>Specs without vCPU, memory, architecture or pod count are left out and reported by {@link #excludedNames()}.
 * Types no image of the NodeClass's AMI family boots are left out too ({@link AmiFamilyTraits#runs}: arm64 under
 * Windows, the A1 family under AL2023). Results are cached per (AMI family, kubelet settings, block device mappings,
 * instance-store policy), the inputs that change them. Thread-safe.
 */
public final class Catalog implements InstanceTypeProvider {
    private final List<InstanceTypeSpec> schedulable;
    private final List<String> excluded;
    private final PriceBook.RegionPrices prices;
    private final SpotPriceModel spotModel;
    private final String region;
    private final List<Zone> zones;
    private final Set<OfferingKey> unavailable;
    private final AllocatableModel model;
    private final Map<CacheKey, List<InstanceType>> cache = new ConcurrentHashMap<>();

    private Catalog(List<InstanceTypeSpec> schedulable, List<String> excluded, PriceBook.RegionPrices prices,
                    SpotPriceModel spotModel, String region, List<Zone> zones, Set<OfferingKey> unavailable,
                    AllocatableModel model) {
        this.schedulable = schedulable;
        this.excluded = excluded;
        this.prices = prices;
        this.spotModel = spotModel;
        this.region = region;
        this.zones = zones;
        this.unavailable = unavailable;
        this.model = model;
    }

    /**
     * A catalogue of {@code specs} in {@code region}, offering each priced type in every one of {@code zones}.
     *
     * @throws IllegalArgumentException when zones are empty or repeated, or two specs share a name
     */
    public static Catalog of(Collection<InstanceTypeSpec> specs, PriceBook priceBook, SpotPriceModel spotModel,
                             String region, List<Zone> zones) {
        Objects.requireNonNull(priceBook, "priceBook");
        Objects.requireNonNull(spotModel, "spotModel");
        Objects.requireNonNull(region, "region");
        if (zones.isEmpty()) {
            throw new IllegalArgumentException("a catalogue needs at least one zone");
        }
        Set<String> zoneNames = new HashSet<>();
        for (Zone z : zones) {
            if (!zoneNames.add(z.name())) {
                throw new IllegalArgumentException("zone " + z.name() + " is listed twice");
            }
        }
        TreeMap<String, InstanceTypeSpec> byName = new TreeMap<>();
        List<String> excluded = new ArrayList<>();
        for (InstanceTypeSpec s : specs) {
            if (byName.containsKey(s.name()) || excluded.contains(s.name())) {
                throw new IllegalArgumentException("instance type " + s.name() + " is listed twice");
            }
            if (s.schedulable()) {
                byName.put(s.name(), s);
            } else {
                excluded.add(s.name());
            }
        }
        excluded.sort(Comparator.naturalOrder());
        return new Catalog(List.copyOf(byName.values()), List.copyOf(excluded), priceBook.forRegion(region), spotModel,
                region, List.copyOf(zones), Set.of(), AllocatableModel.DEFAULT);
    }

    /** This catalogue with exactly {@code keys} marked unavailable (replacing any earlier set). */
    public Catalog withUnavailable(Set<OfferingKey> keys) {
        return new Catalog(schedulable, excluded, prices, spotModel, region, zones, Set.copyOf(keys), model);
    }

    /** This catalogue with a different overhead model (VM memory overhead, reserved ENIs). */
    public Catalog withAllocatableModel(AllocatableModel newModel) {
        return new Catalog(schedulable, excluded, prices, spotModel, region, zones, unavailable,
                Objects.requireNonNull(newModel, "model"));
    }

    @Override
    public List<InstanceType> instanceTypes(NodeClass nodeClass) {
        CacheKey key = new CacheKey(nodeClass.effectiveAmiFamily(), nodeClass.kubelet(), nodeClass.blockDeviceMappings(),
                nodeClass.instanceStorePolicy(), nodeClass.networking(), nodeClass.cpuOptions());
        return cache.computeIfAbsent(key, k -> build(nodeClass));
    }

    private List<InstanceType> build(NodeClass nodeClass) {
        AmiFamilyTraits traits = AmiFamilyTraits.of(nodeClass.effectiveAmiFamily());
        List<InstanceType> out = new ArrayList<>(schedulable.size());
        for (InstanceTypeSpec s : schedulable) {
            shaped(s, nodeClass, traits, offerings(s.name())).ifPresent(out::add);
        }
        return List.copyOf(out);
    }

    /**
     * A type this catalogue lacks (a preview type EC2 describes), built as the catalogue builds its own: Karpenter's
     * labels, capacity and overhead under {@code nodeClass}, with the given offerings. Empty when the spec is not
     * schedulable or the NodeClass cannot run it ({@link AmiFamilyTraits#runs}, {@link LaunchOptionsFit#fits}).
     */
    public Optional<InstanceType> shape(InstanceTypeSpec spec, NodeClass nodeClass, List<Offering> offerings) {
        if (!spec.schedulable()) {
            return Optional.empty();
        }
        return shaped(spec, nodeClass, AmiFamilyTraits.of(nodeClass.effectiveAmiFamily()), offerings);
    }

    private Optional<InstanceType> shaped(InstanceTypeSpec s, NodeClass nodeClass, AmiFamilyTraits traits,
                                          List<Offering> offerings) {
        if (!traits.runs(s) || !LaunchOptionsFit.fits(nodeClass, s)) {
            return Optional.empty();
        }
        InstanceTypeLabels labels = InstanceTypeLabels.of(s, region, traits);
        Resources capacity = model.capacity(s, nodeClass);
        if (traits.windows() && s.ipv4PerEni() != null) {
            // The VPC resource controller hands Windows pods secondary IPs from the primary ENI.
            capacity = capacity.with("vpc.amazonaws.com/PrivateIPv4Address", s.ipv4PerEni() - 1);
        }
        Overhead overhead = model.overhead(s, nodeClass);
        return Optional.of(new InstanceType(s.name(), labels.labels(), capacity, overhead.total(), offerings,
                labels.undefined()));
    }

    private List<Offering> offerings(String type) {
        OptionalDouble onDemand = prices.price(type);
        if (onDemand.isEmpty()) {
            return List.of();
        }
        List<Offering> out = new ArrayList<>(zones.size() * 2);
        for (Zone z : zones) {
            double od = onDemand.getAsDouble();
            out.add(offering(type, z, WellKnownLabels.CAPACITY_ON_DEMAND, od));
            out.add(offering(type, z, WellKnownLabels.CAPACITY_SPOT, spotModel.spotPrice(type, z.name(), od)));
        }
        return out;
    }

    private Offering offering(String type, Zone z, String capacityType, double price) {
        boolean available = !unavailable.contains(new OfferingKey(type, z.name(), capacityType));
        return new Offering(z.name(), z.id(), capacityType, price, available);
    }

    public String region() { return region; }
    public List<Zone> zones() { return zones; }
    /** The schedulable specs, ordered by name. */
    public List<InstanceTypeSpec> specs() { return schedulable; }
    public Set<OfferingKey> unavailable() { return unavailable; }
    /** How many specs were left out for lacking vCPU, memory, architecture or pod count. */
    public int excludedCount() { return excluded.size(); }
    /** Their names, sorted. */
    public List<String> excludedNames() { return excluded; }
    /** The currency of this catalogue's prices. */
    public String currency() { return prices.currency(); }

    /** Things a user should know about this catalogue's prices, such as a region priced from us-east-1. */
    public List<String> warnings() {
        return prices.warning().map(List::of).orElse(List.of());
    }

    public Optional<InstanceTypeSpec> spec(String name) {
        return schedulable.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** What {@link #instanceTypes(NodeClass)} depends on in a NodeClass; records give value equality. */
    private record CacheKey(String amiFamily, NodeClass.Kubelet kubelet, List<NodeClass.BlockDeviceMapping> blockDevices,
                            String instanceStorePolicy, NodeClass.Networking networking,
                            NodeClass.CpuOptions cpuOptions) {
    }
}
