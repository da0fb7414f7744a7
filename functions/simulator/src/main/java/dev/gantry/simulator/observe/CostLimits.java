package dev.gantry.simulator.observe;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.PriceView;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * <b>costLimitExceeded</b>: a NodePool with {@code gantry.dev/limit-cost-per-hour} never keeps more than its limit in
 * $/h: its live instances (launching or running, registered or not) that are not leaving (node deleting or tainted
 * {@code karpenter.sh/disrupted}), each at the price scheduling sees (its offering after NodeOverlays; the instance's
 * own price when the pool's types no longer list it). As with {@code limitExceeded}, only a total that grew past the
 * limit is a violation, once per episode.
 */
final class CostLimits {
    private final Map<String, Double> last = new HashMap<>();
    private final Set<String> open = new HashSet<>();

    /** The violations of this step, by pool (message), for {@link Invariants#violated}. */
    Map<String, String> check(List<SimulatedInstance> live, Map<String, NodePool> pools, GantryConfig inUse,
                              dev.gantry.core.catalog.InstanceTypeProvider catalog, Function<String, Node> nodes) {
        Map<String, NodePool> limited = new HashMap<>();
        pools.forEach((name, p) -> CostLimit.limit(p).ifPresent(l -> limited.put(name, p)));
        if (limited.isEmpty()) {
            return Map.of();
        }
        PriceView view = new PriceView(inUse, catalog);
        Map<String, Map<String, InstanceType>> types = new HashMap<>();
        Map<String, Double> used = new HashMap<>();
        for (SimulatedInstance i : live) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            if (pool == null || !limited.containsKey(pool)) {
                continue;
            }
            Node n = nodes.apply(i.dnsName());
            if (n != null && (n.deleting() || n.taints().contains(Taint.DISRUPTED))) {
                continue;
            }
            Map<String, InstanceType> byName = types.computeIfAbsent(pool, k -> {
                Map<String, InstanceType> m = new HashMap<>();
                view.types(limited.get(k)).forEach(t -> m.put(t.name(), t));
                return m;
            });
            double price = CostLimit.price(byName, Map.of(WellKnownLabels.INSTANCE_TYPE, i.type().name(),
                    WellKnownLabels.ZONE, i.zone(), WellKnownLabels.CAPACITY_TYPE, i.capacityType()));
            used.merge(pool, price > 0 ? price : i.pricePerHour(), Double::sum);
        }
        Map<String, String> out = new HashMap<>();
        for (var e : limited.entrySet()) {
            double have = used.getOrDefault(e.getKey(), 0.0);
            double max = CostLimit.limit(e.getValue()).orElseThrow();
            Double before = last.put(e.getKey(), have);
            boolean grew = before == null || have > before + 1e-9;
            boolean bad = have > max + 1e-9 && (grew || open.contains(e.getKey()));
            if (bad && open.add(e.getKey())) {
                out.put(e.getKey(), String.format("NodePool %s keeps $%.4f/h, over its %s of $%.4f/h", e.getKey(), have,
                        CostLimit.ANNOTATION, max));
            } else if (!bad) {
                open.remove(e.getKey());
            }
        }
        return out;
    }
}
