package dev.gantry.core.cloud;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to launch a claim's instance.
 *
 * @param options       instance types in order of preference (cheapest compatible offering first, at most 60)
 * @param requirements  the claim's requirements: they decide the allowed zones and capacity types
 * @param labels        node labels to register with (pool, capacity type, template labels…; the instance-specific
 *                      labels are added by the launcher once the type is known)
 * @param taints        template taints plus startup taints, registered with the node
 */
public record LaunchRequest(String claimName, NodePool nodePool, NodeClass nodeClass, List<InstanceType> options,
                            Requirements requirements, Map<String, String> labels, List<Taint> taints) {
    public LaunchRequest {
        options = List.copyOf(options);
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
    }
}
