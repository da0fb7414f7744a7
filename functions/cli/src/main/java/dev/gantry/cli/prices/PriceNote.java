package dev.gantry.cli.prices;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where one region's prices came from.
 *
 * @param region      the region planned
 * @param pricedFrom  the region whose prices were used: {@code region} itself, or us-east-1 when borrowed
 * @param source      where prices were asked for: {@code built-in}, {@code file PATH} or {@code Pricing API}
 * @param currency    the prices' currency
 */
public record PriceNote(String region, String pricedFrom, String source, String currency) {
    /** Whether another region's prices stood in for this one's. */
    public boolean borrowed() {
        return !pricedFrom.equals(region);
    }

    /** One line for the table output: always said when prices are borrowed, else where they came from. */
    public String line() {
        if (borrowed()) {
            return "prices: WARNING: no " + region + " prices in " + (source.equals("built-in") ? "the built-in catalogue"
                    : source) + "; priced with " + pricedFrom + "'s built-in on-demand prices, which differ by region "
                    + "(give --prices FILE or --live-prices for " + region + "'s own)";
        }
        return "prices: " + region + " on-demand from " + source + " (" + currency + "); spot modelled from on-demand";
    }

    /** The JSON form. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("region", region);
        m.put("pricedFrom", pricedFrom);
        m.put("source", source);
        m.put("currency", currency);
        m.put("approximate", borrowed());
        m.put("spot", "modelled from on-demand");
        return m;
    }
}
