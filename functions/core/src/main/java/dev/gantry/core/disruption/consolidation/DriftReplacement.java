package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.EvictionCost;
import dev.gantry.core.disruption.consolidation.ConsolidationCommand.Method;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.NodePool;
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
 * Drift's disruption method, decided (Karpenter v1.14 core {@code pkg/controllers/disruption/drift.go}): at most one
 * command, replacing one drifted node. The drifted claims come oldest-drifted first; empty nodes go before the others
 * (their pods would otherwise move twice), each within its NodePool's {@code Drifted} budget (deleting nodes count against
 * the allowance, NotReady ones only up to one less than it: {@link dev.gantry.core.disruption.DisruptionBudgets#allowedForDrift}). The first candidate whose pods all fit, on the other
 * nodes or on new claims the scheduler plans (at whatever price: drift is not about savings, but within the pool's
 * dollar limit: {@link CostLimitGuard}), becomes the command;
 * one whose pods cannot all be placed gets a verdict and the next is tried. Candidates follow consolidation's rules
 * for what may be disrupted ({@code Candidates}: initialized, not deleting or nominated, no {@code do-not-disrupt},
 * no PodDisruptionBudget blocking an eviction; with a {@code terminationGracePeriod} in the pool's template, the pods'
 * {@code do-not-disrupt} and PDBs do not block, the drain being bounded by it), and a static pool's nodes are replaced first, from its template
 * ({@link StaticDrift}). The buffers' chunks among the input's reserved pods are bound first, as consolidation binds them
 * ({@link Reserved}), so a drifted node that holds one is replaced with room for it. Pure.
 */
public final class DriftReplacement {
    private DriftReplacement() {
    }

    /**
     * @param driftedClaims the drifted claims' names, oldest drifted first; only their nodes are candidates (and, with
     *                      {@link ConsolidationInput#only()}, only those among them)
     */
    public static ConsolidationDecision decide(ConsolidationInput unbound, List<String> driftedClaims) {
        Optional<ConsolidationCommand> byCount = StaticDrift.decide(unbound, driftedClaims); // Karpenter runs StaticDrift first
        if (byCount.isPresent()) {
            return new ConsolidationDecision(byCount, List.of(), 0);
        }
        // The buffers' chunks take room as in consolidation's trials: a drifted node holding one is replaced with room
        // for it, where otherwise the chunk, pushed out by the drain, gets a node of its own. Not the other reserved
        // pods: pending pods are the provisioner's, and a leaving node's pods have its own command's replacements
        // (bound here too, a drift-template rollout ran a node more for the rest of the day).
        ConsolidationInput in = Reserved.bind(unbound.withReserved(unbound.reserved().stream()
                .filter(dev.gantry.core.headroom.BufferPods::isVirtual).toList()), new java.util.HashSet<>());
        Map<String, PoolOffer> pools = new LinkedHashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Map<String, Integer> budget = Consolidation.budgets(in, pools, NodePool.Reason.Drifted);
        Map<String, Candidate> byClaim = new LinkedHashMap<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < in.nodes().size(); i++) {
            ClusterNode n = in.nodes().get(i);
            if (!n.managed() || !driftedClaims.contains(n.claim()) || (in.only() != null && !in.only().contains(n.name()))) {
                continue;
            }
            PoolOffer offer = pools.get(n.node().labels().get(WellKnownLabels.NODEPOOL));
            boolean eventual = offer != null && offer.pool().template().terminationGracePeriod().isPresent();
            String why = Candidates.blocked(n, pools, in.pdbs(), in.now(), eventual);
            if (why == null && offer.pool().isStatic()) {
                why = "NodePool \"" + offer.pool().name() + "\" is static: its drifted nodes are replaced from its template "
                        + "(StaticDrift), within its budget and limits.nodes";
            }
            if (why != null) {
                verdicts.add(Verdict.blocked(n.name(), "drifted, but " + why));
                continue;
            }
            List<Pod> reschedulable = n.pods().stream().filter(EvictionCost::reschedulable).toList();
            String typeName = n.node().labels().get(WellKnownLabels.INSTANCE_TYPE);
            InstanceType type = offer.instanceTypes().stream().filter(t -> t.name().equals(typeName)).findFirst().orElse(null);
            String ct = n.node().labels().get(WellKnownLabels.CAPACITY_TYPE);
            String zone = n.node().labels().get(WellKnownLabels.ZONE);
            double price = type == null || ct == null || zone == null ? 0 : Candidates.price(type, zone, ct);
            byClaim.put(n.claim(), new Candidate(n, offer.pool(), type, ct, price, reschedulable,
                    EvictionCost.reschedule(reschedulable), i));
        }
        List<Candidate> ordered = new ArrayList<>();
        for (boolean empty : new boolean[] {true, false}) {
            for (String claim : driftedClaims) {
                Candidate c = byClaim.get(claim);
                if (c != null && c.isEmpty() == empty) {
                    ordered.add(c);
                }
            }
        }
        Simulation sim = new Simulation(in);
        Optional<ConsolidationCommand> command = Optional.empty();
        for (Candidate c : ordered) {
            if (command.isPresent()) {
                verdicts.add(Verdict.unconsolidatable(c.name(), Consolidation.WAITS + "drift replaces one node at a time"));
                continue;
            }
            if (budget.getOrDefault(c.pool().name(), 0) <= 0) {
                verdicts.add(Verdict.blocked(c.name(), "NodePool \"" + c.pool().name()
                        + "\"'s disruption budget for Drifted allows no more disruptions now"));
                continue;
            }
            Simulation.Outcome o = sim.trial(List.of(c), Scheduler.Strategy.KARPENTER_GREEDY);
            if (!o.ok()) {
                verdicts.add(Verdict.blocked(c.name(), "drifted, but its pods cannot be rescheduled: " + o.failure()));
                continue;
            }
            ConsolidationCommand cmd = Round.command(Method.DRIFT, List.of(c), o.newClaims(), o.destinations()).decidedBy("karpenter");
            String over = CostLimitGuard.breaks(in, cmd);
            if (over != null) {
                verdicts.add(Verdict.blocked(c.name(), "drifted, but " + over));
                continue;
            }
            command = Optional.of(cmd);
        }
        return new ConsolidationDecision(command, verdicts, sim.runs);
    }
}
