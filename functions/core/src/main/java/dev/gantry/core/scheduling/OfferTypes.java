package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.requirements.Requirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which of one {@link SchedulingInput.PoolOffer}'s instance types a requirement set admits, worked out once for every
 * solve over that offer. Consolidation solves once per candidate set over the same offers, and each solve had filtered
 * the whole catalogue through the pool's requirements again: nearly half of a simulated day's CPU went to those filters.
 *
 * <p>Each answer is a function of the offer (immutable) and the requirements alone, so sharing it changes no plan.
 * Safe for concurrent solves (consolidation simulates candidates in parallel). Lives as long as its offer: one
 * provisioning run or one sweep's decision.
 */
final class OfferTypes {
    /**
     * Requirement sets kept per kind: a sweep's solves share a few hundred; past this many (some 13 MB of lists on a
     * full catalogue) an answer is worked out and not kept, as each solve did before the memo.
     */
    static final int KEPT = 4096;
    private final SchedulingInput.PoolOffer offer;
    private volatile List<InstanceType> pool;
    private final Map<Requirements, List<InstanceType>> launchable = new ConcurrentHashMap<>();
    private final Map<Requirements, List<InstanceType>> compatible = new ConcurrentHashMap<>();

    OfferTypes(SchedulingInput.PoolOffer offer) {
        this.offer = offer;
    }

    /** The offer's types the pool's requirements admit with an allowed offering, cheapest first (ties by name). */
    List<InstanceType> pool() {
        List<InstanceType> p = pool;
        if (p == null) {
            pool = p = launchable(offer.instanceTypes(), offer.requirements());
        }
        return p;
    }

    /** Of {@link #pool()}, those {@code reqs} admits with an offering it allows, cheapest under {@code reqs} first. */
    List<InstanceType> launchable(Requirements reqs) {
        return kept(launchable, reqs, r -> launchable(pool(), r));
    }

    /** Of {@link #pool()}, those compatible with {@code reqs}, in the pool's order (whether or not an offering is allowed). */
    List<InstanceType> compatible(Requirements reqs) {
        return kept(compatible, reqs, r -> pool().stream().filter(t -> r.compatible(t.requirements())).toList());
    }

    private static List<InstanceType> kept(Map<Requirements, List<InstanceType>> memo, Requirements reqs,
                                           Function<Requirements, List<InstanceType>> work) {
        List<InstanceType> known = memo.get(reqs);
        if (known != null) {
            return known;
        }
        return memo.size() < KEPT ? memo.computeIfAbsent(reqs, work) : work.apply(reqs);
    }

    private static List<InstanceType> launchable(List<InstanceType> from, Requirements reqs) {
        List<InstanceType> out = new ArrayList<>();
        for (InstanceType t : from) {
            if (reqs.compatible(t.requirements()) && t.cheapestOffering(reqs) != null) {
                out.add(t);
            }
        }
        Claim.sortByPrice(out, reqs);
        return List.copyOf(out);
    }
}
