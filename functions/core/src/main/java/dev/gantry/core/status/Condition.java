package dev.gantry.core.status;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a Kubernetes object's {@code status.conditions}, as Karpenter's objects carry them: a {@code type}
 * (Launched, Ready…), a {@code status} of {@code True}, {@code False} or {@code Unknown}, a CamelCase {@code reason},
 * a human {@code message}, when the status last changed, and the object's {@code metadata.generation} it was set
 * against ({@code observedGeneration}; 0 when not known, and then not written).
 */
public record Condition(String type, Status status, String reason, String message, Instant lastTransitionTime,
                        long observedGeneration) {
    /** The three values the API allows. */
    public enum Status { True, False, Unknown }

    public Condition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
        if (reason == null || reason.isEmpty()) {
            reason = status.name(); // NodePool and EC2NodeClass conditions require a non-empty reason
        }
        message = message == null ? "" : message;
        if (observedGeneration < 0) {
            throw new IllegalArgumentException("observedGeneration must be >= 0, got " + observedGeneration);
        }
    }

    /** A condition set against no known generation. */
    public Condition(String type, Status status, String reason, String message, Instant lastTransitionTime) {
        this(type, status, reason, message, lastTransitionTime, 0);
    }

    /** This condition as set against {@code generation} of its object. */
    public Condition observing(long generation) {
        return new Condition(type, status, reason, message, lastTransitionTime, generation);
    }

    public static Condition isTrue(String type, String reason, Instant since) {
        return new Condition(type, Status.True, reason, "", since);
    }

    public static Condition isFalse(String type, String reason, String message, Instant since) {
        return new Condition(type, Status.False, reason, message, since);
    }

    public static Condition unknown(String type, String reason, String message, Instant since) {
        return new Condition(type, Status.Unknown, reason, message, since);
    }

    /**
     * This condition with the transition time {@code before} had, when {@code before} (same type) has the same status:
     * a condition whose status did not change keeps the time it last changed, as the API convention asks.
     */
    public Condition keepingTimeOf(Optional<Condition> before) {
        return before.filter(b -> b.type.equals(type) && b.status == status)
                .map(b -> new Condition(type, status, reason, message, b.lastTransitionTime, observedGeneration)).orElse(this);
    }

    /** The condition of {@code type} in {@code conditions}, if any. */
    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> c.type.equals(type)).findFirst();
    }
}
