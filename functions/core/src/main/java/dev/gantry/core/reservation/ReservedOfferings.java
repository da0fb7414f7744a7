package dev.gantry.core.reservation;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.InstanceTypeProvider;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The instance types of a NodeClass with its capacity reservations as offerings of capacity type {@code reserved},
 * as Karpenter's reserved capacity resolver builds them (aws
 * {@code pkg/providers/instancetype/offering/reserved_capacity_resolver.go}): one offering per selected reservation
 * of that type, in the reservation's zone, priced at the type's on-demand price divided by {@value #FREE_DIVISOR} (so
 * the scheduler treats it as free while keeping the types' relative order), available while the reservation is
 * active (a Capacity Block stops being offered once expiring), the type is offered in that zone, and the
 * {@link ReservationLedger} has a slot. Only a NodePool that allows {@code karpenter.sh/capacity-type: reserved} can
 * use them, since every pool's requirements are checked against the offering's capacity type.
 *
 * <p>A NodeClass without {@code capacityReservationSelectorTerms} gets the base types unchanged: open reservations
 * are never used implicitly.
 */
public final class ReservedOfferings implements InstanceTypeProvider {
    /** Karpenter divides the on-demand price by ten million to make a reservation "free". */
    public static final double FREE_DIVISOR = 10_000_000.0;

    private final InstanceTypeProvider base;
    private final CapacityReservations reservations;
    private final ReservationLedger ledger;
    private final Clock clock;

    public ReservedOfferings(InstanceTypeProvider base, CapacityReservations reservations, ReservationLedger ledger, Clock clock) {
        this.base = Objects.requireNonNull(base, "base");
        this.reservations = Objects.requireNonNull(reservations, "reservations");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The base types, each with a reserved offering per reservation of its name. Resolving the reservations syncs the
     * ledger with the counts EC2 reported. When they cannot be read, the base types (a run plans without reservations,
     * on-demand or spot as the pool allows, rather than not at all), and a warning is logged.
     */
    @Override
    public List<InstanceType> instanceTypes(NodeClass nodeClass) {
        List<InstanceType> types = base.instanceTypes(nodeClass);
        if (nodeClass.capacityReservationSelectorTerms().isEmpty()) {
            return types;
        }
        Instant now = clock.instant();
        List<CapacityReservation> selected;
        try {
            selected = reservations.select(nodeClass.capacityReservationSelectorTerms());
        } catch (RuntimeException e) {
            System.getLogger(ReservedOfferings.class.getName()).log(System.Logger.Level.WARNING,
                    "capacity reservations of NodeClass " + nodeClass.name() + " could not be read; planning without: " + e);
            return types;
        }
        ledger.sync(selected, now);
        List<InstanceType> out = new ArrayList<>(types.size());
        for (InstanceType t : types) {
            List<Offering> added = new ArrayList<>();
            for (CapacityReservation r : selected) {
                if (r.instanceType().equals(t.name())) {
                    reserved(t, r, now).ifPresent(added::add);
                }
            }
            if (added.isEmpty()) {
                out.add(t);
            } else {
                List<Offering> all = new ArrayList<>(t.offerings());
                all.addAll(added);
                out.add(t.withOfferings(all));
            }
        }
        return List.copyOf(out);
    }

    private java.util.Optional<Offering> reserved(InstanceType t, CapacityReservation r, Instant now) {
        // The zone's on-demand offering gives the zone id and the price; a type not offered there gets no offering.
        return t.offerings().stream()
                .filter(o -> o.zone().equals(r.availabilityZone()) && o.capacityType().equals(WellKnownLabels.CAPACITY_ON_DEMAND))
                .findFirst()
                // Billed at the type's on-demand list price (an ODCR costs that whether used or not): the claim records
                // it, so the summary's reserved cost is the reservation's rate, while decisions see it as free.
                .map(od -> new Offering(r.availabilityZone(), od.zoneId(), WellKnownLabels.CAPACITY_RESERVED,
                        od.pricePerHour() / FREE_DIVISOR, CapacityReservation.STATE_ACTIVE.equals(r.state(now))
                        && ledger.available(r.id()) > 0, od.listPrice()));
    }
}
