package dev.gantry.core.status;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What each NodePool's nodes cost per hour now, by capacity type, at the price each claim bills at (the list price of
 * the offering it was launched on, recorded on the claim; never an overlay's scheduling price).
 *
 * <p>Never negative, by construction: it is recomputed from the claims every time, never kept as a running total
 * that launches add to and terminations subtract from. Karpenter's {@code karpenter_nodepools_cost_total} did keep
 * such a total (kubernetes-sigs/karpenter#2938: it went negative on a pool that filled and emptied over and over),
 * and a running total drifts as soon as one subtraction does not match its addition: a removal counted twice, an
 * addition lost, a price that changed between the two. Here every live claim (any state but {@code Terminated})
 * counts once, by name, at a price that is a finite number at least zero; a claim without one counts zero.
 *
 * @param nodePool       the pool
 * @param byCapacityType dollars per hour by capacity-type value ({@code spot}, {@code on-demand}, {@code reserved}...;
 *                       a claim not launched yet is under {@value #UNKNOWN_CAPACITY_TYPE})
 */
public record PoolCost(String nodePool, Map<String, Double> byCapacityType) {
    /** The key of {@code status.resources} that carries a pool's cost, beside cpu and memory. */
    public static final String RESOURCE = "gantry.dev/cost-per-hour";
    static final String UNKNOWN_CAPACITY_TYPE = "unknown";

    public PoolCost {
        byCapacityType = java.util.Collections.unmodifiableMap(new TreeMap<>(byCapacityType));
    }

    /** The pool's dollars per hour: the sum of non-negative parts. */
    public double perHour() {
        return byCapacityType.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Each pool's cost, for every pool that has a claim in {@code claims} (a pool whose claims all ended costs 0). */
    public static Map<String, PoolCost> of(Collection<NodeClaim> claims) {
        Map<String, Map<String, Double>> sums = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (NodeClaim c : claims) {
            Map<String, Double> pool = sums.computeIfAbsent(c.nodePool(), k -> new TreeMap<>());
            if (c.state() == NodeClaimState.Terminated || !seen.add(c.name())) {
                continue;
            }
            String type = c.capacityType() == null ? UNKNOWN_CAPACITY_TYPE : c.capacityType();
            pool.merge(type, billable(c.pricePerHour()), Double::sum);
        }
        Map<String, PoolCost> out = new TreeMap<>();
        sums.forEach((pool, parts) -> out.put(pool, new PoolCost(pool, parts)));
        return out;
    }

    /** The cost of one pool in {@code claims}; zero when it has none. */
    public static PoolCost of(String nodePool, Collection<NodeClaim> claims) {
        return of(claims.stream().filter(c -> c.nodePool().equals(nodePool)).toList())
                .getOrDefault(nodePool, new PoolCost(nodePool, Map.of()));
    }

    /** {@code $/h} as status and the CLI show it: four decimals, a dot, whatever the locale. */
    public static String format(double perHour) {
        return String.format(Locale.ROOT, "%.4f", perHour);
    }

    private static double billable(double price) {
        return Double.isFinite(price) && price > 0 ? price : 0;
    }
}
