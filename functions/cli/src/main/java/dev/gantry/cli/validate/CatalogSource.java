package dev.gantry.cli.validate;

import dev.gantry.cli.errors.CliFailure;
import dev.gantry.cli.prices.PriceNote;
import dev.gantry.cli.prices.PriceSource;
import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.config.catalog.Regions;
import dev.gantry.config.validate.ZoneCheck;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.DeterministicSpotPriceModel;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.PriceBook;
import dev.gantry.core.catalog.Zone;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Chooses the catalogue for each NodePool, and checks the region and zones it is built for. Without {@code --region},
 * a pool whose zone requirement names zones of one region is planned in that region and those zones (seed 002's pool
 * is pinned to ap-northeast-2), else in us-east-1.
 *
 * <p>Regions and zones come from {@link Regions}: {@code --region mars-west-1} or {@code --zones x} is refused; a
 * region shaped like AWS's that the catalogue does not list is a warning, and its zones must be named ({@code --zones}
 * with full names, or the pool's zone requirement), since the catalogue never invents a zone. Prices come from the
 * {@link PriceSource}; a region it has no prices for is priced from us-east-1, and {@link #prices()} says so for every
 * catalogue built. Catalogues are built once per region and zone list.
 */
public final class CatalogSource {
    static final String DEFAULT_REGION = "us-east-1";

    private final String region;
    private final List<String> zoneArgs;
    private final PriceSource priceSource;
    private final Map<String, Catalog> cache = new LinkedHashMap<>();
    private final Map<String, PriceNote> notes = new LinkedHashMap<>();

    /** Built-in prices. {@code region} null to infer it per pool; {@code zoneArgs} letters or full names, null for defaults. */
    public CatalogSource(String region, List<String> zoneArgs) {
        this(region, zoneArgs, PriceSource.builtIn());
    }

    public CatalogSource(String region, List<String> zoneArgs, PriceSource prices) {
        this.region = region;
        this.zoneArgs = zoneArgs == null || zoneArgs.isEmpty() ? null : zoneArgs;
        this.priceSource = prices;
    }

    /** The region named with {@code --region}, or null. */
    public String region() {
        return region;
    }

    /**
     * Checks {@code --region} and {@code --zones}: a warning through {@code warn} for a plausible region the catalogue
     * does not know. @throws CliFailure for a region that is not AWS's, or a zone the region does not have
     */
    public CatalogSource check(Consumer<String> warn) {
        if (region != null) {
            Regions.RegionCheck rc = Regions.problemWithRegion(region);
            if (!rc.ok() && !rc.warning()) {
                throw new CliFailure("--region: " + rc.message());
            }
            if (rc.warning()) {
                warn.accept("warning: " + rc.message());
            }
        }
        if (zoneArgs != null) {
            String r = region;
            if (r == null) {
                TreeSet<String> regions = new TreeSet<>();
                zoneArgs.stream().filter(z -> z.trim().length() > 2).forEach(z -> regions.add(Regions.regionOfZone(z.trim())));
                r = regions.size() == 1 ? regions.first() : DEFAULT_REGION;
            }
            List<String> problems = new ArrayList<>();
            String known = null;
            for (String z : zones(r, zoneArgs)) {
                String p = ZoneCheck.problem(r, z);
                if (p != null) {
                    int paren = p.indexOf(" (its zones: ");
                    known = paren < 0 ? known : p.substring(paren);
                    problems.add(paren < 0 ? p : p.substring(0, paren));
                }
            }
            if (!problems.isEmpty()) {
                throw new CliFailure("--zones: " + String.join("; ", problems) + (known == null ? "" : known));
            }
        }
        return this;
    }

    /** The catalogue for a pool: the explicit region, else the one its zone requirement implies. */
    public InstanceTypeProvider forPool(NodePool pool) {
        String r = region;
        List<String> zones = null;
        if (r == null) {
            ValueSet z = pool.requirements().get(WellKnownLabels.ZONE);
            TreeSet<String> regions = new TreeSet<>();
            if (!z.complement()) {
                z.values().forEach(v -> regions.add(Regions.regionOfZone(v)));
            }
            r = regions.size() == 1 ? regions.first() : DEFAULT_REGION;
            if (regions.size() == 1 && zoneArgs == null) {
                zones = List.copyOf(z.values());
            }
        }
        String chosen = r;
        List<String> zs = zones != null ? zones : zones(r, zoneArgs);
        return cache.computeIfAbsent(chosen + " " + zs, k -> build(chosen, zs));
    }

    private Catalog build(String r, List<String> zones) {
        PriceBook book = priceSource.bookFor(r);
        Catalog c = Catalog.of(BuiltInCatalog.specs(), book, DeterministicSpotPriceModel.withDefaultSeed(), r,
                zones.stream().map(Zone::of).toList());
        PriceBook.RegionPrices p = book.forRegion(r);
        notes.putIfAbsent(r, new PriceNote(r, p.sourceRegion(), priceSource.name(), p.currency()));
        return c;
    }

    /** Where each catalogue built so far took its prices, by region, in the order they were built. */
    public List<PriceNote> prices() {
        return List.copyOf(notes.values());
    }

    /**
     * Zones for a region: letters become names ({@code a} → {@code us-east-1a}), full names pass through, and none
     * given means the region's default zones. @throws CliFailure for a region whose zones the catalogue does not know
     * when none are given
     */
    static List<String> zones(String region, List<String> args) {
        if (args == null || args.isEmpty()) {
            return Regions.of(region).map(Regions.Region::defaultZones).orElseThrow(() -> new CliFailure("region " + region
                    + " is not in the built-in catalogue, which does not know its zones: name them with --zones (full names, "
                    + "as " + region + "a) or in the NodePool's topology.kubernetes.io/zone requirement"));
        }
        List<String> out = new ArrayList<>();
        for (String z : args) {
            String t = z.trim();
            out.add(t.length() <= 2 ? region + t : t);
        }
        return out;
    }
}
