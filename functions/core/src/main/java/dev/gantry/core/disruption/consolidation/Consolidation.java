package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.disruption.DisruptionBudgets;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings.Strategy;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Consolidation, decided: a snapshot in, at most one command out, with a verdict for every managed node left alone.
 * Pure: the result depends only on the input (time included).
 * <ol>
 *   <li><b>Emptiness</b>: every empty candidate (no pod with a positive eviction cost) the pools' Empty budgets admit,
 *       in one delete.</li>
 *   <li><b>Underutilized</b> (pools not WhenEmpty), within the Underutilized budgets: Karpenter's multi-node then
 *       single-node ({@link KarpenterReference}); with {@link Strategy#GANTRY} also Gantry's search
 *       ({@link GantrySearch}), and the move saving more is kept (Gantry's on a tie), so Gantry never saves less.</li>
 * </ol>
 * Candidates are ordered by savings ratio, price / (1 + their pods' eviction costs), highest first. Budgets count
 * nodes not Ready or deleting against the allowance; schedules are UTC cron ({@link DisruptionBudgets}). Drift is
 * not decided here.
 */
public final class Consolidation {
    /** How a verdict begins for a node that was not weighed because this round's command came first. */
    public static final String WAITS = "waits for the next round: ";

    private Consolidation() {
    }

    public static ConsolidationDecision decide(ConsolidationInput in) {
        Set<String> holders = new HashSet<>();
        ConsolidationInput bound = Reserved.bind(in, holders);
        ConsolidationDecision d = decideBound(bound);
        if (holders.isEmpty()) {
            return d;
        }
        Map<String, ClusterNode> byName = new HashMap<>();
        bound.nodes().forEach(n -> byName.put(n.name(), n));
        List<Verdict> verdicts = new ArrayList<>();
        for (Verdict v : d.verdicts()) {
            boolean headroom = v.kind() == Verdict.Kind.Unconsolidatable && holders.contains(v.node())
                    && Reserved.onlyReserved(byName.get(v.node()));
            verdicts.add(headroom ? Verdict.unconsolidatable(v.node(), "holds headroom: its buffer pods fit nowhere else") : v);
        }
        return new ConsolidationDecision(d.command(), verdicts, d.simulations());
    }

    private static ConsolidationDecision decideBound(ConsolidationInput in) {
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        boolean gantry = in.settings().strategy() == Strategy.GANTRY;
        Candidates cands = Candidates.of(in, pools, gantry);
        if (in.only() != null) {
            cands.all.removeIf(c -> !in.only().contains(c.name()));
        }
        List<Candidate> ordered = new ArrayList<>(cands.all);
        ordered.sort(Comparator.comparingDouble(Candidate::savingsRatio).reversed().thenComparing(Candidate::name));
        Map<String, Integer> emptyBudget = budgets(in, pools, NodePool.Reason.Empty);
        Map<String, Integer> underBudget = budgets(in, pools, NodePool.Reason.Underutilized);
        List<Verdict> verdicts = new ArrayList<>(cands.verdicts);

        List<Candidate> empty = ordered.stream().filter(Candidate::isEmpty).toList();
        List<Candidate> emptyAdmitted = Round.withinBudget(empty, emptyBudget);
        if (!emptyAdmitted.isEmpty()) {
            ConsolidationCommand cmd = Round.command(Method.EMPTY, emptyAdmitted, List.of(), Map.of()).decidedBy(gantry ? "gantry" : "karpenter");
            Set<String> chosen = new HashSet<>(cmd.nodes());
            for (Candidate c : ordered) {
                if (!chosen.contains(c.name())) {
                    verdicts.add(c.isEmpty() ? budgetVerdict(c, NodePool.Reason.Empty)
                            : Verdict.unconsolidatable(c.name(), WAITS + "this round deletes the empty nodes first"));
                }
            }
            return new ConsolidationDecision(Optional.of(cmd), verdicts, 0);
        }
        List<Candidate> underutilized = ordered.stream().filter(c -> !c.isEmpty()).toList();
        Balanced balanced = Balanced.of(totals(in, pools, cands.all));
        Simulation sim = new Simulation(in);
        Round ref = new Round(in, sim, Scheduler.Strategy.KARPENTER_GREEDY, underBudget, balanced, gantry, "karpenter");
        ConsolidationCommand chosen = KarpenterReference.run(ref, underutilized);
        if (chosen != null) {
            chosen = chosen.decidedBy("karpenter");
        }
        Round ours = null;
        if (gantry) {
            ours = new Round(in, sim, Scheduler.Strategy.GANTRY, underBudget, balanced, true, "gantry");
            ConsolidationCommand mine = GantrySearch.run(ours, underutilized);
            if (mine != null && GantrySearch.better(mine, chosen) == mine) {
                chosen = mine.decidedBy("gantry");
            }
        }
        String split = chosen == null ? null : SpotSplitGuard.breaks(in, chosen);
        split = split != null || chosen == null ? split : CostLimitGuard.breaks(in, chosen); // and the dollar limit
        if (split != null) { // Gantry's spot/on-demand split holds within one node's worth
            for (String n : chosen.nodes()) {
                ref.reasons.put(n, split);
                if (ours != null) {
                    ours.reasons.put(n, split);
                }
            }
            chosen = null;
        }
        Set<String> inCommand = chosen == null ? Set.of() : new HashSet<>(chosen.nodes());
        for (Candidate c : ordered) {
            if (inCommand.contains(c.name())) {
                continue;
            }
            if (c.isEmpty()) {
                verdicts.add(budgetVerdict(c, NodePool.Reason.Empty));
            } else if (underBudget.getOrDefault(c.pool().name(), 0) == 0) {
                verdicts.add(budgetVerdict(c, NodePool.Reason.Underutilized));
            } else {
                String why = ours != null && ours.reasons.containsKey(c.name()) ? ours.reasons.get(c.name()) : ref.reasons.get(c.name());
                verdicts.add(Verdict.unconsolidatable(c.name(), why != null ? why
                        : chosen != null ? WAITS + "one command at a time, and this round's takes other nodes"
                        : "no cheaper arrangement of its pods was found"));
            }
        }
        int sims = sim.runs;
        return new ConsolidationDecision(Optional.ofNullable(chosen), verdicts, sims);
    }

    private static Verdict budgetVerdict(Candidate c, NodePool.Reason reason) {
        return Verdict.blocked(c.name(), "NodePool \"" + c.pool().name() + "\"'s disruption budget for " + reason
                + " allows no more disruptions now");
    }

    /**
     * Per pool, how many more nodes may be disrupted for the reason: managed initialized nodes count, NotReady or
     * deleting ones use it up (for drift, NotReady ones only up to one less than the allowance:
     * {@link DisruptionBudgets#allowedForDrift}).
     */
    public static Map<String, Integer> budgets(ConsolidationInput in, Map<String, PoolOffer> pools, NodePool.Reason reason) {
        Map<String, int[]> counts = new HashMap<>();
        for (ClusterNode n : in.nodes()) {
            String pool = n.node().labels().get(WellKnownLabels.NODEPOOL);
            if (!n.managed() || n.initializedAt() == null || !pools.containsKey(pool)) {
                continue;
            }
            int[] c = counts.computeIfAbsent(pool, k -> new int[3]);
            c[0]++;
            if (n.node().deleting()) {
                c[1]++;
            } else if (!n.node().ready()) {
                c[2]++;
            }
        }
        Map<String, Integer> out = new HashMap<>();
        pools.forEach((name, offer) -> {
            int[] c = counts.getOrDefault(name, new int[3]);
            out.put(name, reason == NodePool.Reason.Drifted
                    ? DisruptionBudgets.allowedForDrift(offer.pool(), c[0], c[1], c[2], in.now())
                    : DisruptionBudgets.allowed(offer.pool(), reason, c[0], c[1] + c[2], in.now()));
        });
        return out;
    }

    /** Per pool, the price of all its nodes and their summed reschedule cost (Balanced's denominators). */
    private static Map<String, double[]> totals(ConsolidationInput in, Map<String, PoolOffer> pools, List<Candidate> candidates) {
        Map<String, Candidate> byName = new HashMap<>();
        candidates.forEach(c -> byName.put(c.name(), c));
        Map<String, double[]> out = new HashMap<>();
        for (ClusterNode n : in.nodes()) {
            String pool = n.node().labels().get(WellKnownLabels.NODEPOOL);
            if (!n.managed() || !pools.containsKey(pool)) {
                continue;
            }
            double[] t = out.computeIfAbsent(pool, k -> new double[2]);
            Candidate c = byName.get(n.name());
            if (c != null) {
                t[0] += c.price();
                t[1] += c.disruption();
                continue;
            }
            Map<String, String> l = n.node().labels();
            String type = l.get(WellKnownLabels.INSTANCE_TYPE);
            t[0] += pools.get(pool).instanceTypes().stream().filter(it -> it.name().equals(type)).findFirst()
                    .map(it -> Candidates.price(it, l.getOrDefault(WellKnownLabels.ZONE, ""), l.getOrDefault(WellKnownLabels.CAPACITY_TYPE, "")))
                    .orElse(0.0);
            List<Pod> reschedulable = n.pods().stream().filter(EvictionCost::reschedulable).toList();
            t[1] += EvictionCost.reschedule(reschedulable);
        }
        return out;
    }
}
