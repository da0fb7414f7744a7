package dev.gantry.aws.pricing;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeDescriptions;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.catalog.Zone;
import dev.gantry.core.catalog.overlay.PreviewShapes;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.pricing.PricingClient;

/**
 * The built-in catalogue's instance types with live offerings: the zones each type is really offered in
 * (DescribeInstanceTypeOfferings), the latest spot price per zone (DescribeSpotPriceHistory) and the region's
 * on-demand prices (Pricing GetProducts). Capacities and labels stay the catalogue's.
 *
 * <p>Freshness follows Karpenter: offerings are re-read after 5 minutes, prices after 12 hours. When a read fails the
 * last good data stays in use; when none was ever read, that part falls back to the catalogue (its zones, its
 * on-demand price, its modelled spot price). With live spot prices, a type/zone EC2 gives no spot price for has no
 * spot offering. Offerings the catalogue marks unavailable stay unavailable. Thread-safe.
 *
 * <p>Preview types ({@link PreviewShapes}): a type a NodeOverlay prices but the catalogue lacks is described by
 * {@link InstanceTypeDescriptions} (EC2 DescribeInstanceTypes) and built as the catalogue builds its own, offered in
 * the zones DescribeInstanceTypeOfferings lists for it (the catalogue's zones before the first read) as each capacity
 * type EC2 sells it as, at price 0 until the overlay's price replaces it, as Karpenter's base offering resolver
 * takes the overlay price for a type without one (aws {@code pkg/providers/instancetype/offering/base_resolver.go}).
 * A failed description is logged and the type stays out this time, reported {@link #unanswered} (not unknown).
 */
public final class LiveInstanceTypeProvider implements InstanceTypeProvider, PreviewShapes {
    private static final System.Logger LOG = System.getLogger(LiveInstanceTypeProvider.class.getName());
    static final Duration OFFERINGS_TTL = Duration.ofMinutes(5);
    static final Duration PRICES_TTL = Duration.ofHours(12);
    static final Duration RETRY_AFTER = Duration.ofMinutes(1);

    private final Catalog base;
    private final Feeds feeds;
    private final InstanceTypeDescriptions descriptions;
    private final Map<NodeClass, Cached> cache = new ConcurrentHashMap<>();

    /** The three live reads, shared by every provider derived with {@link #withUnavailable(Set)}. */
    private record Feeds(Refreshing<Map<String, Set<String>>> zones, Refreshing<Map<String, Double>> spot,
                         Refreshing<Map<String, Double>> onDemand) {
        long generation() {
            return zones.generation() * 1_000_000L + spot.generation() * 1_000L + onDemand.generation();
        }
    }

    private record Cached(long generation, List<InstanceType> types) {}

    private LiveInstanceTypeProvider(Catalog base, Feeds feeds, InstanceTypeDescriptions descriptions) {
        this.base = base;
        this.feeds = feeds;
        this.descriptions = descriptions;
    }

    /** This provider, describing preview types through {@code source} (DescribeInstanceTypes). */
    public LiveInstanceTypeProvider withDescriptions(InstanceTypeDescriptions source) {
        return new LiveInstanceTypeProvider(base, feeds, Objects.requireNonNull(source, "source"));
    }

    /** The preview types whose last description failed (not "unknown": EC2 could not be asked). */
    private final Set<String> unanswered = ConcurrentHashMap.newKeySet();

    @Override
    public boolean unanswered(String instanceType) {
        return unanswered.contains(instanceType);
    }

    @Override
    public Optional<InstanceType> shape(String instanceType, NodeClass nodeClass) {
        Optional<InstanceTypeDescriptions.Described> described;
        try {
            described = descriptions.describe(instanceType);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "preview instance type " + instanceType + " not described: " + e.getMessage());
            unanswered.add(instanceType);
            return Optional.empty();
        }
        unanswered.remove(instanceType);
        if (described.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Zone> known = new HashMap<>();
        base.zones().forEach(z -> known.put(z.name(), z));
        Set<String> zones = feeds.zones().get().map(m -> m.getOrDefault(instanceType, Set.<String>of()))
                .orElse(known.keySet());
        List<Offering> offerings = new ArrayList<>();
        for (String zone : new TreeSet<>(zones)) {
            for (String capacityType : new TreeSet<>(described.get().capacityTypes())) {
                boolean available = !base.unavailable().contains(new OfferingKey(instanceType, zone, capacityType));
                Zone z = known.get(zone);
                offerings.add(new Offering(zone, z == null ? null : z.id(), capacityType, 0.0, available));
            }
        }
        return base.shape(described.get().spec(), nodeClass, offerings);
    }

    /**
     * @param pricing a Pricing client for the Price List endpoint region (us-east-1 for commercial regions)
     * @param clock   decides when data is stale
     */
    public static LiveInstanceTypeProvider create(Catalog base, Ec2Client ec2, PricingClient pricing, Clock clock) {
        return create(base, ec2, pricing, clock, Runnable::run);
    }

    /**
     * @param refresher runs refreshes of data that has expired, while callers keep the last values (production passes
     *                  a background executor; {@code Runnable::run} refreshes in the caller)
     */
    public static LiveInstanceTypeProvider create(Catalog base, Ec2Client ec2, PricingClient pricing, Clock clock,
                                                  java.util.concurrent.Executor refresher) {
        Objects.requireNonNull(base, "base");
        Feeds feeds = new Feeds(
                new Refreshing<>("instance type offerings", () -> Ec2PriceFeeds.zoneOfferings(ec2), clock, OFFERINGS_TTL, RETRY_AFTER,
                        refresher),
                new Refreshing<>("spot prices", () -> Ec2PriceFeeds.spotPrices(ec2, clock), clock, PRICES_TTL, RETRY_AFTER, refresher),
                new Refreshing<>("on-demand prices", () -> OnDemandPrices.fetch(pricing, base.region()), clock, PRICES_TTL,
                        RETRY_AFTER, refresher));
        return new LiveInstanceTypeProvider(base, feeds, InstanceTypeDescriptions.NONE);
    }

    /** Refreshes whatever has expired (prices and offerings on their TTLs), without making the caller wait for it. */
    public void refreshIfStale() {
        feeds.zones().refreshIfStale();
        feeds.spot().refreshIfStale();
        feeds.onDemand().refreshIfStale();
    }

    /** This provider over the catalogue with {@code keys} marked unavailable, sharing the live data. */
    public LiveInstanceTypeProvider withUnavailable(Set<OfferingKey> keys) {
        return new LiveInstanceTypeProvider(base.withUnavailable(keys), feeds, descriptions);
    }

    @Override
    public List<InstanceType> instanceTypes(NodeClass nodeClass) {
        Optional<Map<String, Set<String>>> zones = feeds.zones().get();
        Optional<Map<String, Double>> spot = feeds.spot().get();
        Optional<Map<String, Double>> onDemand = feeds.onDemand().get();
        long generation = feeds.generation();
        Cached hit = cache.get(nodeClass);
        if (hit != null && hit.generation() == generation) {
            return hit.types();
        }
        List<InstanceType> out = new ArrayList<>();
        for (InstanceType t : base.instanceTypes(nodeClass)) {
            out.add(t.withOfferings(offerings(t, zones, spot, onDemand)));
        }
        List<InstanceType> types = List.copyOf(out);
        cache.put(nodeClass, new Cached(generation, types));
        return types;
    }

    private List<Offering> offerings(InstanceType t, Optional<Map<String, Set<String>>> liveZones,
                                     Optional<Map<String, Double>> spot, Optional<Map<String, Double>> onDemand) {
        Map<String, Offering> builtIn = new HashMap<>();
        Map<String, String> zoneIds = new HashMap<>();
        TreeSet<String> zones = new TreeSet<>();
        for (Offering o : t.offerings()) {
            builtIn.put(o.zone() + "/" + o.capacityType(), o);
            zoneIds.put(o.zone(), o.zoneId());
            zones.add(o.zone());
        }
        if (liveZones.isPresent()) {
            zones = new TreeSet<>(liveZones.get().getOrDefault(t.name(), Set.of()));
        }
        Double od = onDemand.map(m -> m.get(t.name())).orElse(null);
        if (od == null) {
            od = t.offerings().stream().filter(o -> o.capacityType().equals(WellKnownLabels.CAPACITY_ON_DEMAND))
                    .map(Offering::pricePerHour).findFirst().orElse(null);
        }
        if (od == null) {
            return List.of(); // never priced: nothing can launch it, as in the catalogue
        }
        List<Offering> out = new ArrayList<>();
        for (String zone : zones) {
            out.add(offering(zone, zoneIds.get(zone), WellKnownLabels.CAPACITY_ON_DEMAND, od, builtIn));
            Double sp = spot.isPresent() ? spot.get().get(t.name() + "/" + zone)
                    : Optional.ofNullable(builtIn.get(zone + "/" + WellKnownLabels.CAPACITY_SPOT))
                            .map(Offering::pricePerHour).orElse(null);
            if (sp != null) {
                out.add(offering(zone, zoneIds.get(zone), WellKnownLabels.CAPACITY_SPOT, sp, builtIn));
            }
        }
        return out;
    }

    private static Offering offering(String zone, String zoneId, String capacityType, double price,
                                     Map<String, Offering> builtIn) {
        Offering known = builtIn.get(zone + "/" + capacityType);
        return new Offering(zone, zoneId, capacityType, price, known == null || known.available());
    }
}
