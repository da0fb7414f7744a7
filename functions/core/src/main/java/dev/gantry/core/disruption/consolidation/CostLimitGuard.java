package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The dollar limit ({@link CostLimit}, {@value CostLimit#ANNOTATION}) for the nodes a disruption command adds:
 * consolidation's and drift's replacements are launches too, counted as the provisioner counts its own
 * ({@link CostLimit#inUse(java.util.List, java.util.List)}, one count for both). For each pool with a limit that the
 * command adds a replacement to, what stays plus the replacements must stay within the limit, each priced by
 * {@link CostLimit}'s rule (its offering's price after NodeOverlays; a node whose type or offering its pool no longer
 * lists still counts, at the catalogue's or its claim's recorded price, {@link ConsolidationInput#launchPrices}). What
 * stays: the pool's nodes (by their {@code karpenter.sh/nodepool} label) that are not deleting, not tainted
 * {@code karpenter.sh/disrupted} by another command, and not in this command; and its claims in flight
 * ({@link ConsolidationInput#inFlight}: launching, their node not there yet; a claim whose node is there is counted
 * once, as that node).
 *
 * <p>The nodes the command replaces count as leaving from the decision on, as Karpenter counts its cpu/memory limits
 * for replacements: kubernetes-sigs/karpenter v1.14.1 {@code pkg/controllers/disruption/helpers.go} SimulateScheduling
 * builds the scheduler over the active nodes without the candidates, and {@code pkg/controllers/provisioning/scheduling/
 * scheduler.go} takes each pool's remaining resources as its limits minus those nodes. Those state nodes include the
 * NodeClaims launched before their Node exists ({@code pkg/controllers/state/cluster.go} UpdateNodeClaim), so claims in
 * flight count there too. Between the replacement's launch and the candidate's deletion both run, but the candidate is
 * tainted {@code karpenter.sh/disrupted} from the command's start and no longer counts, as the simulator's
 * {@code costLimitExceeded} invariant reads it. A command that removes nodes from one pool and adds a replacement to
 * another is checked on the pool that grows.
 */
final class CostLimitGuard {
    private CostLimitGuard() {
    }

    /** Why the command's replacements would take a pool past its dollar limit, or null when they do not. */
    static String breaks(ConsolidationInput in, ConsolidationCommand cmd) {
        if (cmd.replacements().isEmpty()) {
            return null;
        }
        Map<String, PoolOffer> pools = new HashMap<>();
        in.pools().forEach(p -> pools.put(p.pool().name(), p));
        Map<String, Double> added = new HashMap<>();
        for (NodeClaimPlan r : cmd.replacements()) {
            PoolOffer p = pools.get(r.nodePool());
            if (p != null && CostLimit.limit(p.pool()).isPresent()) {
                added.merge(r.nodePool(), r.pricePerHour(), Double::sum);
            }
        }
        if (added.isEmpty()) {
            return null;
        }
        Set<String> leaving = new HashSet<>(cmd.nodes());
        List<CostLimit.Owned> nodes = new ArrayList<>();
        for (ClusterNode n : in.nodes()) {
            boolean counted = added.containsKey(n.node().labels().get(WellKnownLabels.NODEPOOL));
            if (counted && !n.node().deleting() && !leaving.contains(n.name()) && !n.node().taints().contains(Taint.DISRUPTED)) {
                nodes.add(new CostLimit.Owned(n.node().labels(), launchPrice(in, n.claim())));
            }
        }
        List<CostLimit.Owned> launching = new ArrayList<>();
        for (ConsolidationInput.LaunchingClaim c : in.inFlight()) {
            if (added.containsKey(c.nodePool())) {
                launching.add(new CostLimit.Owned(c.labels(), launchPrice(in, c.name())));
            }
        }
        // Priced over every pool's types: a node whose type or offering its own pool no longer lists still costs.
        Map<String, Double> staying = CostLimit.inUse(in.pools(), nodes);
        Map<String, Double> inFlight = CostLimit.inUse(in.pools(), launching);
        for (String pool : new TreeSet<>(added.keySet())) {
            double limit = CostLimit.limit(pools.get(pool).pool()).orElseThrow();
            double stay = staying.getOrDefault(pool, 0.0);
            double flight = inFlight.getOrDefault(pool, 0.0);
            double add = added.get(pool);
            if (stay + flight + add > limit + 1e-9) {
                return String.format("its replacement would take NodePool %s past its %s of $%.4f/h ($%.4f/h staying, "
                        + "$%.4f/h in flight, $%.4f/h added)", pool, CostLimit.ANNOTATION, limit, stay, flight, add);
            }
        }
        return null;
    }

    private static double launchPrice(ConsolidationInput in, String claim) {
        return claim == null ? 0 : in.launchPrices().getOrDefault(claim, 0.0);
    }
}
