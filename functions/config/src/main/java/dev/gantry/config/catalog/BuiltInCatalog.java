package dev.gantry.config.catalog;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.DeterministicSpotPriceModel;
import dev.gantry.core.catalog.InstanceTypeSpec;
import dev.gantry.core.catalog.PriceBook;
import dev.gantry.core.catalog.SpotPriceModel;
import dev.gantry.core.catalog.Zone;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The offline catalogue shipped in this module's resources ({@code catalog/instance-types.json} and
 * {@code catalog/prices-on-demand.json}; provenance in {@code catalog/README.md}).
 *
 * <p>The files are parsed once per JVM, on first use, and shared by every {@link Catalog} built from them: the
 * parsed specs and prices are immutable. A Lambda that wants them in its SnapStart snapshot calls {@link #specs()}
 * during initialisation.
 */
public final class BuiltInCatalog {
    static final String SPECS_RESOURCE = "/catalog/instance-types.json";
    static final String PRICES_RESOURCE = "/catalog/prices-on-demand.json";

    private BuiltInCatalog() {
    }

    /** Holder idiom: the JVM parses the files on first access, exactly once, without locking afterwards. */
    private static final class Data {
        static final List<InstanceTypeSpec> SPECS;
        static final List<String> RETIRED;
        static final PriceBook PRICES;

        static {
            try (InputStream s = open(SPECS_RESOURCE); InputStream p = open(PRICES_RESOURCE)) {
                CatalogJson.Specs specs = CatalogJson.readSpecs(s);
                SPECS = List.copyOf(specs.current());
                RETIRED = List.copyOf(specs.retired());
                PRICES = CatalogJson.readPrices(p);
            } catch (IOException e) {
                throw new UncheckedIOException("the built-in instance catalogue could not be read", e);
            }
        }

        private static InputStream open(String resource) throws IOException {
            InputStream in = BuiltInCatalog.class.getResourceAsStream(resource);
            if (in == null) {
                throw new IOException("resource " + resource + " is missing from the classpath");
            }
            return new java.io.BufferedInputStream(in, 1 << 16);
        }
    }

    /**
     * Every current instance type in the data, including the ones without specs that a {@link Catalog} excludes;
     * retired types are left out (see {@link #retiredNames()}).
     */
    public static List<InstanceTypeSpec> specs() {
        return Data.SPECS;
    }

    /** Types in the data that AWS has retired (not on Karpenter v1.14's generated instance-types page), by name. */
    public static List<String> retiredNames() {
        return Data.RETIRED;
    }

    public static PriceBook priceBook() {
        return Data.PRICES;
    }

    /** The catalogue for {@code region} and zone names, with the default deterministic spot model. */
    public static Catalog load(String region, List<String> zones) {
        return load(region, zones, DeterministicSpotPriceModel.withDefaultSeed());
    }

    /** The catalogue for {@code region} and zone names, with spot prices from {@code spotModel}. */
    public static Catalog load(String region, List<String> zones, SpotPriceModel spotModel) {
        return Catalog.of(specs(), priceBook(), spotModel, region, zones.stream().map(Zone::of).toList());
    }

    /** The catalogue for {@code region} in its {@link #defaultZones(String) default zones}. */
    public static Catalog load(String region) {
        return load(region, defaultZones(region));
    }

    /**
     * Zones to assume when nothing names them: for a region in {@link Regions}, three zones every account sees there
     * (ap-northeast-1 has no {@code b} for accounts made since 2013, us-west-1 two zones); for any other region
     * {@code a}, {@code b} and {@code c}, a guess that only a deployed Gantry should rely on, since it replaces them
     * with the zones EC2 offers (the CLI asks for {@code --zones} instead).
     */
    public static List<String> defaultZones(String region) {
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException("region is blank");
        }
        return Regions.of(region).map(Regions.Region::defaultZones)
                .orElseGet(() -> List.of(region + "a", region + "b", region + "c"));
    }
}
