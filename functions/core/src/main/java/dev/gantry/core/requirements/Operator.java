package dev.gantry.core.requirements;

/** Node selector operators: Kubernetes' six, plus Karpenter's {@code Gte} and {@code Lte}. */
public enum Operator {
    In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte;

    /** Parses the exact Kubernetes spelling, or throws naming the allowed operators. */
    public static Operator parse(String s) {
        for (Operator o : values()) {
            if (o.name().equals(s)) {
                return o;
            }
        }
        throw new IllegalArgumentException("'" + s + "' is not an operator (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte)");
    }

    public boolean isNumeric() {
        return this == Gt || this == Lt || this == Gte || this == Lte;
    }
}
