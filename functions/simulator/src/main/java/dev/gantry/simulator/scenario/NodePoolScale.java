package dev.gantry.simulator.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.core.config.ConfigObject;
import dev.gantry.simulator.world.kube.ConfigStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * {@code scale: {nodePool: fixed, replicas: 5}}: what {@code kubectl scale nodepool fixed --replicas 5} does through the
 * NodePool's {@code scale} subresource ({@code specReplicasPath: .spec.replicas}): the stored NodePool with only
 * {@code spec.replicas} changed, written as any update is (a dynamic pool refuses it: the CRD's transition rule).
 * Changing {@code replicas} in the bundle is an {@code apply:} of the whole NodePool.
 */
final class NodePoolScale {
    private static final ObjectMapper JSON = new ObjectMapper();

    private NodePoolScale() {
    }

    /** Whether a {@code scale:} mapping is about a NodePool (it names one) rather than a Deployment. */
    static boolean isFor(ScenarioNodes yaml, Node v) {
        return v instanceof org.snakeyaml.engine.v2.nodes.MappingNode m
                && m.getValue().stream().anyMatch(t -> "nodePool".equals(yaml.string(t.getKeyNode())));
    }

    static Scenario.ScaleNodePool read(ScenarioNodes yaml, Node v) {
        Map<String, NodeTuple> s = yaml.map(v, Set.of("nodePool", "replicas"), "scale.");
        long replicas = yaml.integer(yaml.require(s, "replicas", v));
        if (replicas < 0) {
            throw yaml.error(s.get("replicas").getValueNode(), "replicas must not be negative");
        }
        return new Scenario.ScaleNodePool(yaml.string(yaml.require(s, "nodePool", v)), (int) replicas);
    }

    /** Writes the scale; returns what the scenario log says of it. */
    @SuppressWarnings("unchecked")
    static String run(ConfigStore store, Scenario.ScaleNodePool s) {
        Optional<ConfigObject> pool = store.list().stream()
                .filter(o -> o.kind().equals("NodePool") && o.name().equals(s.nodePool())).findFirst();
        String what = "scale nodepool " + s.nodePool() + " to " + s.replicas();
        if (pool.isEmpty()) {
            return what + ": NodePool not found";
        }
        Map<String, Object> object;
        try {
            object = JSON.readValue(pool.get().json(), LinkedHashMap.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored NodePool that is not JSON: " + s.nodePool(), e);
        }
        ((Map<String, Object>) object.computeIfAbsent("spec", k -> new LinkedHashMap<>())).put("replicas", s.replicas());
        String refusal = store.apply("NodePool", s.nodePool(), object);
        return what + (refusal == null ? "" : " refused: " + refusal);
    }
}
