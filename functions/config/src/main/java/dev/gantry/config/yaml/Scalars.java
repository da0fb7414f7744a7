package dev.gantry.config.yaml;

import dev.gantry.core.model.KubeDuration;
import dev.gantry.core.model.Quantity;
import java.time.Duration;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Typed reads of scalar nodes. Strings accept any scalar (YAML users write {@code value: 8} for a label value and
 * Kubernetes tooling quotes it for them); integers and booleans must be written as such, as the API server demands.
 */
public final class Scalars {
    private Scalars() {
    }

    /** {@code a mapping}, {@code a list}, {@code the string "x"}, {@code the integer 5}: for type errors. */
    public static String describe(Node n) {
        if (n instanceof MappingNode) {
            return "a mapping";
        }
        if (!(n instanceof ScalarNode s)) {
            return "a list";
        }
        Tag t = s.getTag();
        String kind = t.equals(Tag.INT) ? "the integer " : t.equals(Tag.FLOAT) ? "the number "
                : t.equals(Tag.BOOL) ? "the boolean " : t.equals(Tag.NULL) ? "null" : "the string ";
        return t.equals(Tag.NULL) ? kind : kind + (t.equals(Tag.STR) ? "\"" + s.getValue() + "\"" : s.getValue());
    }

    public static String string(Node n, String field, Report report) {
        if (n instanceof ScalarNode s) {
            return s.getValue();
        }
        report.error(n, field, "expected a string, got " + describe(n));
        return null;
    }

    /**
     * A value the API server types as a string: a plain or quoted YAML string only. An unquoted {@code 6},
     * {@code true} or {@code 8.0} reaches the API server as a number or boolean, which it refuses; {@code quoteHint}
     * adds how to write it instead.
     */
    public static String strictString(Node n, String field, Report report, boolean quoteHint) {
        if (n instanceof ScalarNode s && s.getTag().equals(Tag.STR)) {
            return s.getValue();
        }
        boolean scalar = n instanceof ScalarNode s && !s.getTag().equals(Tag.NULL);
        report.error(n, field, "expected a string, got " + describe(n)
                + (quoteHint && scalar ? " (quote it: \"" + ((ScalarNode) n).getValue() + "\")" : ""));
        return null;
    }

    public static Integer integer(Node n, String field, Report report) {
        if (n instanceof ScalarNode s && s.getTag().equals(Tag.INT)) {
            try {
                return Integer.decode(s.getValue().replace("_", ""));
            } catch (NumberFormatException e) {
                report.error(n, field, "integer " + s.getValue() + " is out of range");
                return null;
            }
        }
        report.error(n, field, "expected an integer, got " + describe(n));
        return null;
    }

    public static Boolean bool(Node n, String field, Report report) {
        if (n instanceof ScalarNode s && s.getTag().equals(Tag.BOOL)) {
            return Boolean.parseBoolean(s.getValue().toLowerCase(java.util.Locale.ROOT));
        }
        report.error(n, field, "expected true or false, got " + describe(n));
        return null;
    }

    /** A Kubernetes quantity; negative quantities are rejected, as no Gantry field means one. */
    public static Quantity quantity(Node n, String field, Report report) {
        String s = string(n, field, report);
        if (s == null) {
            return null;
        }
        try {
            Quantity q = Quantity.parse(s);
            if (q.isNegative()) {
                report.error(n, field, "quantity " + s + " is negative");
                return null;
            }
            return q;
        } catch (IllegalArgumentException e) {
            report.error(n, field, e.getMessage());
            return null;
        }
    }

    /**
     * A duration as Karpenter's CRDs accept it: whole units of h, m and s ({@code 30s}, {@code 336h},
     * {@code 24h0m0s}), or {@code Never} when {@code neverAllowed}. Returns null after reporting a problem.
     */
    public static Optional<Duration> duration(Node n, String field, Report report, boolean neverAllowed) {
        String s = string(n, field, report);
        if (s == null) {
            return null;
        }
        if (s.equals("Never")) {
            if (neverAllowed) {
                return Optional.empty();
            }
            report.error(n, field, "Never is not allowed here");
            return null;
        }
        if (!s.matches("([0-9]+(s|m|h))+")) {
            report.error(n, field, "'" + s + "' is not a duration (whole hours, minutes, seconds: 30s, 10m, 24h0m0s"
                    + (neverAllowed ? ", or Never)" : ")"));
            return null;
        }
        return Optional.of(KubeDuration.parse(s));
    }
}
