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
 * The demand a provisioning run saw waiting, per NodePool: what {@link DemandHistoryStore#record} takes ({@link #waves}). A pod waited
 * for a pool when the plan put it on a new NodeClaim of that pool or on one of the pool's in-flight claims; pods placed
 * on existing nodes did not wait for capacity, unschedulable pods belong to no pool, and virtual buffer pods are not
 * demand.
 */
public final class PendingDemand {
    private PendingDemand() {
    }

    /**
     * How close to the first waiting pod another pod must have been created to belong to the same wave: a scale-up's
     * pods are created within seconds, and kube-scheduler gives the first of them whatever room the nodes had.
     */
    public static final java.time.Duration WAVE = java.time.Duration.ofMinutes(1);

    /**
     * The waves that made pods wait, per pool: the real pods waiting for it ({@link #perPool(SchedulingInput,
     * SchedulingResult)}) plus the real pods already bound to its nodes that were created at most {@link #WAVE} before
     * the first of those. A scale-up that found some room and waited for the rest is measured whole: a buffer sized
     * only to the part that waited would sit in the room the rest found, and add nothing.
     */
    public static Map<String, Resources> waves(SchedulingInput input, SchedulingResult result) {
        Map<String, Resources> out = perPool(input, result);
        Map<String, java.time.Instant> first = new HashMap<>();
        Map<String, String> inFlightPool = new HashMap<>();
        input.inFlight().forEach(c -> inFlightPool.put(c.name(), c.nodePool()));
        result.newClaims().forEach(c -> c.pods().forEach(p -> earliest(first, c.nodePool(), p)));
        result.inFlightClaims().forEach((claim, pods) -> {
            String pool = inFlightPool.get(claim);
            if (pool != null) {
                pods.forEach(p -> earliest(first, pool, p));
            }
        });
        for (SchedulingInput.ExistingNode n : input.nodes()) {
            String pool = n.node().labels().get(dev.gantry.core.requirements.WellKnownLabels.NODEPOOL);
            java.time.Instant since = pool == null ? null : first.get(pool);
            if (since == null) {
                continue;
            }
            for (Pod p : n.pods()) {
                java.time.Instant created = p.status() == null ? null : p.status().createdAt();
                if (created != null && !created.isBefore(since.minus(WAVE)) && !p.isDaemon() && !p.isMirror()
                        && !BufferPods.isVirtual(p) && !p.status().isTerminal()) {
                    out.merge(pool, Resources.of(p.requests().cpuMillis(), p.requests().memoryBytes()), Resources::plus);
                }
            }
        }
        return out;
    }

    private static void earliest(Map<String, java.time.Instant> first, String pool, Pod p) {
        if (!BufferPods.isVirtual(p) && p.status() != null && p.status().createdAt() != null) {
            first.merge(pool, p.status().createdAt(), (a, b) -> a.isBefore(b) ? a : b);
        }
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
