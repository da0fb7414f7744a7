package dev.gantry.simulator.runtime;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a port call costs in virtual time, per {@link CallKind}: a uniform draw between the kind's bounds plus a cost
 * per item returned, times a scale. Draws come from their own seeded stream in call order, so a run is reproducible
 * and switching latency on or off shifts no other draw.
 */
public final class Latency {
    /** One kind's bounds. */
    public record Range(Duration min, Duration max) {
        public Range {
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("max " + max + " is below min " + min);
            }
        }
    }

    private final Map<CallKind, Range> ranges = new EnumMap<>(CallKind.class);
    private final double scale;
    private final SplittableRandom random;

    private Latency(Map<CallKind, Range> overrides, double scale, long seed) {
        for (CallKind k : CallKind.values()) {
            ranges.put(k, new Range(Duration.ofMillis(k.minMs()), Duration.ofMillis(k.maxMs())));
        }
        ranges.putAll(overrides);
        this.scale = scale;
        this.random = new SplittableRandom(seed ^ 0x1a7e9c7L);
    }

    /** AWS-like defaults ({@link CallKind}), with {@code overrides}, every figure times {@code scale} (0: instant). */
    public static Latency of(Map<CallKind, Range> overrides, double scale, long seed) {
        if (scale < 0) {
            throw new IllegalArgumentException("scale must not be negative");
        }
        return new Latency(overrides, scale, seed);
    }

    public static Latency none() {
        return new Latency(Map.of(), 0, 0);
    }

    public boolean instant() {
        return scale == 0;
    }

    /** The cost of one call of {@code kind} that returned {@code items} items. */
    public Duration draw(CallKind kind, int items) {
        if (scale == 0) {
            return Duration.ZERO;
        }
        Range r = ranges.get(kind);
        long min = r.min().toNanos();
        long span = r.max().toNanos() - min;
        long nanos = min + (span == 0 ? 0 : random.nextLong(span + 1)) + (long) items * kind.perItemMicros() * 1_000L;
        // Whole milliseconds, so that timelines and summaries stay readable and byte-stable.
        return Duration.ofMillis(Math.round(nanos * scale / 1e6));
    }
}
