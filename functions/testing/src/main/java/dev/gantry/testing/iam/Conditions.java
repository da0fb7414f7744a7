package dev.gantry.testing.iam;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * A statement's Condition block, evaluated as AWS documents it ("Condition operators", "Creating a condition with
 * multiple keys or values"): every operator must hold and, within an operator, every key (AND); the policy values
 * of one key are alternatives (OR), and for a negated operator the request value must match none of them.
 *
 * <p>A key absent from the request makes a positive operator false and a negated one ({@code StringNotEquals},
 * {@code StringNotLike}, {@code ArnNotEquals}, {@code ArnNotLike}) true. {@code ...IfExists} is true when the key is
 * absent. {@code ForAllValues:} is true when every request value matches some policy value, hence also for an
 * absent or empty key; {@code ForAnyValue:} needs at least one matching value. {@code Null} tests presence.
 * An operator outside this set is an error, so a new construct in a policy cannot pass unexamined.
 */
final class Conditions {
    private Conditions() {
    }

    private record Operator(BiPredicate<String, String> matches, boolean negated) {
    }

    private static final Map<String, Operator> OPERATORS = Map.ofEntries(
            Map.entry("stringequals", new Operator(String::equals, false)),
            Map.entry("stringnotequals", new Operator(String::equals, true)),
            Map.entry("stringequalsignorecase", new Operator(String::equalsIgnoreCase, false)),
            Map.entry("stringnotequalsignorecase", new Operator(String::equalsIgnoreCase, true)),
            Map.entry("stringlike", new Operator((p, v) -> Wildcards.matches(p, v, false), false)),
            Map.entry("stringnotlike", new Operator((p, v) -> Wildcards.matches(p, v, false), true)),
            Map.entry("arnequals", new Operator(Wildcards::arnMatches, false)),
            Map.entry("arnlike", new Operator(Wildcards::arnMatches, false)),
            Map.entry("arnnotequals", new Operator(Wildcards::arnMatches, true)),
            Map.entry("arnnotlike", new Operator(Wildcards::arnMatches, true)),
            Map.entry("bool", new Operator(String::equalsIgnoreCase, false)));

    /** True when every operator of the block holds for the request. */
    static boolean hold(Map<String, Map<String, List<String>>> block, IamRequest request) {
        for (var op : block.entrySet()) {
            for (var key : op.getValue().entrySet()) {
                if (!holds(op.getKey(), key.getKey(), key.getValue(), request.values(key.getKey()))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * One operator on one key.
     *
     * @param actual the request's values for the key, null when absent
     */
    static boolean holds(String operator, String key, List<String> policyValues, List<String> actual) {
        String op = operator.toLowerCase(Locale.ROOT);
        if (op.equals("null")) {
            boolean absent = actual == null || actual.isEmpty();
            return policyValues.stream().anyMatch(v -> Boolean.parseBoolean(v) == absent);
        }
        String qualifier = "";
        int colon = op.indexOf(':');
        if (colon >= 0) {
            qualifier = op.substring(0, colon);
            op = op.substring(colon + 1);
        }
        boolean ifExists = op.endsWith("ifexists");
        if (ifExists) {
            op = op.substring(0, op.length() - "ifexists".length());
        }
        Operator o = OPERATORS.get(op);
        if (o == null) {
            throw new IllegalArgumentException("condition operator " + operator + " (key " + key
                    + ") is not supported by this evaluator");
        }
        switch (qualifier) {
            case "forallvalues" -> {
                if (actual == null || actual.isEmpty()) {
                    return true;
                }
                return actual.stream().allMatch(v -> single(o, policyValues, v));
            }
            case "foranyvalue" -> {
                if (actual == null || actual.isEmpty()) {
                    return false;
                }
                return actual.stream().anyMatch(v -> single(o, policyValues, v));
            }
            case "" -> {
                if (actual == null || actual.isEmpty()) {
                    return ifExists || o.negated();
                }
                if (actual.size() > 1) {
                    throw new IllegalArgumentException("key " + key + " is multivalued " + actual + "; " + operator
                            + " needs a ForAllValues: or ForAnyValue: qualifier");
                }
                return single(o, policyValues, actual.getFirst());
            }
            default -> throw new IllegalArgumentException("set qualifier in " + operator + " is not supported");
        }
    }

    private static boolean single(Operator o, List<String> policyValues, String value) {
        boolean any = policyValues.stream().anyMatch(p -> o.matches().test(p, value));
        return o.negated() != any;
    }
}
