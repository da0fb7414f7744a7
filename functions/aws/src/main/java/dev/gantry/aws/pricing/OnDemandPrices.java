package dev.gantry.aws.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.pricing.model.Filter;
import software.amazon.awssdk.services.pricing.model.FilterType;

/**
 * On-demand Linux prices for a region from the Price List API (GetProducts), filtered as Karpenter filters them:
 * shared tenancy, no pre-installed software, capacity status Used, market option OnDemand. The Pricing API lives in
 * a few regions only (us-east-1 for commercial ones): the client passed in must point there, not at the cluster's.
 * Public for {@code gantry plan --live-prices} and {@code --prices FILE}, which read the same documents.
 */
public final class OnDemandPrices {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OnDemandPrices() {}

    /** Instance type to USD (CNY in China) per hour. @throws IllegalStateException when nothing could be read */
    public static Map<String, Double> fetch(PricingClient pricing, String region) {
        List<Filter> filters = new ArrayList<>();
        Map.of("regionCode", region, "serviceCode", "AmazonEC2", "preInstalledSw", "NA", "operatingSystem", "Linux",
                        "capacitystatus", "Used", "marketoption", "OnDemand", "tenancy", "Shared",
                        "productFamily", "Compute Instance")
                .entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> filters.add(Filter.builder()
                        .type(FilterType.TERM_MATCH).field(e.getKey()).value(e.getValue()).build()));
        String currency = region.startsWith("cn-") ? "CNY" : "USD";
        Map<String, Double> out = new TreeMap<>();
        for (String product : pricing.getProductsPaginator(r -> r.serviceCode("AmazonEC2").filters(filters)
                .maxResults(100)).priceList()) {
            parse(product, currency, out);
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("GetProducts returned no on-demand prices for " + region);
        }
        return Map.copyOf(out);
    }

    /** Reads one price list document (a JSON text inside the response) into {@code out}; bad ones are skipped. */
    public static void parse(String product, String currency, Map<String, Double> out) {
        try {
            JsonNode doc = JSON.readTree(product);
            String type = doc.path("product").path("attributes").path("instanceType").asText("");
            if (type.isEmpty()) {
                return;
            }
            for (JsonNode term : doc.path("terms").path("OnDemand")) {
                for (JsonNode dim : term.path("priceDimensions")) {
                    double price = Double.parseDouble(dim.path("pricePerUnit").path(currency).asText("0"));
                    if (price > 0) {
                        out.put(type, price);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // One unreadable product must not cost the region its prices; the built-in price covers the type.
        }
    }
}
