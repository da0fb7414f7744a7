package dev.gantry.core.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.lifecycle.LifecycleFixtures;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.termination.LifecycleWorld;
import dev.gantry.core.termination.TerminationMarkers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * aws {@code pkg/controllers/capacityreservation/expiration/controller.go}: NodeClaims labelled with a capacity
 * reservation id are deleted once their Capacity Block is {@code expiring} (40 minutes before its end, 10 before EC2
 * reclaims); others are left alone.
 */
class CapacityBlockExpiryTest {
    private static final Instant END = LifecycleFixtures.T0.plus(Duration.ofHours(1));
    private final LifecycleWorld w = new LifecycleWorld(LifecycleFixtures.pool("gpu"));
    private final List<List<String>> asked = new ArrayList<>();
    private final Map<String, CapacityReservation> ec2 = new HashMap<>();

    private CapacityBlockExpiry step() {
        return new CapacityBlockExpiry(terms -> {
            asked.add(terms.stream().map(t -> t.id()).toList());
            return terms.stream().map(t -> ec2.get(t.id())).filter(java.util.Objects::nonNull).toList();
        }, w.termination);
    }

    private void onReservation(String claim, String reservation) {
        NodeClaim c = w.addNode(claim, "gpu");
        Node n = LifecycleFixtures.node(claim, "gpu");
        Map<String, String> labels = new HashMap<>(n.labels());
        labels.put(ReservationLabels.ID, reservation);
        w.cluster.putNode(new Node(n.name(), n.providerId(), labels, n.annotations(), n.taints(), n.allocatable(), n.ready(),
                n.unschedulable(), false, n.createdAt(), n.finalizers(), null));
    }

    private static CapacityReservation reservation(String id, String type) {
        return new CapacityReservation(id, "p5.48xlarge", "us-east-1a", "123456789012", "targeted", type, false, END, 0);
    }

    @Test
    void drainsTheNodesOfAnExpiringCapacityBlockOnlyOnceItIsExpiring() {
        ec2.put("cr-0000000000000000a", reservation("cr-0000000000000000a", CapacityReservation.TYPE_CAPACITY_BLOCK));
        ec2.put("cr-0000000000000000b", reservation("cr-0000000000000000b", CapacityReservation.TYPE_DEFAULT));
        onReservation("gpu-a", "cr-0000000000000000a");
        onReservation("gpu-b", "cr-0000000000000000b");
        w.addNode("plain", "gpu");

        List<String> early = step().run(w.store.list(w.clock.instant()), w.cluster.nodes(), END.minus(Duration.ofMinutes(41)));
        w.clock.advance(Duration.ofMinutes(20)); // T0 + 20m = 40 minutes before the end
        List<String> due = step().run(w.store.list(w.clock.instant()), w.cluster.nodes(), w.clock.instant());

        assertThat(early).isEmpty();
        assertThat(due).containsExactly("gpu-a");
        assertThat(w.claim("gpu-a").state().isDeleting()).isTrue();
        assertThat(w.claim("gpu-a").deletionReason()).isEqualTo(CapacityBlockExpiry.REASON);
        assertThat(w.store.marker(TerminationMarkers.deadline("gpu-a"))).contains(END.minus(Duration.ofMinutes(30)));
        assertThat(w.claim("gpu-b").state().isDeleting()).as("an ODCR with an end date never expires early").isFalse();
        assertThat(w.claim("plain").state().isDeleting()).isFalse();
        assertThat(asked.getLast()).containsExactly("cr-0000000000000000a", "cr-0000000000000000b");
    }

    /** At-least-once: a second sweep (or a second delivery of one) starts nothing new. */
    @Test
    void aSecondRunLeavesADrainUnderWayAlone() {
        ec2.put("cr-0000000000000000a", reservation("cr-0000000000000000a", CapacityReservation.TYPE_CAPACITY_BLOCK));
        onReservation("gpu-a", "cr-0000000000000000a");
        w.clock.advance(Duration.ofMinutes(25));

        assertThat(step().run(w.store.list(w.clock.instant()), w.cluster.nodes(), w.clock.instant())).containsExactly("gpu-a");
        assertThat(step().run(w.store.list(w.clock.instant()), w.cluster.nodes(), w.clock.instant())).isEmpty();
    }

    @Test
    void aFailedLookupStartsNothingAndNoNodeOnAReservationAsksNothing() {
        w.addNode("plain", "gpu");
        CapacityBlockExpiry step = step();
        assertThat(step.run(w.store.list(w.clock.instant()), w.cluster.nodes(), w.clock.instant())).isEmpty();
        assertThat(asked).isEmpty();

        onReservation("gpu-a", "cr-0000000000000000a");
        CapacityBlockExpiry failing = new CapacityBlockExpiry(terms -> { throw new IllegalStateException("throttled"); },
                w.termination);
        assertThat(failing.run(w.store.list(w.clock.instant()), w.cluster.nodes(), w.clock.instant())).isEmpty();
    }
}
