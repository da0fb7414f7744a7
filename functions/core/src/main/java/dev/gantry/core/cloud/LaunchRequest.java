package dev.gantry.core.cloud;

import dev.gantry.core.catalog.AllocatableModel;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Resources;
import dev.gantry.core.model.Taint;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to launch {@code count} identical instances in one call.
 *
 * @param clientToken   the launch's ClientToken (CreateFleet's idempotency key): the claim's name for one instance; for
 *                      several, the launch token the claims of the batch share (the name of its first claim, see
 *                      {@code NodeClaim#launchToken})
 * @param options       instance types in order of preference (cheapest compatible offering first, at most 60)
 * @param requirements  the claims' requirements: they decide the allowed zones and capacity types
 * @param labels        node labels to register with (pool, capacity type, template labels…; the instance-specific
 *                      labels are added by the launcher once the type is known)
 * @param taints        template taints plus startup taints, registered with the node
 * @param count         how many instances (1 for one claim; EC2's TotalTargetCapacity)
 * @param requests      what the claim's pods request ({@link Resources#ZERO} when not known: a claim resumed from the
 *                      store); a request for {@code vpc.amazonaws.com/efa} has the instance launched with its type's EFA
 *                      interfaces, as Karpenter does
 */
public record LaunchRequest(String clientToken, NodePool nodePool, NodeClass nodeClass, List<InstanceType> options,
                            Requirements requirements, Map<String, String> labels, List<Taint> taints, int count,
                            Resources requests) {
    public LaunchRequest {
        requests = requests == null ? Resources.ZERO : requests;
        options = List.copyOf(options);
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, got " + count);
        }
    }

    /** One instance for one claim whose pods' requests are not known. */
    public LaunchRequest(String clientToken, NodePool nodePool, NodeClass nodeClass, List<InstanceType> options,
                         Requirements requirements, Map<String, String> labels, List<Taint> taints) {
        this(clientToken, nodePool, nodeClass, options, requirements, labels, taints, 1, Resources.ZERO);
    }

    /** The same launch, for {@code n} instances under the launch token {@code launchToken} (its ClientToken). */
    public LaunchRequest batch(String launchToken, int n) {
        return new LaunchRequest(launchToken, nodePool, nodeClass, options, requirements, labels, taints, n, requests);
    }

    /** Whether the pods ask for EFA devices ({@code vpc.amazonaws.com/efa}), so the instance needs its EFA interfaces. */
    public boolean requestsEfa() {
        return requests.get(AllocatableModel.EFA) > 0;
    }
}
