package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.MinValues;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Karpenter's rule for a replacement: keep only the instance-type options whose worst launch price (the most expensive
 * compatible offering of the capacity type that would launch: reserved, else spot, else on-demand) is strictly below
 * the price of the nodes it replaces. A replacement that may be spot or on-demand is pinned to spot, since the
 * filter assumed spot. The options left must still satisfy the pool's {@code minValues} (Karpenter's
 * {@code RemoveInstanceTypeOptionsByPriceAndMinValues}): a replacement with fewer alternatives than the pool requires
 * is no replacement. Spot-to-spot needs the feature gate and, for one node, at least 15 cheaper types; the 15
 * cheapest are offered (so the launched one is never immediately replaceable again), or as many as minValues needs
 * when that is more. Gantry's own exception: without the gate, spot nodes may be replaced by an on-demand node that
 * costs less than they do.
 */
final class PriceRule {
    static final int MIN_SPOT_TO_SPOT_TYPES = 15;

    private PriceRule() {
    }

    /** A filtered replacement, or the reason there is none. */
    record Filtered(NodeClaimPlan plan, String failure) {
    }

    /**
     * Applies the rule to the one replacement of {@code candidates} (m-to-1).
     *
     * @param sameTypeRule   multi-node's extra rule: no option may cost what a removed node of the same type costs
     * @param spotToOnDemand Gantry's rounds: spot nodes that spot-to-spot may not replace are replaced by an on-demand
     *                       node when one costs less than they do (pinned to on-demand); Karpenter keeps them
     */
    static Filtered single(NodeClaimPlan plan, List<Candidate> candidates, boolean spotToSpot, boolean sameTypeRule,
                           boolean spotToOnDemand) {
        double price = candidates.stream().mapToDouble(Candidate::price).sum();
        boolean allSpot = candidates.stream().allMatch(Candidate::spot);
        Requirements reqs = plan.requirements();
        List<InstanceType> options = byPrice(plan.instanceTypeOptions(), reqs);
        ValueSet ct = reqs.get(WellKnownLabels.CAPACITY_TYPE);
        if (allSpot && ct.has("spot") && !spotToSpot && spotToOnDemand && ct.has("on-demand")) {
            reqs = reqs.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("on-demand"));
            Requirements onDemand = reqs;
            options = cheaperThan(options.stream().filter(t -> t.cheapestOffering(onDemand) != null).toList(), reqs, price);
            if (options.isEmpty()) {
                return new Filtered(null, "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node, "
                        + "and no on-demand node is cheaper");
            }
            String unmet = minValuesUnmet(options, reqs);
            if (unmet != null) {
                return new Filtered(null, unmet);
            }
        } else if (allSpot && ct.has("spot")) {
            if (!spotToSpot) {
                return new Filtered(null, "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
            }
            reqs = reqs.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot"));
            Requirements spotReqs = reqs;
            options = options.stream().filter(t -> t.cheapestOffering(spotReqs) != null).toList();
            options = cheaperThan(options, reqs, price);
            if (options.isEmpty()) {
                return new Filtered(null, "Can't replace with a cheaper node");
            }
            String unmet = minValuesUnmet(options, reqs);
            if (unmet != null) {
                return new Filtered(null, unmet);
            }
            if (candidates.size() == 1) {
                if (options.size() < MIN_SPOT_TO_SPOT_TYPES) {
                    return new Filtered(null, "SpotToSpotConsolidation requires " + MIN_SPOT_TO_SPOT_TYPES
                            + " cheaper instance type options than the current candidate to consolidate, got " + options.size());
                }
                options = options.subList(0, Math.max(MIN_SPOT_TO_SPOT_TYPES, MinValues.needed(options, reqs)));
            }
        } else {
            options = cheaperThan(options, reqs, price);
            if (options.isEmpty()) {
                return new Filtered(null, "Can't replace with a cheaper node");
            }
            String unmet = minValuesUnmet(options, reqs);
            if (unmet != null) {
                return new Filtered(null, unmet);
            }
            if (ct.has("spot") && ct.has("on-demand")) {
                Requirements spotReqs = reqs.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot"));
                List<InstanceType> spotOptions = options.stream().filter(t -> t.cheapestOffering(spotReqs) != null).toList();
                if (!spotOptions.isEmpty()) { // priced as spot above: pin, so a spot shortage cannot launch on-demand
                    reqs = spotReqs;
                    options = spotOptions;
                }
            }
        }
        if (sameTypeRule) {
            double max = Double.MAX_VALUE;
            for (InstanceType t : options) {
                for (Candidate c : candidates) {
                    if (c.type().name().equals(t.name())) {
                        max = Math.min(max, cheapestOf(c.type(), Requirements.fromLabels(c.cluster().node().labels())));
                    }
                }
            }
            options = cheaperThan(options, reqs, max);
            if (options.isEmpty()) {
                return new Filtered(null, "Can't replace with a cheaper node (the candidates' own instance types)");
            }
            String unmet = minValuesUnmet(options, reqs);
            if (unmet != null) {
                return new Filtered(null, unmet);
            }
        }
        return new Filtered(rebuilt(plan, reqs, options), null);
    }

    /**
     * Gantry's m-to-n rule: every replacement is pinned as above (spot nodes that spot-to-spot may not replace, to
     * on-demand), each keeps the options under what the removed nodes cost minus the other replacements' cheapest worst
     * price, and the worst prices summed stay strictly below.
     */
    static List<NodeClaimPlan> many(List<NodeClaimPlan> plans, List<Candidate> candidates, boolean spotToSpot) {
        double price = candidates.stream().mapToDouble(Candidate::price).sum();
        boolean allSpot = candidates.stream().allMatch(Candidate::spot);
        List<Requirements> reqs = new ArrayList<>();
        double[] worst = new double[plans.size()];
        double sum = 0;
        for (int i = 0; i < plans.size(); i++) {
            Requirements r = plans.get(i).requirements();
            ValueSet ct = r.get(WellKnownLabels.CAPACITY_TYPE);
            Requirements spotReqs = r.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("spot"));
            if (ct.has("spot") && plans.get(i).instanceTypeOptions().stream().anyMatch(t -> t.cheapestOffering(spotReqs) != null)) {
                if (allSpot && !spotToSpot && !ct.has("on-demand")) {
                    return null;
                }
                r = allSpot && !spotToSpot ? r.with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in("on-demand")) : spotReqs;
            }
            reqs.add(r);
            worst[i] = Double.MAX_VALUE;
            for (InstanceType t : plans.get(i).instanceTypeOptions()) {
                worst[i] = Math.min(worst[i], worstLaunchPrice(t, r));
            }
            sum += worst[i];
        }
        if (!(sum < price)) {
            return null;
        }
        List<NodeClaimPlan> out = new ArrayList<>();
        for (int i = 0; i < plans.size(); i++) {
            Requirements r = reqs.get(i);
            List<InstanceType> options = cheaperThan(byPrice(plans.get(i).instanceTypeOptions(), r), r, price - (sum - worst[i]))
                    .stream().filter(t -> t.cheapestOffering(r) != null).toList();
            if (options.isEmpty() || minValuesUnmet(options, r) != null) {
                return null;
            }
            out.add(rebuilt(plans.get(i), reqs.get(i), options));
        }
        return out;
    }

    /** Why {@code options} fall short of the minValues of {@code reqs} (Karpenter's words), or null when they do not. */
    private static String minValuesUnmet(List<InstanceType> options, Requirements reqs) {
        return MinValues.needed(options, reqs) < 0
                ? "Filtering by price: minValues requirement is not met for label(s) " + MinValues.unmet(options, reqs) : null;
    }

    /** Karpenter's WorstLaunchPrice: the dearest compatible offering of the first capacity type that has one. */
    static double worstLaunchPrice(InstanceType t, Requirements reqs) {
        for (String ct : List.of("reserved", "spot", "on-demand")) {
            if (!reqs.get(WellKnownLabels.CAPACITY_TYPE).has(ct)) {
                continue;
            }
            double worst = -1;
            for (Offering o : t.offerings()) {
                if (o.available() && o.capacityType().equals(ct) && reqs.get(WellKnownLabels.ZONE).has(o.zone())) {
                    worst = Math.max(worst, o.pricePerHour());
                }
            }
            if (worst >= 0) {
                return worst;
            }
        }
        return Double.MAX_VALUE;
    }

    static double expectedPrice(NodeClaimPlan plan) {
        return plan.offering().pricePerHour();
    }

    private static List<InstanceType> cheaperThan(List<InstanceType> options, Requirements reqs, double price) {
        return options.stream().filter(t -> worstLaunchPrice(t, reqs) < price).toList();
    }

    private static List<InstanceType> byPrice(List<InstanceType> options, Requirements reqs) {
        List<InstanceType> sorted = new ArrayList<>(options);
        sorted.sort(Comparator.comparingDouble((InstanceType t) -> cheapestOf(t, reqs)).thenComparing(InstanceType::name));
        return sorted;
    }

    private static double cheapestOf(InstanceType t, Requirements reqs) {
        Offering o = t.cheapestOffering(reqs);
        return o == null ? Double.MAX_VALUE : o.pricePerHour();
    }

    /** {@code plan} with {@code options} (not empty), launched at the cheapest offering among them. */
    static NodeClaimPlan rebuilt(NodeClaimPlan plan, Requirements reqs, List<InstanceType> options) {
        InstanceType chosen = options.get(0);
        Offering offering = chosen.cheapestOffering(reqs);
        for (InstanceType t : options) {
            Offering o = t.cheapestOffering(reqs);
            if (o != null && (offering == null || o.pricePerHour() < offering.pricePerHour())) {
                chosen = t;
                offering = o;
            }
        }
        return new NodeClaimPlan(plan.name(), plan.nodePool(), reqs, options, chosen, offering, plan.pods(), plan.requests());
    }
}
