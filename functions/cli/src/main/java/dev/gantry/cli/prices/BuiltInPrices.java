package dev.gantry.cli.prices;

import dev.gantry.config.catalog.BuiltInCatalog;
import dev.gantry.core.catalog.PriceBook;
import java.util.HashMap;
import java.util.Map;

/** The built-in catalogue's prices (us-east-1, GovCloud, cn-north-1), and the merge other sources lay over them. */
final class BuiltInPrices implements PriceSource {
    static final BuiltInPrices INSTANCE = new BuiltInPrices();

    private BuiltInPrices() {
    }

    @Override
    public PriceBook bookFor(String region) {
        return BuiltInCatalog.priceBook();
    }

    @Override
    public String name() {
        return "built-in";
    }

    /** The built-in book with {@code region}'s prices replaced by {@code prices} (in {@code currency}). */
    static PriceBook with(String region, Map<String, Double> prices, String currency) {
        PriceBook base = BuiltInCatalog.priceBook();
        Map<String, Map<String, Double>> regions = new HashMap<>();
        Map<String, String> currencies = new HashMap<>();
        for (String r : base.regions()) {
            regions.put(r, base.forRegion(r).prices());
            currencies.put(r, base.currency(r));
        }
        regions.put(region, prices);
        currencies.put(region, currency);
        return PriceBook.of(regions, currencies);
    }
}
