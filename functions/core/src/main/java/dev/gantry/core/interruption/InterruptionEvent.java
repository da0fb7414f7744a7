package dev.gantry.core.interruption;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An event that says an instance is going away, or may soon. Built from an {@link EventEnvelope} by {@link #from}.
 * Every kind names the instance and the time the event was emitted.
 */
public sealed interface InterruptionEvent {
    String instanceId();

    Instant time();

    /** The metric dimension value {@code Kind} for InterruptionEvents. */
    String kind();

    /** EC2 reclaims the spot instance two minutes after {@link #time()}. */
    record SpotInterruption(String instanceId, Instant time) implements InterruptionEvent {
        public String kind() { return "SpotInterruption"; }
    }

    /** EC2 says the spot instance is at elevated risk of interruption. */
    record RebalanceRecommendation(String instanceId, Instant time) implements InterruptionEvent {
        public String kind() { return "RebalanceRecommendation"; }
    }

    /** The instance changed state ({@code pending}, {@code running}, {@code stopping}, {@code stopped}, {@code shutting-down}, {@code terminated}). */
    record StateChange(String instanceId, Instant time, String state) implements InterruptionEvent {
        public String kind() { return "StateChange"; }

        /** The node is gone or going. */
        public boolean isGoing() {
            return switch (state) {
                case "stopping", "stopped", "shutting-down", "terminated" -> true;
                default -> false;
            };
        }

        public boolean isGone() {
            return state.equals("terminated") || state.equals("shutting-down");
        }
    }

    /**
     * Scheduled maintenance (retirement, reboot…) of this EC2 instance, from AWS Health or a DescribeInstanceStatus
     * event; {@code notBefore} (nullable) is when EC2 will act: AWS Health's {@code startTime}, the status event's
     * {@code NotBefore}.
     */
    record ScheduledChange(String instanceId, Instant time, String eventTypeCode, Instant notBefore) implements InterruptionEvent {
        /** Without a known date: drained with no deadline but the pool's grace period. */
        public ScheduledChange(String instanceId, Instant time, String eventTypeCode) {
            this(instanceId, time, eventTypeCode, null);
        }

        public String kind() { return "ScheduledChange"; }
    }

    /** An interruptible Capacity Reservation is reclaiming the instance; {@code terminationTime} may be null. */
    record CapacityReservationInterruption(String instanceId, Instant time, Instant terminationTime) implements InterruptionEvent {
        public String kind() { return "CapacityReservationInterruption"; }
    }

    /** An event of a kind Gantry does not act on (an AWS Health event for another service, say). */
    record Unsupported(String instanceId, Instant time, String description) implements InterruptionEvent {
        public String kind() { return "Unsupported"; }
    }

    /**
     * The events an EventBridge event carries: one for the EC2 kinds, one per affected entity for an AWS Health
     * scheduled change, and one {@link Unsupported} for anything else.
     *
     * @throws IllegalArgumentException when a recognised event lacks the fields it must have (a malformed message,
     *                                  to be retried and then dead-lettered)
     */
    static List<InterruptionEvent> from(EventEnvelope e) {
        Instant at = Objects.requireNonNull(e.time(), "event time");
        String detailType = e.detailType();
        if (e.source().equals("aws.health") && detailType.equals("AWS Health Event")) {
            return health(e, at);
        }
        if (!e.source().equals("aws.ec2")) {
            return List.of(new Unsupported(null, at, e.source() + " / " + detailType));
        }
        return switch (detailType) {
            case "EC2 Spot Instance Interruption Warning" -> List.of(new SpotInterruption(instanceId(e), at));
            case "EC2 Instance Rebalance Recommendation" -> List.of(new RebalanceRecommendation(instanceId(e), at));
            case "EC2 Instance State-change Notification" -> List.of(new StateChange(instanceId(e), at, required(e, "state")));
            case "EC2 Capacity Reservation Instance Interruption Warning" -> List.of(new CapacityReservationInterruption(
                    instanceId(e), at, e.field("instance-termination-time") == null ? null
                    : Instant.parse(e.field("instance-termination-time"))));
            default -> List.of(new Unsupported(e.field("instance-id"), at, "aws.ec2 / " + detailType));
        };
    }

    private static List<InterruptionEvent> health(EventEnvelope e, Instant at) {
        if (!"EC2".equals(e.field("service")) || !"scheduledChange".equals(e.field("eventTypeCategory"))) {
            return List.of(new Unsupported(null, at, "aws.health " + e.field("service") + " " + e.field("eventTypeCategory")));
        }
        if (e.affectedEntities().isEmpty()) {
            throw new IllegalArgumentException("AWS Health event " + e.id() + " has no affectedEntities");
        }
        List<InterruptionEvent> out = new ArrayList<>();
        for (String entity : e.affectedEntities()) {
            out.add(entity.startsWith("i-") ? new ScheduledChange(entity, at, e.field("eventTypeCode"), healthDate(e.field("startTime")))
                    : new Unsupported(entity, at, "aws.health entity " + entity + " is not an instance"));
        }
        return out;
    }

    /** AWS Health's dates are RFC 1123 ("Sun, 08 Jun 2025 09:00:00 GMT"); null when absent or unreadable. */
    static Instant healthDate(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return java.time.ZonedDateTime.parse(text, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private static String instanceId(EventEnvelope e) {
        String id = required(e, "instance-id");
        if (!id.startsWith("i-")) {
            throw new IllegalArgumentException("event " + e.id() + ": '" + id + "' is not an instance id");
        }
        return id;
    }

    private static String required(EventEnvelope e, String field) {
        String v = e.field(field);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("event " + e.id() + " (" + e.detailType() + ") has no detail." + field);
        }
        return v;
    }
}
