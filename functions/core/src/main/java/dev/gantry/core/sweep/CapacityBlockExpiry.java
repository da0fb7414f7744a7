package dev.gantry.core.sweep;

import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodeClass.CapacityReservationSelectorTerm;
import dev.gantry.core.reservation.CapacityReservation;
import dev.gantry.core.reservation.CapacityReservations;
import dev.gantry.core.reservation.ReservationLabels;
import dev.gantry.core.termination.TerminationService;
import dev.gantry.core.termination.TerminationStart;
import dev.gantry.core.termination.TerminationStart.FirstSlice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The sweep's Capacity Block step, as Karpenter's capacity reservation expiration controller (aws
 * {@code pkg/controllers/capacityreservation/expiration/controller.go}): every claim whose node carries
 * {@link ReservationLabels#ID} is looked up by that id, and a claim on a Capacity Block that is
 * {@link CapacityReservation#STATE_EXPIRING expiring} (40 minutes before its end) starts its termination flow
 * (reason {@value #REASON}), queued for the termination handler, with the grace period capped at
 * {@link #RECLAIM_BEFORE_END} before the end, when EC2 begins reclaiming the instances. Claims already deleting are
 * left to their flow ({@link TerminationService#start} is idempotent), so a second sweep, or a second delivery of one,
 * changes nothing.
 *
 * <p>One DescribeCapacityReservations per reservation id in use (cached by the adapter); a failed lookup is logged
 * and the next sweep tries again, 40 minutes leaving some forty sweeps to succeed.
 */
public final class CapacityBlockExpiry {
    public static final String REASON = "capacity-block-expiring";
    /** EC2 starts reclaiming a Capacity Block's instances 30 minutes before its end. */
    public static final Duration RECLAIM_BEFORE_END = Duration.ofMinutes(30);

    private final CapacityReservations reservations;
    private final TerminationService termination;

    public CapacityBlockExpiry(CapacityReservations reservations, TerminationService termination) {
        this.reservations = reservations;
        this.termination = termination;
    }

    /** Starts the drains due now; returns the claims it started (already deleting ones excluded). */
    public List<String> run(List<NodeClaim> claims, List<Node> nodes, Instant now) {
        NodeIndex index = new NodeIndex(nodes, claims);
        Map<String, List<String>> claimsByReservation = new TreeMap<>();
        for (NodeClaim c : claims) {
            if (c.state().isDeleting()) {
                continue;
            }
            index.of(c).map(n -> n.labels().get(ReservationLabels.ID)).ifPresent(id ->
                    claimsByReservation.computeIfAbsent(id, k -> new ArrayList<>()).add(c.name()));
        }
        if (claimsByReservation.isEmpty()) {
            return List.of();
        }
        List<CapacityReservation> found;
        try {
            found = reservations.select(claimsByReservation.keySet().stream()
                    .map(CapacityReservationSelectorTerm::id).toList());
        } catch (RuntimeException e) {
            System.getLogger(CapacityBlockExpiry.class.getName()).log(System.Logger.Level.WARNING,
                    "sweep: capacity reservations could not be read, the next sweep retries: " + e);
            return List.of();
        }
        List<String> started = new ArrayList<>();
        for (CapacityReservation r : found) {
            if (!CapacityReservation.STATE_EXPIRING.equals(r.state(now))) {
                continue;
            }
            Instant deadline = r.endTime().minus(RECLAIM_BEFORE_END);
            for (String claim : new TreeSet<>(claimsByReservation.getOrDefault(r.id(), List.of()))) {
                termination.start(claim, TerminationStart.because(REASON).by(deadline.isAfter(now) ? deadline : now)
                        .with(FirstSlice.QUEUED));
                started.add(claim);
            }
        }
        if (!started.isEmpty()) {
            System.getLogger(CapacityBlockExpiry.class.getName()).log(System.Logger.Level.INFO,
                    "sweep: draining " + started + ": their Capacity Block is expiring");
        }
        return started;
    }
}
