package dev.gantry.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One of a node's {@code status.conditions}: the kubelet's ({@code Ready}, {@code MemoryPressure}…) or a node agent's
 * (the EKS node monitoring agent's {@code KernelReady}, {@code AcceleratedHardwareReady}…, Node Problem Detector's).
 *
 * @param type               the condition's type, e.g. {@code Ready}
 * @param status             {@code True}, {@code False} or {@code Unknown}, as the API spells them
 * @param lastTransitionTime when the status last changed, or null when the writer did not say
 */
public record NodeCondition(String type, String status, Instant lastTransitionTime) {
    public static final String READY = "Ready";
    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    public NodeCondition {
        Objects.requireNonNull(type, "type");
        status = status == null ? UNKNOWN : status;
    }
}
