package dev.gantry.core.model;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go-style durations as Kubernetes and Karpenter write them: {@code 30s}, {@code 336h}, {@code 24h0m0s},
 * {@code 1.5h}, {@code 500ms}; and Karpenter's {@code Never}, which is an empty {@link Optional}.
 */
public final class KubeDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

    private KubeDuration() {
    }

    /** Parses a duration or {@code Never}; throws {@link IllegalArgumentException} with a readable message. */
    public static Optional<Duration> parseOrNever(String text) {
        if (text != null && text.trim().equals("Never")) {
            return Optional.empty();
        }
        return Optional.of(parse(text));
    }

    /** Parses a duration ({@code Never} is not allowed here). */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("duration is empty");
        }
        String s = text.trim();
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        long nanos = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 30s, 10m, 24h0m0s)");
            }
            double amount = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us", "µs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos = Math.addExact(nanos, Math.round(amount * unit));
            at = m.end();
        }
        return Duration.ofNanos(nanos);
    }

    /** Formats as Go does for whole seconds: {@code 1h30m0s}, {@code 30s}; {@code Never} for empty. */
    public static String format(Optional<Duration> d) {
        return d.map(KubeDuration::format).orElse("Never");
    }

    public static String format(Duration d) {
        long s = d.toSeconds();
        if (s == 0) {
            return "0s";
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
        return b.append(s).append('s').toString();
    }
}
