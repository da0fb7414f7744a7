package dev.gantry.core.disruption.drift;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.disruption.drift.hash.DriftHashes;
import dev.gantry.core.disruption.drift.hash.DriftHashesTest;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.reservation.ReservationLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * aws {@code pkg/cloudprovider/drift.go} isCapacityReservationDrifted: a node whose instance runs in a capacity
 * reservation that is not among the NodeClass's {@code status.capacityReservations} (what its terms select now) is
 * {@code CapacityReservationDrift}; an instance that fell back to on-demand is not (checked on the instance as EC2
 * lists it, not on the offering, so fallback cancels it); after subnets in Karpenter's order.
 */
class CapacityReservationDriftTest {
    private static final String CR = "cr-0000000000000000a";
    /** A pool that allows reserved capacity. */
    private static final NodePool POOL = DriftHashesTest.pool(new NodePool.Template(Map.of("team", "a"), Map.of(),
            List.of(), List.of(), List.of(Requirement.of("karpenter.sh/capacity-type", Operator.In, "reserved", "on-demand")),
            new NodePool.NodeClassRef(null, null, "default"), null, Optional.empty()));

    private static String reason(String capacityType, Set<String> selected) {
        Map<String, String> labels = new HashMap<>(DriftCheckTest.LABELS);
        labels.put("karpenter.sh/capacity-type", capacityType);
        labels.put(ReservationLabels.ID, CR);
        CloudInstance i = new CloudInstance("i-a", "m5.large", "us-east-1a", capacityType, "running", DriftCheckTest.NOW,
                "ip", Map.of(), "ami-new", "subnet-1", List.of("sg-1"));
        NodeClassResolution.Selected s = DriftCheckTest.SELECTED;
        var c = DriftCheckTest.claim().withDrift(DriftHashes.stamp(POOL, DriftCheckTest.CLASS));
        // offered null: instance-type drift is not decided here (its offerings are another rule's).
        return DriftCheck.reason(c, DriftCheck.restamp(c.drift(), POOL, DriftCheckTest.CLASS), labels, i,
                new DriftCheck.Current(POOL, DriftCheckTest.CLASS, null,
                        Optional.of(new NodeClassResolution.Selected(s.images(), s.subnets(), s.securityGroups(), selected))),
                DriftCheckTest.NOW);
    }

    @Test
    @DisplayName("aws drift.go: a reservation no longer selected drifts the node")
    void aReservationNoLongerSelectedIsDrift() {
        assertThat(reason("reserved", Set.of("cr-0000000000000000b"))).isEqualTo(DriftCheck.CAPACITY_RESERVATION);
        assertThat(reason("reserved", Set.of())).as("terms removed: nothing selected").isEqualTo(DriftCheck.CAPACITY_RESERVATION);
    }

    @Test
    @DisplayName("aws drift.go: a reservation still selected is no drift")
    void aReservationStillSelectedIsNoDrift() {
        assertThat(reason("reserved", Set.of(CR))).isNull();
    }

    @Test
    @DisplayName("aws drift.go (the NOTE on dynamic drift): an instance that fell back to on-demand is not drifted")
    void anInstanceThatFellBackIsNotDrifted() {
        assertThat(reason("on-demand", Set.of())).isNull();
    }

    @Test
    @DisplayName("Gantry's own: reservations not resolved this time decide nothing")
    void unresolvedReservationsDecideNothing() {
        assertThat(reason("reserved", null)).isNull();
    }
}
