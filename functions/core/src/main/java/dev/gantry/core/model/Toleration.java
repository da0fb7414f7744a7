package dev.gantry.core.model;

import java.util.Collection;

/**
 * A pod toleration. An empty key with {@code Exists} tolerates everything; a null effect matches every effect.
 */
public record Toleration(String key, Operator operator, String value, Taint.Effect effect) {
    public enum Operator { Equal, Exists }

    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null ? Operator.Equal : operator;
        value = value == null ? "" : value;
    }

    public static Toleration exists(String key) {
        return new Toleration(key, Operator.Exists, "", null);
    }

    public static Toleration equal(String key, String value, Taint.Effect effect) {
        return new Toleration(key, Operator.Equal, value, effect);
    }

    /** Whether this toleration matches the taint, by the rules of {@code k8s.io/api/core/v1.Toleration.ToleratesTaint}. */
    public boolean tolerates(Taint taint) {
        if (effect != null && effect != taint.effect()) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case Exists -> true;
            case Equal -> value.equals(taint.value());
        };
    }

    /** True when some toleration in {@code tolerations} matches the taint. */
    public static boolean anyTolerates(Collection<Toleration> tolerations, Taint taint) {
        for (Toleration t : tolerations) {
            if (t.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first taint a pod with these tolerations cannot schedule onto, ignoring {@code PreferNoSchedule}
     * (a preference), or null when every hard taint is tolerated.
     */
    public static Taint firstUntolerated(Collection<Toleration> tolerations, Collection<Taint> taints) {
        for (Taint taint : taints) {
            if (taint.effect() != Taint.Effect.PreferNoSchedule && !anyTolerates(tolerations, taint)) {
                return taint;
            }
        }
        return null;
    }
}
