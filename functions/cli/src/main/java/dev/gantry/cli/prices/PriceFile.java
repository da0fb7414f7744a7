package dev.gantry.cli.prices;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.aws.pricing.OnDemandPrices;
import dev.gantry.cli.errors.CliFailure;
import dev.gantry.core.catalog.PriceBook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * On-demand prices from a file ({@code --prices FILE}), in either of two shapes, told apart by their top-level field:
 * <ul>
 *   <li>Gantry's, the shape of the built-in {@code prices-on-demand.json}: {@code {"regions": {"eu-west-1":
 *       {"m5.large": 0.107, ...}}, "currency": {"eu-west-1": "USD"}}} (currency optional, USD by default);</li>
 *   <li>what {@code aws pricing get-products --service-code AmazonEC2 --region us-east-1 --filters ...} prints:
 *       {@code {"FormatVersion": "aws_v1", "PriceList": ["{...product...}", ...]}}. Products are kept as the Pricing API
 *       query of the handlers keeps them (Linux, shared tenancy, no pre-installed software, capacity status Used; a
 *       product without one of these attributes is kept) and grouped by their {@code regionCode}; each product's price is
 *       read by the handlers' own parser, {@link OnDemandPrices#parse}.</li>
 * </ul>
 * A region the file names replaces the built-in prices of that region; other regions keep theirs.
 */
public final class PriceFile implements PriceSource {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> KEPT = Map.of("operatingSystem", "Linux", "tenancy", "Shared",
            "preInstalledSw", "NA", "capacitystatus", "Used");

    private final Path path;
    private final Map<String, Map<String, Double>> regions;
    private final Map<String, String> currencies;

    private PriceFile(Path path, Map<String, Map<String, Double>> regions, Map<String, String> currencies) {
        this.path = path;
        this.regions = regions;
        this.currencies = currencies;
    }

    /** Reads the file. @throws CliFailure when it cannot be read or has neither shape */
    public static PriceFile read(Path path) {
        JsonNode doc;
        try {
            doc = JSON.readTree(Files.readString(path));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new CliFailure("--prices " + path + ": no such file");
        } catch (IOException e) {
            throw new CliFailure("--prices " + path + ": not JSON: " + firstLine(e.getMessage()));
        }
        Map<String, Map<String, Double>> regions = new TreeMap<>();
        Map<String, String> currencies = new TreeMap<>();
        if (doc != null && doc.has("PriceList")) {
            readPriceList(path, doc.get("PriceList"), regions, currencies);
        } else if (doc != null && doc.has("regions")) {
            readRegions(path, doc, regions, currencies);
        } else {
            throw new CliFailure("--prices " + path + ": expected {\"regions\": {region: {instanceType: price}}} or the "
                    + "output of `aws pricing get-products` ({\"PriceList\": [...]})");
        }
        if (regions.isEmpty() || regions.values().stream().allMatch(Map::isEmpty)) {
            throw new CliFailure("--prices " + path + ": no on-demand Linux prices in the file");
        }
        return new PriceFile(path, regions, currencies);
    }

    private static void readRegions(Path path, JsonNode doc, Map<String, Map<String, Double>> regions,
                                    Map<String, String> currencies) {
        doc.get("regions").properties().forEach(r -> {
            Map<String, Double> prices = new TreeMap<>();
            r.getValue().properties().forEach(t -> {
                if (!t.getValue().isNumber() || t.getValue().asDouble() < 0) {
                    throw new CliFailure("--prices " + path + ": regions." + r.getKey() + "." + t.getKey()
                            + ": a price is a non-negative number per instance-hour, not " + t.getValue());
                }
                prices.put(t.getKey(), t.getValue().asDouble());
            });
            regions.put(r.getKey(), prices);
            JsonNode c = doc.path("currency").get(r.getKey());
            currencies.put(r.getKey(), c == null ? "USD" : c.asText());
        });
    }

    private static void readPriceList(Path path, JsonNode list, Map<String, Map<String, Double>> regions,
                                      Map<String, String> currencies) {
        for (JsonNode item : list) {
            String text = item.isTextual() ? item.asText() : item.toString();
            JsonNode product;
            try {
                product = JSON.readTree(text);
            } catch (IOException e) {
                continue; // as the live reader does: one bad product does not cost the others
            }
            JsonNode attrs = product.path("product").path("attributes");
            String region = attrs.path("regionCode").asText("");
            if (region.isEmpty() || !kept(attrs)) {
                continue;
            }
            String currency = region.startsWith("cn-") ? "CNY" : "USD";
            OnDemandPrices.parse(text, currency, regions.computeIfAbsent(region, k -> new TreeMap<>()));
            currencies.put(region, currency);
        }
    }

    private static boolean kept(JsonNode attrs) {
        for (var e : KEPT.entrySet()) {
            JsonNode v = attrs.get(e.getKey());
            if (v != null && !v.asText().equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public PriceBook bookFor(String region) {
        Map<String, Double> own = regions.get(region);
        return own == null ? BuiltInPrices.INSTANCE.bookFor(region) : BuiltInPrices.with(region, own, currencies.get(region));
    }

    @Override
    public String name() {
        return "file " + path;
    }

    /** The regions the file prices. */
    public java.util.Set<String> regions() {
        return regions.keySet();
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
