package dev.gantry.simulator.observe;

import dev.gantry.core.capacity.CostLimit;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.PriceView;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * <b>costLimitExceeded</b>: a NodePool with {@code gantry.dev/limit-cost-per-hour} never keeps more than its limit in
 * $/h: its live instances (launching or running, registered or not, by their NodePool tag) that are not leaving (node
 * deleting or tainted {@code karpenter.sh/disrupted}), each priced as the provisioner and consolidation price what a
 * pool owns ({@code CostLimit.inUse}, one rule: its offering after NodeOverlays in its pool's types, else the
 * catalogue's price for it, else its launch price, the instance's own where core reads its claim's recorded one; never
 * $0). As with {@code limitExceeded}, only a total that grew past the limit is a violation, once per episode.
 *
 * <p>What it cannot see: a NodeClaim the store recorded before CreateFleet made its instance, which core already counts
 * as in flight (core is the stricter until the instance exists; then it is counted here too); and an instance without
 * its NodePool tag.
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
        List<CostLimit.Owned> capacity = new ArrayList<>();
        for (SimulatedInstance i : live) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            if (pool == null || !limited.containsKey(pool)) {
                continue;
            }
            Node n = nodes.apply(i.dnsName());
            if (n != null && (n.deleting() || n.taints().contains(Taint.DISRUPTED))) {
                continue;
            }
            capacity.add(new CostLimit.Owned(Map.of(WellKnownLabels.NODEPOOL, pool, WellKnownLabels.INSTANCE_TYPE,
                    i.type().name(), WellKnownLabels.ZONE, i.zone(), WellKnownLabels.CAPACITY_TYPE, i.capacityType()),
                    i.pricePerHour()));
        }
        PriceView view = new PriceView(inUse, catalog);
        List<SchedulingInput.PoolOffer> offers = new ArrayList<>();
        for (NodePool p : pools.values()) {
            offers.add(new SchedulingInput.PoolOffer(p, view.types(p)));
        }
        Map<String, Double> used = CostLimit.inUse(offers, capacity);
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
