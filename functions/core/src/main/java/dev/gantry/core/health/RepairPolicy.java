package dev.gantry.core.health;

import java.time.Duration;
import java.util.Objects;

/**
 * One line of the repair table: a node whose condition {@code type} has had {@code status} for {@code toleration},
 * counted from the condition's {@code lastTransitionTime}, is repaired (Karpenter's {@code cloudprovider.RepairPolicy}:
 * ConditionType, ConditionStatus, TolerationDuration).
 */
public record RepairPolicy(String type, String status, Duration toleration) {
    public RepairPolicy {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(toleration, "toleration");
    }
}
