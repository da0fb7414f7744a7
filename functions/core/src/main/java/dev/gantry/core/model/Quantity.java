package dev.gantry.core.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 250m}, {@code 1.5}, {@code 100Gi}, {@code 1e3}, {@code 2k}), held exactly.
 *
 * <p>Parsing follows {@code k8s.io/apimachinery/pkg/api/resource}: a signed decimal number followed by
 * a binary SI suffix (Ki … Ei), a decimal SI suffix (n, u, m, "", k, M, G, T, P, E) or a decimal exponent
 * ({@code e3}, {@code E-2}). Conversions to whole units round up, as the API server does for requests.
 */
public record Quantity(BigDecimal value) implements Comparable<Quantity> {
    private static final Pattern SYNTAX =
            Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\\d+)?");
    public static final Quantity ZERO = new Quantity(BigDecimal.ZERO);

    public Quantity {
        Objects.requireNonNull(value, "value");
    }

    /** Parses a quantity, or throws {@link IllegalArgumentException} with a message fit for a person. */
    public static Quantity parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("quantity is empty");
        }
        // No trimming: Kubernetes rejects " 1" and "1 " too.
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity (e.g. 250m, 1.5, 512Mi, 100Gi)");
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2);
        try {
            return new Quantity(number.multiply(multiplier(suffix)).stripTrailingZeros());
        } catch (NumberFormatException | ArithmeticException e) {
            // Kubernetes reads the exponent as a 32-bit integer; beyond that the suffix is rejected.
            throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity: exponent out of range");
        }
    }

    private static BigDecimal multiplier(String suffix) {
        if (suffix == null || suffix.isEmpty()) {
            return BigDecimal.ONE;
        }
        return switch (suffix) {
            case "Ki" -> BigDecimal.valueOf(1L << 10);
            case "Mi" -> BigDecimal.valueOf(1L << 20);
            case "Gi" -> BigDecimal.valueOf(1L << 30);
            case "Ti" -> BigDecimal.valueOf(1L << 40);
            case "Pi" -> BigDecimal.valueOf(1L << 50);
            case "Ei" -> BigDecimal.valueOf(1L << 60);
            case "n" -> new BigDecimal("1e-9");
            case "u" -> new BigDecimal("1e-6");
            case "m" -> new BigDecimal("1e-3");
            case "k" -> new BigDecimal("1e3");
            case "M" -> new BigDecimal("1e6");
            case "G" -> new BigDecimal("1e9");
            case "T" -> new BigDecimal("1e12");
            case "P" -> new BigDecimal("1e15");
            case "E" -> new BigDecimal("1e18");
            default -> BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        };
    }

    public static Quantity ofMillis(long millis) {
        return new Quantity(BigDecimal.valueOf(millis, 3).stripTrailingZeros());
    }

    public static Quantity of(long units) {
        return new Quantity(BigDecimal.valueOf(units));
    }

    /** The value in thousandths, rounded up (a CPU of {@code 0.0001} is 1m, as Kubernetes rounds). */
    public long toMillis() {
        return value.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** The value in whole units (bytes, pods, devices), rounded up. */
    public long toUnits() {
        return value.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    public boolean isNegative() {
        return value.signum() < 0;
    }

    @Override
    public int compareTo(Quantity o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return value.toPlainString();
    }
}
