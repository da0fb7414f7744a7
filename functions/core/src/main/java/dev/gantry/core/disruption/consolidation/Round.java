package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One search's shared state: the snapshot, the simulation, the remaining Underutilized budget per pool, the Balanced
 * scorer, and the last reason each candidate was found unconsolidatable. {@link #evaluate} is Karpenter's
 * computeConsolidation: simulate (with the greedy, whatever the strategy), then delete, or replace by one strictly
 * cheaper node; {@link #repack} uses the round's strategy.
 */
final class Round {
    final ConsolidationInput in;
    final Simulation sim;
    final Scheduler.Strategy strategy;
    final Map<String, Integer> budget;
    final Balanced balanced;
    final boolean churnGuard;
    final String who;
    final Map<String, String> reasons = new LinkedHashMap<>();

    Round(ConsolidationInput in, Simulation sim, Scheduler.Strategy strategy, Map<String, Integer> budget, Balanced balanced,
          boolean churnGuard, String who) {
        this.in = in;
        this.sim = sim;
        this.strategy = strategy;
        this.budget = budget;
        this.balanced = balanced;
        this.churnGuard = churnGuard;
        this.who = who;
    }

    /** The candidates the pools' budgets admit, in order (each pool's first {@code budget} ones). */
    List<Candidate> withinBudget(List<Candidate> ordered) {
        return withinBudget(ordered, budget);
    }

    /** The candidates {@code budget} (disruptions left per pool) admits, in order: each pool's first ones. */
    static List<Candidate> withinBudget(List<Candidate> ordered, Map<String, Integer> budget) {
        Map<String, Integer> left = new HashMap<>(budget);
        List<Candidate> out = new ArrayList<>();
        for (Candidate c : ordered) {
            int b = left.getOrDefault(c.pool().name(), 0);
            if (b > 0) {
                out.add(c);
                left.put(c.pool().name(), b - 1);
            }
        }
        return out;
    }

    /** A command removing {@code cs}, or null (with the reason recorded for a single candidate). */
    ConsolidationCommand evaluate(List<Candidate> cs, Method method) {
        double price = cs.stream().mapToDouble(Candidate::price).sum();
        String why = null;
        ConsolidationCommand cmd = null;
        if (sim.cannotBeCheaper(cs, price)) {
            why = "Can't replace with a cheaper node";
        } else {
            Simulation.Outcome o = sim.trialForOne(cs);
            List<NodeClaimPlan> claims = o.ok() ? SpotSplitGuard.narrow(in, names(cs), o.newClaims()) : List.of();
            if (!o.ok()) {
                why = o.failure();
            } else if (claims.isEmpty()) {
                cmd = command(method, cs, List.of(), o.destinations());
            } else if (claims.size() > 1) {
                List<NodeClaimPlan> plans = restoringSplit(cs, claims);
                if (plans == null) {
                    plans = dearNodes(cs, claims);
                }
                if (plans != null) {
                    cmd = command(method, cs, plans, o.destinations());
                } else {
                    cmd = inPlace(cs, method);
                    if (cmd == null) {
                        why = "Can't remove without creating " + claims.size() + " candidates";
                    }
                }
            } else {
                PriceRule.Filtered f = PriceRule.single(claims.get(0), cs, in.settings().spotToSpot(), cs.size() > 1,
                        "gantry".equals(who));
                if (f.plan() == null) {
                    why = f.failure();
                } else {
                    cmd = command(method, cs, List.of(f.plan()), o.destinations());
                }
            }
        }
        if (cmd != null) {
            why = approve(cs, cmd);
            if (why != null) {
                cmd = null;
            }
        }
        if (why != null && cs.size() == 1) {
            reasons.put(cs.get(0).name(), why);
        }
        return cmd;
    }

    /** Gantry's m-to-n: the pods of {@code cs} re-planned by the packer onto the other nodes and any number of new ones. */
    ConsolidationCommand repack(List<Candidate> cs) {
        Simulation.Outcome o = sim.trial(cs, strategy);
        if (!o.ok() || o.newClaims().size() < 2) {
            return null;
        }
        // Fewer nodes only (a re-pack into as many or more nodes is churn for small change), unless it restores a split
        // or the nodes cost four times what replaces them (dearNodes).
        List<NodeClaimPlan> claims = SpotSplitGuard.narrow(in, names(cs), o.newClaims());
        List<NodeClaimPlan> plans = claims.size() < cs.size() ? PriceRule.many(claims, cs, in.settings().spotToSpot())
                : restoringSplit(cs, claims);
        if (plans == null && claims.size() >= cs.size()) {
            plans = dearNodes(cs, claims);
        }
        if (plans == null) {
            return null;
        }
        ConsolidationCommand cmd = command(Method.REPACK, cs, plans, o.destinations());
        return approve(cs, cmd) == null ? cmd : null;
    }

    /**
     * Gantry's rounds only: the replacements under the m-to-n price rule when they bring a pool's spot share back toward
     * its target ({@link SpotSplitGuard#restores}) with at most one node more than they remove, else null. Karpenter
     * replaces a node by at most one, and re-packs into fewer: after spot ran out, a pool's on-demand nodes whose pods a
     * zonal spread sends to two zones would then never go back to spot (spot-split-storm at seed 70 stayed at 33% spot
     * against 70% for 74 minutes).
     */
    private List<NodeClaimPlan> restoringSplit(List<Candidate> cs, List<NodeClaimPlan> newClaims) {
        if (!"gantry".equals(who) || newClaims.size() > cs.size() + 1) {
            return null;
        }
        List<NodeClaimPlan> plans = PriceRule.many(newClaims, cs, in.settings().spotToSpot());
        return plans != null && SpotSplitGuard.restores(in, names(cs), plans) ? plans : null;
    }

    /**
     * The most a move that launches as many nodes as it removes, or more, may cost of what it removes: such a move is
     * for nodes far dearer than what they hold, not for small change (re-packing two xlarge into a large and a small
     * saves a little more than removing one of them, for three evictions instead of one).
     */
    static final double DEAR = 0.25;

    /**
     * Gantry's rounds only: the replacements under the m-to-n price rule when they launch at most one node more than
     * they remove and cost at most {@link #DEAR} of it, else null. Karpenter replaces a node by at most one, and
     * Gantry otherwise re-packs into fewer, so a dear node whose pods a zonal spread would send to two zones stayed at
     * any price: after spot ran out in every zone, an m8idn.32xlarge spot node ($2.62/h) kept most of 40 pods of 500m in
     * one zone for the rest of the day, where two on-demand nodes in two zones hold them for a quarter of that ($0.65/h).
     */
    private List<NodeClaimPlan> dearNodes(List<Candidate> cs, List<NodeClaimPlan> newClaims) {
        if (!"gantry".equals(who) || newClaims.size() > cs.size() + 1) {
            return null;
        }
        List<NodeClaimPlan> plans = PriceRule.many(newClaims, cs, in.settings().spotToSpot());
        if (plans == null) {
            return null;
        }
        double before = cs.stream().mapToDouble(Candidate::price).sum();
        double after = plans.stream().mapToDouble(PriceRule::expectedPrice).sum();
        return after <= DEAR * before ? plans : null;
    }

    /**
     * Gantry's rounds only: one node whose pods' preferences made the trial ask for several, replaced by one new node
     * in its zone, its pods together as they are now ({@link InPlace}), of at least its size ({@link InPlace#keepsRoom}),
     * under the single-node price rule, when no other node has room for one of its pods; else null. Karpenter keeps such a node: after spot ran out
     * in every zone, an on-demand m6a.2xlarge ($0.35/h) holding 14 pods of 500m in one zone stayed for the rest of the
     * storm, where a spot m8i-flex.2xlarge in the same zone holds them for $0.10/h. At least its size, because the move
     * is for a node dearer than its like, not for shrinking one: on the diurnal day, in-place moves that also shrank
     * nodes (2xlarge to xlarge, xlarge to large) made the day 4% dearer, as each next ramp launched again.
     */
    private ConsolidationCommand inPlace(List<Candidate> cs, Method method) {
        Candidate c = cs.get(0);
        if (!"gantry".equals(who) || cs.size() != 1 || c.type() == null) {
            return null;
        }
        List<Pod> together = InPlace.together(c);
        if (together == null || sim.roomElsewhere(c)) {
            // With room elsewhere, kube-scheduler could bind the pods there and leave the replacement empty
            // (graviton-overlay at seed 12 launched one that never ran a pod).
            return null;
        }
        Simulation.Outcome o = sim.onNewNodes(c, together);
        List<NodeClaimPlan> claims = o.ok() ? SpotSplitGuard.narrow(in, names(cs), o.newClaims()) : List.of();
        if (!o.ok() || claims.size() != 1) {
            return null;
        }
        NodeClaimPlan claim = claims.get(0);
        List<dev.gantry.core.catalog.InstanceType> roomy = claim.instanceTypeOptions().stream()
                .filter(t -> InPlace.keepsRoom(c.type(), t)).toList();
        if (roomy.isEmpty()) {
            return null;
        }
        PriceRule.Filtered f = PriceRule.single(PriceRule.rebuilt(claim, claim.requirements(), roomy), cs,
                in.settings().spotToSpot(), false, true);
        return f.plan() == null ? null : command(method, cs, List.of(f.plan()), o.destinations());
    }

    private static List<String> names(List<Candidate> cs) {
        return cs.stream().map(Candidate::name).toList();
    }

    private String approve(List<Candidate> cs, ConsolidationCommand cmd) {
        if (!(cmd.savings() > 0)) {
            return "Can't replace with a cheaper node";
        }
        String why = balanced.reject(cs, cmd.savings());
        if (why == null && churnGuard) {
            why = MinSavings.reject(cs, cmd.savings());
        }
        return why;
    }

    static ConsolidationCommand command(Method method, List<Candidate> cs, List<NodeClaimPlan> replacements,
                                        Map<String, String> destinations) {
        double before = cs.stream().mapToDouble(Candidate::price).sum();
        double after = replacements.stream().mapToDouble(PriceRule::expectedPrice).sum();
        NodePool.Reason reason = method == Method.EMPTY ? NodePool.Reason.Empty
                : method == Method.DRIFT ? NodePool.Reason.Drifted
                : method == Method.REBALANCE ? null : NodePool.Reason.Underutilized;
        return new ConsolidationCommand(method, reason, cs.stream().map(Candidate::name).toList(),
                cs.stream().map(c -> c.cluster().claim()).toList(), replacements, destinations, before, after, "");
    }
}
