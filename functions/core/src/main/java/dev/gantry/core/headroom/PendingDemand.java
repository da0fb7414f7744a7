package dev.gantry.core.headroom;

import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The demand a provisioning run saw waiting, per NodePool: what {@link DemandHistoryStore#record} takes. A pod waited
 * for a pool when the plan put it on a new NodeClaim of that pool or on one of the pool's in-flight claims; pods placed
 * on existing nodes did not wait for capacity, unschedulable pods belong to no pool, and virtual buffer pods are not
 * demand.
 */
public final class PendingDemand {
    private PendingDemand() {
    }

    /** Requests (cpu and memory) of the real pods waiting for each pool, by pool name. */
    public static Map<String, Resources> perPool(SchedulingInput input, SchedulingResult result) {
        Map<String, String> inFlightPool = new HashMap<>();
        input.inFlight().forEach(c -> inFlightPool.put(c.name(), c.nodePool()));
        Map<String, Resources> out = new TreeMap<>();
        for (SchedulingResult.NodeClaimPlan c : result.newClaims()) {
            add(out, c.nodePool(), c.pods());
        }
        result.inFlightClaims().forEach((claim, pods) -> {
            String pool = inFlightPool.get(claim);
            if (pool != null) {
                add(out, pool, pods);
            }
        });
        return out;
    }

    private static void add(Map<String, Resources> out, String pool, List<Pod> pods) {
        for (Pod p : pods) {
            if (!BufferPods.isVirtual(p)) {
                out.merge(pool, Resources.of(p.requests().cpuMillis(), p.requests().memoryBytes()), Resources::plus);
            }
        }
    }
}
