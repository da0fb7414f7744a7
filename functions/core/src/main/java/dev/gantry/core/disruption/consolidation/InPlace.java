package dev.gantry.core.disruption.consolidation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.TopologySpread;
import dev.gantry.core.requirements.WellKnownLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gantry's in-place replacement of one node whose pods' preferences ({@code ScheduleAnyway} spreads, preferred pod
 * affinity and anti-affinity, which kube-scheduler only scores) made the trial ask for several nodes: one new node in
 * its zone, its pods together as they are now. The pods already share one node in that zone, so one new node there
 * keeps every such preference as well as it is kept now. Karpenter keeps such a node ({@link Round}'s single-node move
 * says "Can't remove without creating 2 candidates").
 */
final class InPlace {
    private InPlace() {
    }

    /**
     * The pods of {@code c} pinned to its zone, without their preferences; null when the node has no zone or a pod is
     * pinned to another.
     */
    static List<Pod> together(Candidate c) {
        String zone = c.cluster().node().labels().get(WellKnownLabels.ZONE);
        if (zone == null) {
            return null;
        }
        List<Pod> moved = new ArrayList<>();
        for (Pod p : c.reschedulable()) {
            String pinned = p.nodeSelector().get(WellKnownLabels.ZONE);
            if (pinned != null && !pinned.equals(zone)) {
                return null;
            }
            Map<String, String> selector = new HashMap<>(p.nodeSelector());
            selector.put(WellKnownLabels.ZONE, zone);
            moved.add(p.withNodeName(null).toBuilder().nodeSelector(selector)
                    .topologySpread(p.topologySpread().stream().filter(TopologySpread::doNotSchedule).toList())
                    .preferredPodAffinity(List.of()).preferredPodAntiAffinity(List.of()).build());
        }
        return moved;
    }

    /**
     * Whether {@code next} is at least the size of {@code was}: as many vCPU, and the memory within the few percent
     * that separate the same size across families (the AMI's and the hypervisor's share differ by tens of MiB).
     */
    static boolean keepsRoom(InstanceType was, InstanceType next) {
        return next.capacity().cpuMillis() >= was.capacity().cpuMillis()
                && next.capacity().memoryBytes() >= 0.95 * was.capacity().memoryBytes();
    }
}
