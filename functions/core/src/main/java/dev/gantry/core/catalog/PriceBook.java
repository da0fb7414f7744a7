package dev.gantry.core.catalog;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Static on-demand prices per instance-hour, by region and instance type, as Karpenter ships them for when the
 * Pricing API is unreachable. Prices are in the region's currency ({@link #currency(String)}: USD, or CNY in China).
 *
 * <p>A region the book lacks is priced from {@link #FALLBACK_REGION}: prices there are a rough guide to relative cost,
 * which is all the scheduler needs to rank offerings, and {@link #forRegion(String)} says so in a warning.
 */
public final class PriceBook {
    public static final String FALLBACK_REGION = "us-east-1";

    private final Map<String, Map<String, Double>> byRegion;
    private final Map<String, String> currencies;

    private PriceBook(Map<String, Map<String, Double>> byRegion, Map<String, String> currencies) {
        this.byRegion = byRegion;
        this.currencies = currencies;
    }

    /**
     * A book from region → instance type → price, with each region's currency (USD when unnamed).
     *
     * @throws IllegalArgumentException for a negative or non-finite price
     */
    public static PriceBook of(Map<String, Map<String, Double>> byRegion, Map<String, String> currencies) {
        Map<String, Map<String, Double>> copy = new TreeMap<>();
        byRegion.forEach((region, prices) -> {
            prices.forEach((type, price) -> {
                if (price == null || price < 0 || !Double.isFinite(price)) {
                    throw new IllegalArgumentException(region + "/" + type + ": price must be a non-negative number, got " + price);
                }
            });
            copy.put(region, Map.copyOf(prices));
        });
        return new PriceBook(Map.copyOf(copy), Map.copyOf(currencies));
    }

    public static PriceBook of(Map<String, Map<String, Double>> byRegion) {
        return of(byRegion, Map.of());
    }

    /** The prices that apply in {@code region}: its own, or the fallback region's with a warning. */
    public RegionPrices forRegion(String region) {
        Objects.requireNonNull(region, "region");
        Map<String, Double> own = byRegion.get(region);
        if (own != null) {
            return new RegionPrices(region, region, own, currency(region), Optional.empty());
        }
        Map<String, Double> fallback = byRegion.getOrDefault(FALLBACK_REGION, Map.of());
        String warning = "no on-demand prices for region " + region + " in the built-in catalogue; using "
                + FALLBACK_REGION + " prices (" + fallback.size() + " types) as an approximation";
        return new RegionPrices(region, FALLBACK_REGION, fallback, currency(FALLBACK_REGION), Optional.of(warning));
    }

    /** The on-demand price of a type in a region (after fallback), if the book has one. */
    public OptionalDouble onDemand(String region, String instanceType) {
        return forRegion(region).price(instanceType);
    }

    public String currency(String region) {
        return currencies.getOrDefault(region, "USD");
    }

    public java.util.Set<String> regions() {
        return byRegion.keySet();
    }

    /**
     * The prices in force for one region.
     *
     * @param sourceRegion the region whose prices these are ({@code region} itself unless it fell back)
     * @param warning      present when the prices are borrowed from another region
     */
    public record RegionPrices(String region, String sourceRegion, Map<String, Double> prices, String currency,
                               Optional<String> warning) {
        public OptionalDouble price(String instanceType) {
            Double p = prices.get(instanceType);
            return p == null ? OptionalDouble.empty() : OptionalDouble.of(p);
        }
    }
}
