package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.disruption.consolidation.ConsolidationInput.ClusterNode;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput.PoolOffer;
import dev.gantry.core.scheduling.SchedulingResult.NodeClaimPlan;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The dollar limit ({@link CostLimit}, {@value CostLimit#ANNOTATION}) for the nodes a disruption command adds:
 * consolidation's and drift's replacements are launches too, counted as the provisioner counts its own. For each pool
 * with a limit that the command adds a replacement to, what stays (its managed nodes that are not deleting, not tainted
 * {@code karpenter.sh/disrupted} by another command, and not in this command) plus the replacements, each at its
 * offering's price after NodeOverlays, must stay within the limit.
 *
 * <p>The nodes the command replaces count as leaving from the decision on, as Karpenter counts its cpu/memory limits
 * for replacements: kubernetes-sigs/karpenter v1.14.1 {@code pkg/controllers/disruption/helpers.go} SimulateScheduling
 * builds the scheduler over the active nodes without the candidates, and {@code pkg/controllers/provisioning/scheduling/
 * scheduler.go} takes each pool's remaining resources as its limits minus those nodes. Between the replacement's launch
 * and the candidate's deletion both run, but the candidate is tainted {@code karpenter.sh/disrupted} from the
 * command's start and no longer counts, as the simulator's {@code costLimitExceeded} invariant reads it. A command
 * that removes nodes from one pool and adds a replacement to another is checked on the pool that grows.
 *
 * <p>Not counted: claims still launching without a node (the consolidation snapshot has nodes only); the provisioner
 * counts them when it launches.
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
        Map<String, Map<String, InstanceType>> types = new HashMap<>();
        Map<String, Double> staying = new HashMap<>();
        for (ClusterNode n : in.nodes()) {
            String pool = n.node().labels().get(WellKnownLabels.NODEPOOL);
            if (!n.managed() || !added.containsKey(pool) || n.node().deleting() || leaving.contains(n.name())
                    || n.node().taints().contains(Taint.DISRUPTED)) {
                continue;
            }
            Map<String, InstanceType> byName = types.computeIfAbsent(pool, k -> {
                Map<String, InstanceType> m = new HashMap<>();
                pools.get(k).instanceTypes().forEach(t -> m.put(t.name(), t));
                return m;
            });
            staying.merge(pool, CostLimit.price(byName, n.node().labels()), Double::sum);
        }
        for (String pool : new TreeSet<>(added.keySet())) {
            double limit = CostLimit.limit(pools.get(pool).pool()).orElseThrow();
            double stay = staying.getOrDefault(pool, 0.0);
            double add = added.get(pool);
            if (stay + add > limit + 1e-9) {
                return String.format("its replacement would take NodePool %s past its %s of $%.4f/h ($%.4f/h staying, "
                        + "$%.4f/h added)", pool, CostLimit.ANNOTATION, limit, stay, add);
            }
        }
        return null;
    }
}
