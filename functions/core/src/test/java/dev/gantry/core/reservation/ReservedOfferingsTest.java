package dev.gantry.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.model.Resources;
import dev.gantry.core.requirements.Requirements;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReservedOfferingsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final InstanceType M5 = new InstanceType("m5.large", Map.of(), Resources.of(2000, 8L << 30),
            Resources.ZERO, List.of(Offering.of("us-east-1a", "on-demand", 0.096), Offering.of("us-east-1a", "spot", 0.04),
            Offering.of("us-east-1b", "on-demand", 0.096)));
    private final ReservationLedger ledger = new ReservationLedger();
    private final List<CapacityReservation> ec2 = new ArrayList<>();

    private static NodeClass nodeClass(List<CapacityReservationSelectorTerm> terms) {
        return new NodeClass("default", "karpenter.k8s.aws", "EC2NodeClass", "AL2023", List.of(), List.of(), List.of(),
                "role", null, null, null, null, null, null, null, null, null, terms);
    }

    private ReservedOfferings provider() {
        return new ReservedOfferings(nc -> List.of(M5), terms -> List.copyOf(ec2), ledger, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static CapacityReservation odcr(String id, String zone, int available) {
        return new CapacityReservation(id, "m5.large", zone, "123456789012", "targeted", "default", false, null, available);
    }

    private static Requirements capacityTypes(String... types) {
        return Requirements.fromLabels(Map.of()).with(WellKnownLabels.CAPACITY_TYPE, ValueSet.in(Set.of(types)));
    }

    private static final List<CapacityReservationSelectorTerm> BY_ID = List.of(CapacityReservationSelectorTerm.id("cr-0000000000000000a"));

    /**
     * aws reserved_capacity_resolver.go: one reserved offering per reservation, in its zone, at the on-demand price
     * divided by 10,000,000 (free, but ordered), available while it has capacity.
     */
    @Test
    void aReservationIsAFreeReservedOfferingInItsZone() {
        ec2.add(odcr("cr-0000000000000000a", "us-east-1b", 2));

        InstanceType t = provider().instanceTypes(nodeClass(BY_ID)).getFirst();

        assertThat(t.offerings()).filteredOn(o -> o.capacityType().equals("reserved")).singleElement().satisfies(o -> {
            assertThat(o.zone()).isEqualTo("us-east-1b");
            assertThat(o.pricePerHour()).isEqualTo(0.096 / 10_000_000.0);
            assertThat(o.available()).isTrue();
        });
        assertThat(ledger.available("cr-0000000000000000a")).isEqualTo(2);
    }

    /** docs tasks/odcrs.md: a NodePool uses reservations only if it allows capacity type reserved, and prefers them. */
    @Test
    void onlyAPoolThatAllowsReservedUsesItAndThenPrefersIt() {
        ec2.add(odcr("cr-0000000000000000a", "us-east-1a", 1));
        InstanceType t = provider().instanceTypes(nodeClass(BY_ID)).getFirst();

        assertThat(t.cheapestOffering(capacityTypes("on-demand", "spot")).capacityType()).isEqualTo("spot");
        assertThat(t.cheapestOffering(capacityTypes("reserved", "on-demand", "spot")).capacityType()).isEqualTo("reserved");
    }

    /** docs tasks/odcrs.md: open reservations are never matched implicitly: no terms, no reserved offering. */
    @Test
    void aNodeClassWithoutTermsGetsNoReservedOffering() {
        ec2.add(new CapacityReservation("cr-0000000000000000a", "m5.large", "us-east-1a", "123456789012", "open",
                "default", false, null, 5));

        assertThat(provider().instanceTypes(nodeClass(List.of())).getFirst().offerings())
                .noneMatch(o -> o.capacityType().equals("reserved"));
    }

    /** aws reserved_capacity_resolver.go: unavailable when full, or an expiring Capacity Block. */
    @Test
    void aFullReservationOrAnExpiringBlockIsOfferedUnavailable() {
        ec2.add(odcr("cr-0000000000000000a", "us-east-1a", 0));
        ec2.add(new CapacityReservation("cr-0000000000000000b", "m5.large", "us-east-1b", "123456789012", "targeted",
                "capacity-block", false, NOW.plus(Duration.ofMinutes(30)), 4));

        assertThat(provider().instanceTypes(nodeClass(BY_ID)).getFirst().offerings())
                .filteredOn(o -> o.capacityType().equals("reserved")).hasSize(2).noneMatch(Offering::available);
    }

    @Test
    void aFailedLookupPlansWithoutReservations() {
        ReservedOfferings failing = new ReservedOfferings(nc -> List.of(M5), terms -> {
            throw new IllegalStateException("throttled");
        }, ledger, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(failing.instanceTypes(nodeClass(BY_ID))).containsExactly(M5);
    }
}
