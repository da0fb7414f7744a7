package dev.gantry.core.provisioning;

import static dev.gantry.core.provisioning.ProvisioningFixtures.T0;
import static dev.gantry.core.provisioning.ProvisioningFixtures.ZONE_B;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pending;
import static dev.gantry.core.provisioning.ProvisioningFixtures.pool;
import static dev.gantry.core.provisioning.ProvisioningFixtures.req;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cluster.InMemoryCluster;
import dev.gantry.core.lifecycle.InMemoryNodeClaimStore;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.reservation.ReservationLedger;
import dev.gantry.core.reservation.ReservedOfferings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The provisioner launching into capacity reservations: the reserved offerings, the slots, the labels. */
class ProvisionerReservationTest {
    private static final String CR = "cr-0000000000000000a";
    private final ProvisioningFixtures.ManualClock clock = new ProvisioningFixtures.ManualClock(T0);
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final InMemoryNodeClaimStore store = new InMemoryNodeClaimStore();
    private final RecordingCloud cloud = new RecordingCloud(clock);
    private final ReservationLedger ledger = new ReservationLedger();

    private static NodeClass reservingClass() {
        NodeClass nc = ProvisioningFixtures.nodeClass();
        return new NodeClass(nc.name(), nc.group(), nc.kind(), nc.amiFamily(), nc.amiSelectorTerms(),
                nc.subnetSelectorTerms(), nc.securityGroupSelectorTerms(), nc.role(), nc.instanceProfile(), nc.userData(),
                nc.tags(), nc.blockDeviceMappings(), nc.metadataOptions(), nc.kubelet(), nc.associatePublicIPAddress(),
                nc.detailedMonitoring(), nc.convertedFrom(), List.of(CapacityReservationSelectorTerm.id(CR)), Map.of());
    }

    private Provisioner provisioner(String... capacityTypes) {
        GantryConfig config = new GantryConfig(List.of(pool("general", null,
                req(WellKnownLabels.CAPACITY_TYPE, capacityTypes))), List.of(reservingClass()), "test-1",
                List.of(ProvisioningFixtures.ZONE_A, ZONE_B));
        CapacityReservation odcr = new CapacityReservation(CR, "m5.large", ZONE_B, "123456789012", "targeted", "default",
                false, null, 2);
        return new Provisioner(cluster, cluster, store, cloud,
                new ReservedOfferings(ProvisioningFixtures.provider(), terms -> List.of(odcr), ledger, clock), config, clock)
                .withReservations(ledger);
    }

    @Test
    @DisplayName("core designs/capacity-reservations.md and aws instance.go getCapacityType: a pool that allows reserved"
            + " fills the reservation first (two slots: two nodes), then launches on-demand; the reserved nodes carry the"
            + " reservation's labels (aws pkg/apis/v1/labels.go)")
    void aReservationIsFilledFirstThenOnDemand() {
        for (int i = 0; i < 4; i++) {
            cluster.putPod(pending("w-" + i, 1500, 1000).build());
        }

        List<ProvisioningOutcome.LaunchedClaim> launched = provisioner("reserved", "on-demand").provision().launched();

        assertThat(launched).extracting(ProvisioningOutcome.LaunchedClaim::capacityType)
                .containsExactlyInAnyOrder("reserved", "reserved", "on-demand", "on-demand");
        assertThat(launched).filteredOn(c -> c.capacityType().equals("reserved")).allSatisfy(c -> {
            assertThat(c.instanceType()).isEqualTo("m5.large");
            assertThat(c.zone()).isEqualTo(ZONE_B);
            assertThat(c.pricePerHour()).as("billed at the on-demand rate").isEqualTo(0.096);
        });
        List<LaunchRequest> reserved = cloud.requests().stream()
                .filter(r -> "reserved".equals(r.labels().get(WellKnownLabels.CAPACITY_TYPE))).toList();
        assertThat(reserved).isNotEmpty().allSatisfy(r -> assertThat(r.labels()).containsEntry(ReservationLabels.ID, CR)
                .containsEntry(ReservationLabels.TYPE, "default").containsEntry(ReservationLabels.INTERRUPTIBLE, "false"));
        assertThat(reserved.stream().mapToInt(LaunchRequest::count).sum()).isEqualTo(2);
    }

    @Test
    @DisplayName("core pkg/controllers/provisioning/scheduling/reservationmanager.go (CanReserve, used by nodeclaim.go):"
            + " a reservation with 2 slots and 5 pods needing a node each plans 2 reserved claims and 3 others at their"
            + " own price (the cheapest type for them, not the reserved type on-demand); the launch requests agree")
    void theSolverPlansNoMoreClaimsOnAReservationThanItHasSlots() {
        for (int i = 0; i < 5; i++) {
            cluster.putPod(pending("w-" + i, 1500, 1000).build());
        }

        List<ProvisioningOutcome.LaunchedClaim> launched = provisioner("reserved", "on-demand").provision().launched();

        assertThat(launched).extracting(ProvisioningOutcome.LaunchedClaim::capacityType)
                .containsExactlyInAnyOrder("reserved", "reserved", "on-demand", "on-demand", "on-demand");
        assertThat(launched).filteredOn(c -> c.capacityType().equals("reserved"))
                .allSatisfy(c -> assertThat(c.instanceType()).isEqualTo("m5.large"));
        assertThat(launched).filteredOn(c -> c.capacityType().equals("on-demand")).as("planned at their own price")
                .allSatisfy(c -> assertThat(c.instanceType()).isEqualTo("t4g.small"));
        List<LaunchRequest> requests = cloud.requests();
        assertThat(requests.stream().filter(r -> CR.equals(r.labels().get(ReservationLabels.ID)))
                .mapToInt(LaunchRequest::count).sum()).isEqualTo(2);
        assertThat(requests.stream().filter(r -> !r.labels().containsKey(ReservationLabels.ID)))
                .allSatisfy(r -> assertThat(r.options()).extracting(t -> t.name()).first().isEqualTo("t4g.small"));
        assertThat(requests.stream().filter(r -> !r.labels().containsKey(ReservationLabels.ID))
                .mapToInt(LaunchRequest::count).sum()).isEqualTo(3);
    }

    @Test
    @DisplayName("Gantry's own (at-least-once): a second delivery of the same run launches nothing more and takes no slot")
    void aSecondRunLaunchesNothingMore() {
        for (int i = 0; i < 2; i++) {
            cluster.putPod(pending("w-" + i, 1500, 1000).build());
        }
        Provisioner p = provisioner("reserved", "on-demand");
        p.provision();
        int requests = cloud.requests().size();

        p.provision();

        assertThat(cloud.requests()).hasSize(requests);
    }
}
