package dev.gantry.core.sweep;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cluster.ClusterWriter;
import dev.gantry.core.cluster.NodePatch;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimStore;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.ReservationFallback;
import dev.gantry.core.reservation.ReservationLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sweep's capacity-type step, as Karpenter's capacity type controller (aws
 * {@code pkg/controllers/capacityreservation/capacitytype/controller.go}): a claim launched {@code reserved} whose
 * instance EC2 now lists as {@code on-demand} (the reservation expired or was cancelled, and the instance left it)
 * becomes on-demand: its node's {@code karpenter.sh/capacity-type} is set to {@code on-demand} and the three
 * {@link ReservationLabels} are removed ({@link ReservationFallback}), then the claim records the new capacity type.
 * Only reserved to on-demand, never back.
 *
 * <p>Idempotent and resumable: the node is patched before the claim is written, so a crash in between leaves a claim
 * still {@code reserved}, which the next sweep patches again (no change) and writes; a lost conditional write is left
 * to the next sweep too. An instance not listed (the describe lag, or gone) changes nothing.
 */
final class ReservationFallbackStep {
    private final NodeClaimStore store;
    private final ClusterWriter writer;

    ReservationFallbackStep(NodeClaimStore store, ClusterWriter writer) {
        this.store = store;
        this.writer = writer;
    }

    /** Moves the claims whose instances left their reservation to on-demand; returns their names. */
    List<String> run(List<NodeClaim> claims, List<Node> nodes, List<CloudInstance> instances) {
        if (claims.stream().noneMatch(ReservationFallbackStep::reserved)) {
            return List.of();
        }
        Map<String, CloudInstance> byId = new HashMap<>();
        instances.forEach(i -> byId.put(i.instanceId(), i));
        NodeIndex index = new NodeIndex(nodes, claims);
        List<String> moved = new ArrayList<>();
        for (NodeClaim c : claims) {
            CloudInstance i = c.instanceId() == null ? null : byId.get(c.instanceId());
            if (!reserved(c) || c.state().isDeleting() || i == null
                    || !WellKnownLabels.CAPACITY_ON_DEMAND.equals(i.capacityType())) {
                continue;
            }
            Optional<Node> node = index.of(c);
            if (node.isPresent()) {
                Optional<Map<String, String>> labels = ReservationFallback.labels(node.get().labels(), i.capacityType());
                if (labels.isPresent()) {
                    NodeRegistrar.patchIfPresent(writer, node.get().name(), NodePatch.relabel(
                            Map.of(WellKnownLabels.CAPACITY_TYPE, WellKnownLabels.CAPACITY_ON_DEMAND),
                            List.of(ReservationLabels.ID, ReservationLabels.TYPE, ReservationLabels.INTERRUPTIBLE)));
                }
            }
            try {
                store.update(c.withCapacityType(WellKnownLabels.CAPACITY_ON_DEMAND));
                moved.add(c.name());
            } catch (NodeClaimStore.Conflict e) {
                // Changed meanwhile: the next sweep reads it again.
            }
        }
        if (!moved.isEmpty()) {
            System.getLogger(ReservationFallbackStep.class.getName()).log(System.Logger.Level.INFO,
                    "sweep: " + moved + " left their capacity reservation: now on-demand");
        }
        return moved;
    }

    private static boolean reserved(NodeClaim c) {
        return WellKnownLabels.CAPACITY_RESERVED.equals(c.capacityType());
    }
}
