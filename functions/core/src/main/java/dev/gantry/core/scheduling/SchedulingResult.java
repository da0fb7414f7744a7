package dev.gantry.core.scheduling;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler decided: pods bound to capacity that exists or is coming, new NodeClaims to launch, and pods that
 * cannot be placed, each with a reason a person can act on. A value: the shell carries it out.
 *
 * @param existingNodes      node name to the pods placed there
 * @param inFlightClaims     in-flight claim name to the pods nominated to it
 * @param lowerBoundPerHour  the LP lower bound on the cost of the new claims' pods (0 when nothing is launched)
 */
public record SchedulingResult(Map<String, List<Pod>> existingNodes, Map<String, List<Pod>> inFlightClaims,
                               List<NodeClaimPlan> newClaims, List<Unschedulable> unschedulable,
                               double totalPricePerHour, double lowerBoundPerHour, String strategy) {
    public SchedulingResult {
        existingNodes = Map.copyOf(existingNodes);
        inFlightClaims = Map.copyOf(inFlightClaims);
        newClaims = List.copyOf(newClaims);
        unschedulable = List.copyOf(unschedulable);
    }

    /**
     * A node to launch.
     *
     * @param requirements        the pool's requirements narrowed by every pod placed on it
     * @param instanceTypeOptions compatible types that fit all its pods, cheapest compatible offering first (≤ 60)
     * @param instanceType        the expected type (the cheapest option) and {@code offering} its expected offering
     * @param requests            what its pods and daemons request
     */
    public record NodeClaimPlan(String name, String nodePool, Requirements requirements,
                                List<InstanceType> instanceTypeOptions, InstanceType instanceType, Offering offering,
                                List<Pod> pods, Resources requests) {
        public NodeClaimPlan {
            instanceTypeOptions = List.copyOf(instanceTypeOptions);
            pods = List.copyOf(pods);
        }

        public double pricePerHour() {
            return offering.pricePerHour();
        }
    }

    /** A pod that could not be placed, and why. */
    public record Unschedulable(Pod pod, String reason) {
    }

    /** Every pod the result places, wherever. */
    public int placedCount() {
        int n = newClaims.stream().mapToInt(c -> c.pods().size()).sum();
        n += existingNodes.values().stream().mapToInt(List::size).sum();
        n += inFlightClaims.values().stream().mapToInt(List::size).sum();
        return n;
    }
}
