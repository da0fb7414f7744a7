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
import java.util.ArrayList;
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
 * fit, on the other nodes or on new claims the scheduler plans. The node's own offering (its instance type in its zone,
 * spot) is taken out of the simulation, so the replacement goes to another spot offering where one is the cheapest
 * way to hold the pods, else to on-demand where the pool allows it (the scheduler picks the cheapest offering). Pure.
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
            Simulation sim = new Simulation(withoutOwnOffering(in, c));
            Simulation.Outcome o = sim.trial(List.of(c), Scheduler.Strategy.KARPENTER_GREEDY);
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

    /** The input with the candidate's own offering (its type, zone and capacity type) unavailable in every pool. */
    static ConsolidationInput withoutOwnOffering(ConsolidationInput in, Candidate c) {
        String zone = c.cluster().node().labels().get(WellKnownLabels.ZONE);
        if (c.type() == null || zone == null || c.capacityType() == null) {
            return in;
        }
        List<PoolOffer> pools = new ArrayList<>();
        for (PoolOffer p : in.pools()) {
            List<InstanceType> types = new ArrayList<>();
            for (InstanceType t : p.instanceTypes()) {
                if (!t.name().equals(c.type().name())) {
                    types.add(t);
                    continue;
                }
                List<Offering> offerings = new ArrayList<>();
                for (Offering o : t.offerings()) {
                    boolean own = o.zone().equals(zone) && o.capacityType().equals(c.capacityType());
                    offerings.add(own ? o.unavailable() : o);
                }
                types.add(t.withOfferings(offerings));
            }
            pools.add(new PoolOffer(p.pool(), types, p.usage(), p.nodeCount()));
        }
        return new ConsolidationInput(in.nodes(), pools, in.daemonSets(), in.pdbs(), in.namespaceLabels(), in.settings(),
                in.now(), in.reserved(), in.only());
    }
}
