package dev.gantry.core.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Go durations as Kubernetes and Karpenter write them: {@code 30s}, {@code 336h}, {@code 24h0m0s}, {@code 1.5h},
 * {@code 500ms}, {@code -1m}, {@code 0}; and Karpenter's {@code Never}, which is an empty {@link Optional}.
 *
 * <p>{@link #parse} accepts exactly what Go's {@code time.ParseDuration} accepts: an optional sign, then one or more
 * decimal numbers (fraction allowed) each with a unit (ns, us, µs, μs, ms, s, m, h); a bare {@code 0} is zero.
 * No whitespace, no days. Karpenter's CRDs are narrower ({@code ^(([0-9]+(s|m|h))+|Never)$}); the config loader
 * enforces that pattern before calling here.
 */
public final class KubeDuration {
    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L, "us", 1_000L, "\u00b5s", 1_000L, "\u03bcs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
    private static final String UNITS = " (units: ns, us, ms, s, m, h)";

    private KubeDuration() {
    }

    /** Parses a duration or {@code Never}; throws {@link IllegalArgumentException} with a readable message. */
    public static Optional<Duration> parseOrNever(String text) {
        if ("Never".equals(text)) {
            return Optional.empty();
        }
        return Optional.of(parse(text));
    }

    /** Parses a Go duration ({@code Never} is not allowed here). */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("duration is empty");
        }
        int at = 0;
        boolean negative = false;
        if (text.charAt(0) == '-' || text.charAt(0) == '+') {
            negative = text.charAt(0) == '-';
            at = 1;
        }
        if (text.substring(at).equals("0")) {
            return Duration.ZERO;
        }
        if (at == text.length()) {
            throw invalid(text, "");
        }
        BigInteger nanos = BigInteger.ZERO;
        while (at < text.length()) {
            int start = at;
            at = skipDigits(text, at);
            String whole = text.substring(start, at);
            String fraction = "";
            if (at < text.length() && text.charAt(at) == '.') {
                int from = at + 1;
                at = skipDigits(text, from);
                fraction = text.substring(from, at);
            }
            if (whole.isEmpty() && fraction.isEmpty()) {
                throw invalid(text, ""); // no digits: "h", ".s", "1h-2m"
            }
            int unitStart = at;
            while (at < text.length() && text.charAt(at) != '.' && !isDigit(text.charAt(at))) {
                at++;
            }
            String unit = text.substring(unitStart, at);
            if (unit.isEmpty()) {
                throw invalid(text, ": missing unit" + UNITS);
            }
            Long perUnit = NANOS_PER_UNIT.get(unit);
            if (perUnit == null) {
                throw invalid(text, ": unknown unit '" + unit + "'" + UNITS);
            }
            BigDecimal amount = new BigDecimal((whole.isEmpty() ? "0" : whole) + (fraction.isEmpty() ? "" : "." + fraction));
            // Go truncates the sub-nanosecond part of a fraction rather than rounding it.
            nanos = nanos.add(amount.multiply(BigDecimal.valueOf(perUnit)).setScale(0, RoundingMode.DOWN).toBigIntegerExact());
        }
        BigInteger signed = negative ? nanos.negate() : nanos;
        if (signed.bitLength() > 63) {
            throw invalid(text, ": out of range (at most about 2562047h)");
        }
        return Duration.ofNanos(signed.longValue());
    }

    private static int skipDigits(String s, int at) {
        while (at < s.length() && isDigit(s.charAt(at))) {
            at++;
        }
        return at;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("'" + text + "' is not a duration" + (why.isEmpty() ? " (e.g. 30s, 10m, 24h0m0s)" : why));
    }

    /** Formats as Go's {@code Duration.String()} does: {@code 1h30m0s}, {@code 30s}, {@code 1.5s}, {@code 500ms}; {@code Never} for empty. */
    public static String format(Optional<Duration> d) {
        return d.map(KubeDuration::format).orElse("Never");
    }

    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        long s = d.getSeconds();
        int nanos = d.getNano();
        if (s == 0) {
            // Go switches to the largest sub-second unit below one second.
            return nanos < 1_000 ? nanos + "ns" : nanos < 1_000_000 ? decimal(nanos, 3) + "\u00b5s" : decimal(nanos, 6) + "ms";
        }
        StringBuilder b = new StringBuilder();
        if (s >= 3600) {
            b.append(s / 3600).append('h');
            s %= 3600;
            b.append(s / 60).append('m');
            s %= 60;
        } else if (s >= 60) {
            b.append(s / 60).append('m');
            s %= 60;
        }
        return b.append(decimal(s * 1_000_000_000L + nanos, 9)).append('s').toString();
    }

    /** {@code value / 10^digits} written without trailing zeros: decimal(1500, 3) is "1.5". */
    private static String decimal(long value, int digits) {
        return BigDecimal.valueOf(value, digits).stripTrailingZeros().toPlainString();
    }
}
