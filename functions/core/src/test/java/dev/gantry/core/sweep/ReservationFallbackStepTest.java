package dev.gantry.core.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.termination.LifecycleWorld;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * aws {@code pkg/controllers/capacityreservation/capacitytype/controller.go}: a node whose instance left its capacity
 * reservation becomes on-demand: capacity type relabelled, the reservation labels removed, the claim recorded so.
 */
class ReservationFallbackStepTest {
    private static final String CR = "cr-0000000000000000a";
    private final LifecycleWorld w = new LifecycleWorld(LifecycleFixtures.pool("general"));

    private NodeClaim reservedNode(String name) {
        NodeClaim c = w.addNode(name, "general");
        w.store.update(c.withCapacityType(WellKnownLabels.CAPACITY_RESERVED));
        Node n = LifecycleFixtures.node(name, "general");
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.put(WellKnownLabels.CAPACITY_TYPE, WellKnownLabels.CAPACITY_RESERVED);
        labels.put(ReservationLabels.ID, CR);
        labels.put(ReservationLabels.TYPE, "default");
        labels.put(ReservationLabels.INTERRUPTIBLE, "false");
        w.cluster.putNode(new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), n.ready(),
                n.unschedulable(), false, n.createdAt(), n.finalizers(), null));
        return w.claim(name);
    }

    private static String nodeName() {
        return LifecycleFixtures.node("a", "general").name();
    }

    private static CloudInstance listed(NodeClaim c, String capacityType) {
        return new CloudInstance(c.instanceId(), c.instanceType(), c.zone(), capacityType, "running", c.launchedAt(), null,
                Map.of());
    }

    private List<String> run(String capacityType) {
        NodeClaim c = w.claim("a");
        return new ReservationFallbackStep(w.store, w.cluster).run(w.store.list(w.clock.instant()), w.cluster.nodes(),
                List.of(listed(c, capacityType)));
    }

    @Test
    void anInstanceThatLeftItsReservationIsRelabelledOnDemand() {
        reservedNode("a");

        assertThat(run("on-demand")).containsExactly("a");

        Node n = w.cluster.nodes().stream().filter(x -> x.name().equals(nodeName())).findFirst().orElseThrow();
        assertThat(n.labels()).containsEntry(WellKnownLabels.CAPACITY_TYPE, "on-demand")
                .doesNotContainKeys(ReservationLabels.ID, ReservationLabels.TYPE, ReservationLabels.INTERRUPTIBLE);
        assertThat(w.claim("a").capacityType()).isEqualTo("on-demand");
    }

    @Test
    void anInstanceStillInItsReservationIsLeftAlone() {
        reservedNode("a");

        assertThat(run("reserved")).isEmpty();

        assertThat(w.claim("a").capacityType()).isEqualTo("reserved");
    }

    /** Gantry's own (at-least-once): a second sweep changes nothing; a crash after the node patch is finished by it. */
    @Test
    void aSecondSweepChangesNothingAndACrashAfterTheNodePatchIsFinished() {
        reservedNode("a");
        // The node was patched, the claim write lost (a crash): the claim still says reserved.
        w.cluster.patchNode(nodeName(), dev.gantry.core.cluster.NodePatch.relabel(
                Map.of(WellKnownLabels.CAPACITY_TYPE, "on-demand"), List.of(ReservationLabels.ID)));

        assertThat(run("on-demand")).containsExactly("a");
        assertThat(run("on-demand")).isEmpty();

        assertThat(w.claim("a").capacityType()).isEqualTo("on-demand");
    }
}
