package dev.gantry.core.requirements;

import java.util.List;
import java.util.Objects;

/**
 * One requirement as users write it in a NodePool or a pod's node affinity: key, operator, values and
 * Karpenter's optional {@code minValues}. {@link #validate()} states what Kubernetes and Karpenter reject.
 */
public record Requirement(String key, Operator operator, List<String> values, Integer minValues) {
    public Requirement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        values = values == null ? List.of() : List.copyOf(values);
    }

    public static Requirement of(String key, Operator op, String... values) {
        return new Requirement(key, op, List.of(values), null);
    }

    /**
     * The first problem with this requirement as written, or null when it is well formed:
     * In/NotIn need values; Exists/DoesNotExist take none; Gt/Lt/Gte/Lte take exactly one integer;
     * minValues is at least 1 and, with In, at most the number of values.
     */
    public String validate() {
        switch (operator) {
            case In, NotIn -> {
                if (values.isEmpty()) {
                    return "operator " + operator + " needs at least one value";
                }
            }
            case Exists, DoesNotExist -> {
                if (!values.isEmpty()) {
                    return "operator " + operator + " takes no values";
                }
            }
            default -> {
                if (values.size() != 1) {
                    return "operator " + operator + " takes exactly one value";
                }
                try {
                    Long.parseLong(values.get(0));
                } catch (NumberFormatException e) {
                    return "operator " + operator + " needs an integer value, not '" + values.get(0) + "'";
                }
            }
        }
        if (minValues != null) {
            if (minValues < 1) {
                return "minValues must be at least 1";
            }
            if (operator == Operator.In && minValues > values.size()) {
                return "minValues " + minValues + " is more than the " + values.size() + " values given";
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return key + " " + operator + (values.isEmpty() ? "" : " " + values) + (minValues == null ? "" : " minValues " + minValues);
    }
}
