package dev.gantry.simulator.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * Reads {@code cluster: {karpenter: [...]}} ({@link KarpenterNodes}): each item
 * {@code {nodePool, instanceType, zone, capacityType, age, count}}; {@code nodePool}, {@code instanceType} and
 * {@code age} are required, {@code zone} defaults to the scenario's first, {@code capacityType} to on-demand,
 * {@code count} to 1. Whether the pool and type exist is the simulation's to check (against the loaded config).
 */
final class KarpenterNodesReader {
    private static final Set<String> FIELDS = Set.of("nodePool", "instanceType", "zone", "capacityType", "age", "count");
    private final ScenarioNodes yaml;

    KarpenterNodesReader(ScenarioNodes yaml) {
        this.yaml = yaml;
    }

    List<KarpenterNodes> read(Node list, List<String> zones) {
        List<KarpenterNodes> out = new ArrayList<>();
        for (Node item : yaml.seq(list)) {
            Map<String, NodeTuple> m = yaml.map(item, FIELDS, "cluster.karpenter.");
            String zone = m.containsKey("zone") ? yaml.string(m.get("zone").getValueNode()) : zones.getFirst();
            if (!zones.contains(zone)) {
                throw yaml.error(m.get("zone").getValueNode(), "cluster.karpenter.zone: '" + zone + "' is not one of the "
                        + "scenario's zones " + zones);
            }
            String capacity = m.containsKey("capacityType") ? yaml.string(m.get("capacityType").getValueNode()) : "on-demand";
            if (!capacity.equals("on-demand") && !capacity.equals("spot")) {
                throw yaml.error(m.get("capacityType").getValueNode(), "cluster.karpenter.capacityType: is on-demand or "
                        + "spot, not '" + capacity + "'");
            }
            Duration age = yaml.duration(yaml.require(m, "age", item));
            long count = m.containsKey("count") ? yaml.positive(m.get("count").getValueNode()) : 1;
            out.add(new KarpenterNodes(yaml.string(yaml.require(m, "nodePool", item)),
                    yaml.string(yaml.require(m, "instanceType", item)), zone, capacity, age, (int) count, ScenarioNodes.line(item)));
        }
        return out;
    }
}
