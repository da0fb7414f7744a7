package dev.gantry.core.interruption;

import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.disruption.Rebalance;
import dev.gantry.core.interruption.InterruptionCommand.EmitMetric;
import dev.gantry.core.interruption.InterruptionCommand.FlagRebalance;
import dev.gantry.core.interruption.InterruptionCommand.HintReplacement;
import dev.gantry.core.interruption.InterruptionCommand.Ignore;
import dev.gantry.core.interruption.InterruptionCommand.MarkUnavailable;
import dev.gantry.core.interruption.InterruptionCommand.RecordEvent;
import dev.gantry.core.interruption.InterruptionCommand.StartTermination;
import dev.gantry.core.interruption.InterruptionEvent.CapacityReservationInterruption;
import dev.gantry.core.interruption.InterruptionEvent.RebalanceRecommendation;
import dev.gantry.core.interruption.InterruptionEvent.ScheduledChange;
import dev.gantry.core.interruption.InterruptionEvent.SpotInterruption;
import dev.gantry.core.interruption.InterruptionEvent.StateChange;
import dev.gantry.core.interruption.InterruptionEvent.Unsupported;
import dev.gantry.core.lifecycle.NodeClaim;
import dev.gantry.core.lifecycle.NodeClaimState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Event → commands. For a claim Gantry owns that is not deleting yet:
 * <table>
 *   <caption>The commands per event</caption>
 *   <tr><th>event</th><th>commands</th></tr>
 *   <tr><td>EC2 Spot Instance Interruption Warning</td><td>metric; the offering (type, zone, capacity type) unavailable
 *       for {@link #UNAVAILABLE_FOR}; a Warning Event; a replacement hint with the node's pods, so that new capacity
 *       launches while the node drains; termination with the deadline {@link #SPOT_NOTICE} after the warning</td></tr>
 *   <tr><td>EC2 Capacity Reservation Instance Interruption Warning</td><td>as the spot warning, with the deadline the
 *       event names (else {@link #SPOT_NOTICE} after it)</td></tr>
 *   <tr><td>EC2 Instance Rebalance Recommendation</td><td>metric and a Normal Event; with the NodePool annotation
 *       {@value #REBALANCE_ANNOTATION}{@code : "true"} ({@link #rebalanceOptedIn}) on a spot node, its offering unavailable for
 *       {@link Rebalance#AVOID_FOR} and the node labelled for the sweep's rebalance command ({@link Rebalance})</td></tr>
 *   <tr><td>EC2 Instance State-change Notification, stopping, stopped, shutting-down or terminated</td><td>metric, a
 *       Warning Event, the replacement hint, termination (with the deadline now when the instance is already gone:
 *       the flow deletes the pods and cleans up at once); any other state is ignored</td></tr>
 *   <tr><td>AWS Health scheduled change (EC2, one event per instance), or a DescribeInstanceStatus scheduled
 *       event</td><td>metric, a Warning Event, the replacement hint, termination; with the event's date known, by
 *       {@link #SCHEDULED_MARGIN} before it (Gantry's own: Karpenter drains with no deadline, so a PDB could hold the
 *       node until EC2 stops it under its pods)</td></tr>
 * </table>
 * An unsupported event, an instance Gantry does not own (no claim) and a claim already Terminated are ignored
 * ({@link Ignore}).
 *
 * <p>Pure: the claim (looked up by instance id) and its drain's deadline carry all the state needed, so a duplicate or
 * late event changes nothing ({@link Ignore}). A claim whose deletion has begun is left to its flow, except that a
 * reclaim (spot warning, capacity-reservation interruption, instance gone) earlier than the flow's deadline still caps
 * it and marks the offering unavailable.
 */
public final class InterruptionDecision {
    /** EC2 reclaims a spot instance two minutes after the warning. */
    public static final Duration SPOT_NOTICE = Duration.ofMinutes(2);
    /** How long an interrupted offering is kept from the provisioner: as long as one that ran out of capacity. */
    public static final Duration UNAVAILABLE_FOR = Duration.ofMinutes(3);
    /**
     * A scheduled event's drain turns forceful this long before the event's date (Gantry's own): time for the pods'
     * own grace periods before EC2 stops or reboots the instance.
     */
    public static final Duration SCHEDULED_MARGIN = Duration.ofMinutes(5);
    /** The NodePool annotation that opts into replacing nodes on a rebalance recommendation ({@link Rebalance}). */
    public static final String REBALANCE_ANNOTATION = Rebalance.ANNOTATION;

    private InterruptionDecision() {
    }

    /**
     * Whether a NodePool opted into replacing its nodes on a rebalance recommendation: {@value #REBALANCE_ANNOTATION}
     * {@code "true"}, or {@code "replace"} (its first spelling, still read). Gantry's own: Karpenter only records an Event
     * (aws/karpenter-provider-aws#2813).
     */
    public static boolean rebalanceOptedIn(Map<String, String> poolAnnotations) {
        return Rebalance.optedIn(poolAnnotations);
    }

    /**
     * The commands for one event.
     *
     * @param claim           the NodeClaim for the event's instance, if Gantry owns it
     * @param poolAnnotations the claim's NodePool annotations (empty if unknown)
     * @param now             when the decision is taken (deadlines are counted from the event's own time)
     */
    public static List<InterruptionCommand> decide(InterruptionEvent event, Optional<NodeClaim> claim,
                                                   Map<String, String> poolAnnotations, Instant now) {
        return decide(event, claim, poolAnnotations, Optional.empty(), now);
    }

    /**
     * The commands for one event.
     *
     * @param claim           the NodeClaim for the event's instance, if Gantry owns it
     * @param poolAnnotations the claim's NodePool annotations (empty if unknown)
     * @param deadline        the claim's current termination deadline, if its drain has one
     * @param now             when the decision is taken (deadlines are counted from the event's own time)
     */
    public static List<InterruptionCommand> decide(InterruptionEvent event, Optional<NodeClaim> claim,
                                                   Map<String, String> poolAnnotations, Optional<Instant> deadline,
                                                   Instant now) {
        if (event instanceof Unsupported u) {
            return List.of(new Ignore("unsupported event: " + u.description()));
        }
        if (claim.isEmpty()) {
            return List.of(new Ignore("instance " + event.instanceId() + " is not owned by Gantry"));
        }
        NodeClaim c = claim.get();
        if (c.state() == NodeClaimState.Terminated) {
            return List.of(new Ignore("nodeclaim " + c.name() + " is already " + c.state()));
        }
        if (c.state().isDeleting()) {
            return alreadyDeleting(c, event, deadline, now);
        }
        return switch (event) {
            case SpotInterruption s -> reclaim(c, s, s.time().plus(SPOT_NOTICE), now);
            case CapacityReservationInterruption r ->
                    reclaim(c, r, r.terminationTime() != null ? r.terminationTime() : r.time().plus(SPOT_NOTICE), now);
            case RebalanceRecommendation r -> rebalance(c, r, poolAnnotations, now);
            case StateChange s -> stateChange(c, s, now);
            case ScheduledChange h -> List.of(new EmitMetric(h.kind()),
                    new RecordEvent(c.name(), "Warning", "ScheduledChange", "AWS Health scheduled change " + h.eventTypeCode()),
                    new HintReplacement(c.name(), "replacement"),
                    StartTermination.drain(c.name(), "scheduled-change", scheduledDeadline(h, now)));
            case Unsupported u -> List.of(new Ignore(u.description()));
        };
    }

    /**
     * A node already draining (emptiness, expiry, a rebalance…) still has to go by the reclaim's deadline, and its
     * offering must not be picked again: a reclaim whose deadline is earlier than the drain's is acted on in full
     * (the flow's grace period shrinks to the new deadline). A replay of the reclaim whose flow has not begun its
     * first slice starts that slice; any other replay, or any other kind of event, changes nothing.
     */
    private static List<InterruptionCommand> alreadyDeleting(NodeClaim c, InterruptionEvent event, Optional<Instant> current,
                                                             Instant now) {
        Instant reclaimAt = switch (event) {
            case SpotInterruption s -> s.time().plus(SPOT_NOTICE);
            case CapacityReservationInterruption r -> r.terminationTime() != null ? r.terminationTime() : r.time().plus(SPOT_NOTICE);
            case StateChange s when s.isGone() -> now;
            default -> null;
        };
        if (reclaimAt != null && current.isPresent() && reclaimAt.equals(current.get()) && c.drainStep() == 0) {
            // This very reclaim again, and its flow never began a slice: the delivery that marked the claim died or
            // failed before the first slice (which sends the flow's next message), so nothing carries the flow on
            // but the sweep's stall check, minutes away, past the reclaim. Start it again (the first slice now).
            return List.of(StartTermination.drain(c.name(), c.deletionReason(), reclaimAt));
        }
        if (reclaimAt == null || (current.isPresent() && !reclaimAt.isBefore(current.get()))) {
            return List.of(new Ignore("nodeclaim " + c.name() + " is already " + c.state()));
        }
        if (event instanceof StateChange s) {
            return List.of(new EmitMetric(s.kind()), StartTermination.drain(c.name(), "instance-" + s.state(), reclaimAt));
        }
        return reclaim(c, event, reclaimAt, now);
    }

    private static List<InterruptionCommand> reclaim(NodeClaim c, InterruptionEvent e, Instant deadline, Instant now) {
        List<InterruptionCommand> out = new ArrayList<>();
        out.add(new EmitMetric(e.kind()));
        if (c.instanceType() != null && c.zone() != null && c.capacityType() != null) {
            out.add(new MarkUnavailable(new OfferingKey(c.instanceType(), c.zone(), c.capacityType()), now.plus(UNAVAILABLE_FOR)));
        }
        out.add(new RecordEvent(c.name(), "Warning", e.kind(), "instance " + e.instanceId() + " is being reclaimed at " + deadline));
        out.add(new HintReplacement(c.name(), "interruption"));
        out.add(StartTermination.drain(c.name(), "interruption", deadline));
        return out;
    }

    private static List<InterruptionCommand> rebalance(NodeClaim c, RebalanceRecommendation r, Map<String, String> annotations,
                                                       Instant now) {
        List<InterruptionCommand> out = new ArrayList<>();
        out.add(new EmitMetric(r.kind()));
        out.add(new RecordEvent(c.name(), "Normal", "RebalanceRecommendation", "instance " + r.instanceId() + " is at elevated risk of interruption"));
        if (rebalanceOptedIn(annotations) && "spot".equals(c.capacityType())) {
            // Gantry's own (aws/karpenter-provider-aws#2813): the sweep replaces the node through a REBALANCE command
            // (replacement first, then the drain, within budgets). Here only what a duplicate may repeat harmlessly:
            // the offering kept from the provisioner (so the replacement goes elsewhere) and the node's label.
            if (c.instanceType() != null && c.zone() != null) {
                out.add(new MarkUnavailable(new OfferingKey(c.instanceType(), c.zone(), c.capacityType()), now.plus(Rebalance.AVOID_FOR)));
            }
            out.add(new FlagRebalance(c.name()));
        }
        return out;
    }

    private static List<InterruptionCommand> stateChange(NodeClaim c, StateChange s, Instant now) {
        if (!s.isGoing()) {
            return List.of(new Ignore("instance " + s.instanceId() + " is " + s.state()));
        }
        // An instance that is already gone cannot be drained gracefully: the deadline is now, so the flow deletes the
        // pods, skips the volume wait and cleans up at once.
        Instant deadline = s.isGone() ? now : null;
        return List.of(new EmitMetric(s.kind()),
                new RecordEvent(c.name(), "Warning", "InstanceStateChange", "instance " + s.instanceId() + " is " + s.state()),
                new HintReplacement(c.name(), "interruption"),
                StartTermination.drain(c.name(), "instance-" + s.state(), deadline));
    }

    /** {@link #SCHEDULED_MARGIN} before the event's date, and not before now; null when the date is unknown. */
    static Instant scheduledDeadline(ScheduledChange h, Instant now) {
        if (h.notBefore() == null) {
            return null;
        }
        Instant d = h.notBefore().minus(SCHEDULED_MARGIN);
        return d.isBefore(now) ? now : d;
    }
}
