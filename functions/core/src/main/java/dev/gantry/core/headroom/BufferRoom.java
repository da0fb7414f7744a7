package dev.gantry.core.headroom;

import dev.gantry.core.disruption.DisruptionDecision;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.Pod;
import dev.gantry.core.scheduling.Scheduler;
import dev.gantry.core.scheduling.SchedulingInput;
import dev.gantry.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the buffers' capacity is in the cluster as it stands: the virtual pods placed on the existing nodes only (no
 * new capacity), in Karpenter's first-fit order, nodes that run real pods first (their slack is headroom for free),
 * then the other nodes, those not yet marked empty first and then by name (so the same nodes keep the buffer from one
 * sweep to the next). A node that receives a virtual pod in this placement <em>holds buffer capacity</em>: the sweep
 * does not count it as empty, since removing it would leave that virtual pod without room. Virtual pods that fit
 * nowhere are the provisioner's to launch for.
 *
 * @param holders  names of the nodes holding buffer capacity
 * @param unplaced virtual pods the existing nodes have no room for
 */
public record BufferRoom(Set<String> holders, List<Pod> unplaced) {
    public static final BufferRoom NONE = new BufferRoom(Set.of(), List.of());

    public BufferRoom {
        holders = Set.copyOf(holders);
        unplaced = List.copyOf(unplaced);
    }

    /**
     * @param nodes every node of the cluster (deleting ones are skipped)
     * @param pods  the pods bound to each node, by node name
     */
    public static BufferRoom of(List<Pod> virtualPods, List<Node> nodes, Map<String, List<Pod>> pods) {
        if (virtualPods.isEmpty()) {
            return NONE;
        }
        List<SchedulingInput.ExistingNode> existing = new ArrayList<>();
        for (Node n : nodes) {
            if (!n.deleting()) {
                List<Pod> on = pods.getOrDefault(n.name(), List.of()).stream().filter(p -> !p.status().isTerminal()).toList();
                existing.add(new SchedulingInput.ExistingNode(n, on));
            }
        }
        existing.sort(Comparator.comparing((SchedulingInput.ExistingNode e) -> !runsWorkload(e))
                .thenComparing(e -> DisruptionDecision.emptySince(e.node()) != null)
                .thenComparing(e -> e.node().name()));
        SchedulingResult r = Scheduler.solve(new SchedulingInput(virtualPods, existing, List.of(), List.of(), List.of(), Map.of()),
                Scheduler.Strategy.KARPENTER_GREEDY);
        Set<String> holders = new TreeSet<>();
        r.existingNodes().forEach((node, placed) -> {
            if (!placed.isEmpty()) {
                holders.add(node);
            }
        });
        return new BufferRoom(holders, r.unschedulable().stream().map(SchedulingResult.Unschedulable::pod).toList());
    }

    private static boolean runsWorkload(SchedulingInput.ExistingNode e) {
        return e.pods().stream().anyMatch(p -> !p.isDaemon() && !p.isMirror());
    }
}
