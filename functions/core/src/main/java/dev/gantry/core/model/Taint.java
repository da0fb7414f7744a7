package dev.gantry.core.model;

import java.util.Objects;

/** A node taint. {@code value} may be empty. */
public record Taint(String key, String value, Effect effect) {
    public enum Effect {
        NoSchedule, PreferNoSchedule, NoExecute;

        /** Parses the Kubernetes spelling, or throws with the allowed values. */
        public static Effect parse(String s) {
            for (Effect e : values()) {
                if (e.name().equals(s)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("'" + s + "' is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)");
        }
    }

    /** Karpenter's taint on nodes that are being disrupted. */
    public static final Taint DISRUPTED = new Taint("karpenter.sh/disrupted", "", Effect.NoSchedule);
    /** Kubernetes' taint on a node that was cordoned ({@code spec.unschedulable}). */
    public static final Taint UNSCHEDULABLE = new Taint("node.kubernetes.io/unschedulable", "", Effect.NoSchedule);

    public Taint {
        Objects.requireNonNull(key, "key");
        value = value == null ? "" : value;
        Objects.requireNonNull(effect, "effect");
    }

    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
