package dev.gantry.aws.ec2;

import dev.gantry.core.model.NodeClass.SelectorTerm;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Subnet;

/**
 * The subnets a NodeClass selects, and for each zone the one to launch into: the one with the most free addresses,
 * skipping subnets that recently answered InsufficientFreeAddressesInSubnet. Describe results are cached for a minute
 * (Karpenter's default TTL), marks last 3 minutes.
 */
public final class SubnetResolver {
    static final Duration TTL = Duration.ofMinutes(1);
    static final Duration FULL_MARK = Duration.ofMinutes(3);

    /** A subnet as the launcher needs it. */
    public record ZonalSubnet(String id, String zone, String zoneId, int availableIps) {}

    private final Ec2Client ec2;
    private final TtlCache<List<SelectorTerm>, List<ZonalSubnet>> cache;
    private final TtlCache<String, Boolean> full;

    public SubnetResolver(Ec2Client ec2, java.time.Clock clock) {
        this.ec2 = ec2;
        this.cache = new TtlCache<>(clock, TTL);
        this.full = new TtlCache<>(clock, FULL_MARK);
    }

    /** Every selected subnet, deduplicated, ordered by id. @throws dev.gantry.core.cloud.CloudException on failure */
    public List<ZonalSubnet> subnets(List<SelectorTerm> terms) {
        return cache.get(List.copyOf(terms), this::describe);
    }

    /** Zone to the subnet to launch into there, zones sorted; subnets marked full are skipped. */
    public Map<String, ZonalSubnet> byZone(List<SelectorTerm> terms) {
        Map<String, ZonalSubnet> best = new TreeMap<>();
        for (ZonalSubnet s : subnets(terms)) {
            if (full.contains(s.id())) {
                continue;
            }
            best.merge(s.zone(), s, (a, b) -> Comparator.comparingInt(ZonalSubnet::availableIps)
                    .thenComparing(ZonalSubnet::id, Comparator.reverseOrder()).compare(a, b) >= 0 ? a : b);
        }
        return best;
    }

    /** Marks a subnet out of addresses, so launches skip it for 3 minutes. */
    public void markFull(String subnetId) {
        full.put(subnetId, Boolean.TRUE);
    }

    private List<ZonalSubnet> describe(List<SelectorTerm> terms) {
        Map<String, ZonalSubnet> found = new LinkedHashMap<>();
        try {
            for (SelectorTerm term : terms) {
                var filters = new java.util.ArrayList<>(SelectorFilters.of(term, "subnet-id", "tag:Name"));
                filters.add(SelectorFilters.filter("state", "available"));
                for (Subnet s : ec2.describeSubnetsPaginator(r -> r.filters(filters)).subnets()) {
                    found.putIfAbsent(s.subnetId(), new ZonalSubnet(s.subnetId(), s.availabilityZone(),
                            s.availabilityZoneId(), s.availableIpAddressCount() == null ? 0 : s.availableIpAddressCount()));
                }
            }
        } catch (SdkException e) {
            throw Ec2Errors.toCloud("DescribeSubnets", e);
        }
        return found.values().stream().sorted(Comparator.comparing(ZonalSubnet::id)).toList();
    }
}
