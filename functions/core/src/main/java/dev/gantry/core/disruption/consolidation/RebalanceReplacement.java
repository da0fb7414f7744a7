package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.Rebalance;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rebalance method, decided (Gantry's own; Karpenter only records an Event, aws/karpenter-provider-aws#2813): at
 * most one command, replacing one spot node that received a rebalance recommendation in a pool that opted in
 * ({@link Rebalance}). As drift's ({@link DriftReplacement}), through the same command machinery: candidates follow
 * consolidation's rules ({@code Candidates}; static pools are left to their own count), empty nodes first, each within
 * its NodePool's budgets that apply to every reason (a rebalance is none of Karpenter's reasons), and the pods must all
 * fit, on the other nodes or on new claims the scheduler plans. Pure.
 *
 * <p>Where the replacement goes. A recommendation says EC2's spot capacity in that pool is at risk, and in a storm
 * the pools beside it (other types in the same zone) are hit next, so the replacement is placed in this order:
 * <ol>
 *   <li>spot outside every zone that has a recommended spot node, when that is the cheapest way to hold the pods
 *       there (cheaper than on-demand there): the claim's requirements exclude those zones, so the launch cannot drift
 *       back into them;</li>
 *   <li>else spot in any zone but on none of the offerings under recommendation (every recommended node's type in its
 *       zone), when that is cheaper than on-demand;</li>
 *   <li>else on-demand where the pool allows it (the scheduler picks the cheapest offering left).</li>
 * </ol>
 */
public final class RebalanceReplacement {
    private RebalanceReplacement() {
    }

    /** @param recommended the recommended claims' names, in the order to try them */
    public static ConsolidationDecision decide(ConsolidationInput in, List<String> recommended) {
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Map<String, Integer> budget = Consolidation.budgets(in, pools, null);
        List<Verdict> verdicts = new ArrayList<>();
        List<Candidate> ordered = new ArrayList<>();
        List<Candidate> busy = new ArrayList<>();
        for (int i = 0; i < in.nodes().size(); i++) {
            ClusterNode n = in.nodes().get(i);
            if (!n.managed() || !recommended.contains(n.claim()) || (in.only() != null && !in.only().contains(n.name()))) {
                continue;
            }
            PoolOffer offer = pools.get(n.node().labels().get(WellKnownLabels.NODEPOOL));
            String why = Candidates.blocked(n, pools, in.pdbs(), in.now());
            if (why == null && !Rebalance.optedIn(offer.pool().annotations())) {
                why = "NodePool \"" + offer.pool().name() + "\" does not opt into rebalance (" + Rebalance.ANNOTATION + ")";
            } else if (why == null && offer.pool().isStatic()) {
                why = "NodePool \"" + offer.pool().name() + "\" is static: its count is kept by its own step";
            }
            if (why != null) {
                verdicts.add(Verdict.blocked(n.name(), "rebalance recommended, but " + why));
                continue;
            }
            List<Pod> reschedulable = n.pods().stream().filter(EvictionCost::reschedulable).toList();
            String typeName = n.node().labels().get(WellKnownLabels.INSTANCE_TYPE);
            InstanceType type = offer.instanceTypes().stream().filter(t -> t.name().equals(typeName)).findFirst().orElse(null);
            String ct = n.node().labels().get(WellKnownLabels.CAPACITY_TYPE);
            String zone = n.node().labels().get(WellKnownLabels.ZONE);
            double price = type == null || ct == null || zone == null ? 0 : Candidates.price(type, zone, ct);
            Candidate c = new Candidate(n, offer.pool(), type, ct, price, reschedulable, EvictionCost.reschedule(reschedulable), i);
            (c.isEmpty() ? ordered : busy).add(c);
        }
        ordered.addAll(busy);
        Optional<ConsolidationCommand> command = Optional.empty();
        int runs = 0;
        for (Candidate c : ordered) {
            if (command.isPresent()) {
                verdicts.add(Verdict.unconsolidatable(c.name(), Consolidation.WAITS + "rebalance replaces one node at a time"));
                continue;
            }
            if (budget.getOrDefault(c.pool().name(), 0) <= 0) {
                verdicts.add(Verdict.blocked(c.name(), "NodePool \"" + c.pool().name()
                        + "\"'s disruption budget allows no more disruptions now"));
                continue;
            }
            Set<String> riskyZones = new TreeSet<>();
            Set<String> underRecommendation = new HashSet<>();
            for (ClusterNode n : in.nodes()) {
                Map<String, String> l = n.node().labels();
                if (Rebalance.recommended(n.node()) && WellKnownLabels.CAPACITY_SPOT.equals(l.get(WellKnownLabels.CAPACITY_TYPE))
                        && l.get(WellKnownLabels.ZONE) != null) {
                    riskyZones.add(l.get(WellKnownLabels.ZONE));
                    underRecommendation.add(l.get(WellKnownLabels.INSTANCE_TYPE) + "@" + l.get(WellKnownLabels.ZONE));
                }
            }
            // Every offering of those zones is left out, on-demand too: with on-demand there, a zone spread preference
            // (ScheduleAnyway) would keep the pods in the zone on on-demand, and the spot elsewhere would never be seen.
            Simulation away = new Simulation(without(in, c, (t, o) -> riskyZones.contains(o.zone())));
            Simulation.Outcome o = away.trial(List.of(c), Scheduler.Strategy.KARPENTER_GREEDY);
            runs += away.runs;
            if (o.ok() && allSpot(o.newClaims()) && cheaperThanOnDemand(in, c, o)) {
                List<SchedulingResult.NodeClaimPlan> plans = o.newClaims().stream().map(p -> outside(p, riskyZones)).toList();
                command = Optional.of(Round.command(Method.REBALANCE, List.of(c), plans, o.destinations()).decidedBy("gantry"));
                continue;
            }
            Simulation sim = new Simulation(without(in, c, (t, off) -> off.capacityType().equals(WellKnownLabels.CAPACITY_SPOT)
                    && underRecommendation.contains(t + "@" + off.zone())));
            o = sim.trial(List.of(c), Scheduler.Strategy.KARPENTER_GREEDY);
            runs += sim.runs;
            if (!o.ok()) {
                verdicts.add(Verdict.blocked(c.name(), "rebalance recommended, but its pods cannot be rescheduled: " + o.failure()));
                continue;
            }
            ConsolidationCommand cmd = Round.command(Method.REBALANCE, List.of(c), o.newClaims(), o.destinations()).decidedBy("gantry");
            String over = CostLimitGuard.breaks(in, cmd);
            if (over != null) {
                verdicts.add(Verdict.blocked(c.name(), "rebalance recommended, but " + over));
                continue;
            }
            command = Optional.of(cmd);
        }
        return new ConsolidationDecision(command, verdicts, runs);
    }

    /**
     * Whether the spot plan {@code o} costs less than the pods would on on-demand (any zone), or on-demand cannot hold
     * them: spot elsewhere is only worth leaving the zone for when it is the cheaper capacity.
     */
    private static boolean cheaperThanOnDemand(ConsolidationInput in, Candidate c, Simulation.Outcome o) {
        if (o.newClaims().isEmpty()) {
            return true;
        }
        Simulation onDemand = new Simulation(without(in, c, (t, off) -> off.capacityType().equals(WellKnownLabels.CAPACITY_SPOT)));
        Simulation.Outcome d = onDemand.trial(List.of(c), Scheduler.Strategy.KARPENTER_GREEDY);
        return !d.ok() || price(o.newClaims()) < price(d.newClaims());
    }

    private static double price(List<SchedulingResult.NodeClaimPlan> plans) {
        return plans.stream().mapToDouble(SchedulingResult.NodeClaimPlan::pricePerHour).sum();
    }

    private static boolean allSpot(List<SchedulingResult.NodeClaimPlan> plans) {
        return plans.stream().allMatch(p -> WellKnownLabels.CAPACITY_SPOT.equals(p.offering().capacityType()));
    }

    /** The plan, its requirements narrowed to zones outside {@code zones} (so the launch keeps out of them too). */
    static SchedulingResult.NodeClaimPlan outside(SchedulingResult.NodeClaimPlan p, Set<String> zones) {
        if (zones.isEmpty()) {
            return p;
        }
        Requirements narrowed = p.requirements().with(WellKnownLabels.ZONE,
                ValueSet.of(Requirement.of(WellKnownLabels.ZONE, Operator.NotIn, zones.toArray(String[]::new))));
        return new SchedulingResult.NodeClaimPlan(p.name(), p.nodePool(), narrowed, p.instanceTypeOptions(), p.instanceType(),
                p.offering(), p.pods(), p.requests());
    }

    /**
     * The input with the candidate's own offering (its type, zone and capacity type) and every offering {@code out}
     * names (by instance type name) unavailable in every pool.
     */
    static ConsolidationInput without(ConsolidationInput in, Candidate c, BiPredicate<String, Offering> out) {
        String zone = c.cluster().node().labels().get(WellKnownLabels.ZONE);
        BiPredicate<String, Offering> own = c.type() == null || zone == null || c.capacityType() == null ? (t, o) -> false
                : (t, o) -> t.equals(c.type().name()) && o.zone().equals(zone) && o.capacityType().equals(c.capacityType());
        List<PoolOffer> pools = new ArrayList<>();
        for (PoolOffer p : in.pools()) {
            List<InstanceType> types = new ArrayList<>();
            for (InstanceType t : p.instanceTypes()) {
                types.add(t.withUnavailable(o -> own.test(t.name(), o) || out.test(t.name(), o)));
            }
            pools.add(new PoolOffer(p.pool(), types, p.usage(), p.nodeCount()));
        }
        return in.withPools(pools);
    }
}
