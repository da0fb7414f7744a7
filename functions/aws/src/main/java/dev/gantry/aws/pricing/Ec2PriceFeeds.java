package dev.gantry.aws.pricing;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.InstanceTypeOffering;
import software.amazon.awssdk.services.ec2.model.LocationType;
import software.amazon.awssdk.services.ec2.model.SpotPrice;

/** The two EC2 reads behind live offerings: which types exist in which zones, and the latest spot prices. */
final class Ec2PriceFeeds {
    private Ec2PriceFeeds() {}

    /** Instance type to the zones it is offered in (DescribeInstanceTypeOfferings by availability zone). */
    static Map<String, Set<String>> zoneOfferings(Ec2Client ec2) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (InstanceTypeOffering o : ec2.describeInstanceTypeOfferingsPaginator(
                r -> r.locationType(LocationType.AVAILABILITY_ZONE)).instanceTypeOfferings()) {
            out.computeIfAbsent(o.instanceTypeAsString(), k -> new TreeSet<>()).add(o.location());
        }
        return out;
    }

    /**
     * "type/zone" to the latest Linux spot price. A start time of now makes EC2 return each pair's price in force now
     * (its latest change), as Karpenter asks.
     */
    static Map<String, Double> spotPrices(Ec2Client ec2, Clock clock) {
        Map<String, Double> prices = new HashMap<>();
        Map<String, Instant> stamps = new HashMap<>();
        for (SpotPrice p : ec2.describeSpotPriceHistoryPaginator(r -> r.startTime(clock.instant())
                .productDescriptions("Linux/UNIX", "Linux/UNIX (Amazon VPC)").maxResults(1000)).spotPriceHistory()) {
            String key = p.instanceTypeAsString() + "/" + p.availabilityZone();
            Instant at = p.timestamp() == null ? Instant.EPOCH : p.timestamp();
            try {
                double price = Double.parseDouble(p.spotPrice());
                if (!stamps.containsKey(key) || at.isAfter(stamps.get(key))) {
                    prices.put(key, price);
                    stamps.put(key, at);
                }
            } catch (NumberFormatException | NullPointerException e) {
                // A malformed record is skipped, as Karpenter does: the others still price the catalogue.
            }
        }
        if (prices.isEmpty()) {
            throw new IllegalStateException("DescribeSpotPriceHistory returned no prices");
        }
        return Map.copyOf(prices);
    }
}
