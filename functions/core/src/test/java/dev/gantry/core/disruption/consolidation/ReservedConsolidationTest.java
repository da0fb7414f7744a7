package dev.gantry.core.disruption.consolidation;

import static dev.gantry.core.disruption.consolidation.SuiteFixtures.ZONE_A;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.command;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.require;
import static dev.gantry.core.disruption.consolidation.SuiteFixtures.why;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.requirements.Operator;
import dev.gantry.core.requirements.Requirement;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.core.reservation.ReservedOfferings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Consolidation with reserved offerings, priced as the provisioner sees them: the type's on-demand price scaled by
 * {@link ReservedOfferings#FREE_DIVISOR} (aws {@code pkg/providers/instancetype/offering/reserved_capacity_resolver.go}),
 * compared by core {@code pkg/controllers/disruption/consolidation.go} computeConsolidation as any offering's price.
 * This is how Karpenter v1.14.1 realises core {@code designs/capacity-reservations.md} "Consolidation": reserved
 * capacity modelled at the on-demand price keeps the relative order of reserved types (so it can move between
 * reservations and shrink), while consolidating into reserved is always preferred. Priced at the unscaled on-demand
 * price, a half-empty reserved node would be replaced by a smaller on-demand node (paying for the reservation and the
 * new node) and an on-demand node would never move into a free reservation; the scaled price does neither.
 */
class ReservedConsolidationTest {
    private final TestCluster c = TestCluster.standard();

    ReservedConsolidationTest() {
        require(c, new Requirement(WellKnownLabels.CAPACITY_TYPE, Operator.In, List.of("reserved", "on-demand"), null));
    }

    /** Adds a reserved offering (in zone a) to {@code type}, as ReservedOfferings does for a selected reservation. */
    private void reserve(String type) {
        InstanceType t = c.typeNamed(type);
        Offering od = t.offerings().getFirst();
        List<Offering> all = new ArrayList<>(t.offerings());
        all.add(new Offering(ZONE_A, null, "reserved", od.pricePerHour() / ReservedOfferings.FREE_DIVISOR, true,
                od.listPrice()));
        c.types.set(c.types.indexOf(t), t.withOfferings(all));
    }

    private void reservedNode(String name, String type) {
        c.node(c.nodeOf(name, type, "reserved", Map.of()), c.pod(500));
    }

    @Test
    @DisplayName("designs/capacity-reservations.md: an on-demand node moves into a free reservation")
    void anOnDemandNodeMovesIntoAReservation() {
        reserve("large");
        c.node("a", "small", c.pod(500));

        ConsolidationCommand cmd = command(c.decide());

        assertThat(cmd.nodes()).containsExactly("a");
        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.offering().capacityType()).isEqualTo("reserved");
            assertThat(r.instanceType().name()).isEqualTo("large");
        });
    }

    @Test
    @DisplayName("designs/capacity-reservations.md 'Consolidating between reserved capacity options': a large reserved"
            + " node shrinks into a smaller reservation")
    void aReservedNodeShrinksIntoASmallerReservation() {
        reserve("xlarge");
        reserve("large");
        reservedNode("a", "xlarge");

        ConsolidationCommand cmd = command(c.decide());

        assertThat(cmd.replacements()).singleElement().satisfies(r -> {
            assertThat(r.offering().capacityType()).isEqualTo("reserved");
            assertThat(r.instanceType().name()).isEqualTo("large");
        });
    }

    @Test
    @DisplayName("consolidation.go filterByPrice with reserved at the scaled price: a reserved node is never replaced by"
            + " a smaller on-demand node")
    void aReservedNodeIsNotReplacedByOnDemand() {
        reserve("xlarge");
        reservedNode("a", "xlarge");

        assertThat(c.decide().command()).isEmpty();
        assertThat(why(c.decide(), "a")).contains("cheaper");
    }
}
