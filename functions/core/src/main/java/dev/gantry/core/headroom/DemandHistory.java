package dev.gantry.core.headroom;

import dev.gantry.core.model.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Pending demand per NodePool by hour, the input of predicted buffers. A sample is the most cpu and memory that pods
 * waiting for a pool requested at once within one clock hour (UTC); recording takes the maximum, so recording the
 * same observation twice changes nothing (at-least-once safe). The expected demand for an hour of the week is a
 * quantile over the same hour in each of the last {@link #WEEKS} weeks, a week without a sample counting as zero
 * once the pool has been observed.
 *
 * @param samples by pool, ordered by hour
 */
public record DemandHistory(List<Sample> samples) {
    /** Weeks of history kept and consulted. */
    public static final int WEEKS = 8;
    static final long HOURS_PER_WEEK = 168;
    /** 1970-01-01 was a Thursday: 72 hours after the Monday that starts hour-of-week 0. */
    private static final long EPOCH_HOUR_OF_WEEK = 72;

    public static final DemandHistory EMPTY = new DemandHistory(List.of());

    public DemandHistory {
        samples = samples.stream().sorted(Comparator.comparing(Sample::nodePool).thenComparingLong(Sample::epochHour))
                .toList();
    }

    /**
     * One hour's peak pending demand for a pool.
     *
     * @param epochHour hours since 1970-01-01T00:00Z
     */
    public record Sample(String nodePool, long epochHour, long cpuMillis, long memoryBytes) {
        public Sample {
            Objects.requireNonNull(nodePool, "nodePool");
            if (cpuMillis < 0 || memoryBytes < 0) {
                throw new IllegalArgumentException("demand must not be negative");
            }
        }

        Sample max(Sample o) {
            return new Sample(nodePool, epochHour, Math.max(cpuMillis, o.cpuMillis), Math.max(memoryBytes, o.memoryBytes));
        }
    }

    /** Hours since the epoch of the hour containing {@code at}. */
    public static long epochHour(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), 3600);
    }

    /** 0 (Monday 00:00-01:00 UTC) to 167 (Sunday 23:00-24:00 UTC). */
    public static int hourOfWeek(Instant at) {
        return (int) Math.floorMod(epochHour(at) + EPOCH_HOUR_OF_WEEK, HOURS_PER_WEEK);
    }

    /** This history with {@code pending} (what waiting pods of {@code nodePool} request at {@code at}) recorded. */
    public DemandHistory record(String nodePool, Instant at, Resources pending) {
        Sample s = new Sample(nodePool, epochHour(at), pending.cpuMillis(), pending.memoryBytes());
        Map<String, Sample> m = new TreeMap<>();
        for (Sample x : samples) {
            m.put(x.nodePool() + "#" + x.epochHour(), x);
        }
        m.merge(nodePool + "#" + s.epochHour(), s, Sample::max);
        return new DemandHistory(List.copyOf(m.values()));
    }

    /** Without samples too old to be consulted at {@code now}. */
    public DemandHistory prune(Instant now) {
        long oldest = epochHour(now) - WEEKS * HOURS_PER_WEEK;
        return new DemandHistory(samples.stream().filter(s -> s.epochHour() >= oldest).toList());
    }

    /**
     * The expected demand of {@code nodePool} in the hour containing {@code hour}: per resource, the nearest-rank
     * {@code quantile} of that hour of the week in each of the last {@link #WEEKS} weeks before it (weeks before the
     * pool's first sample are not counted). Zero without any observation.
     */
    public Resources quantile(String nodePool, Instant hour, double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1], got " + quantile);
        }
        List<Sample> pool = samples.stream().filter(s -> s.nodePool().equals(nodePool)).toList();
        if (pool.isEmpty()) {
            return Resources.ZERO;
        }
        long first = pool.getFirst().epochHour();
        long target = epochHour(hour);
        List<long[]> weeks = new ArrayList<>();
        for (int w = 1; w <= WEEKS; w++) {
            long h = target - w * HOURS_PER_WEEK;
            if (h < first) {
                break;
            }
            Sample s = pool.stream().filter(x -> x.epochHour() == h).findFirst().orElse(null);
            weeks.add(s == null ? new long[] {0, 0} : new long[] {s.cpuMillis(), s.memoryBytes()});
        }
        if (weeks.isEmpty()) {
            return Resources.ZERO;
        }
        return Resources.of(rank(weeks, 0, quantile), rank(weeks, 1, quantile));
    }

    /** How many past weeks {@link #quantile} would consult for the hour containing {@code hour}. */
    public int weeksObserved(String nodePool, Instant hour) {
        long first = samples.stream().filter(s -> s.nodePool().equals(nodePool)).mapToLong(Sample::epochHour).min()
                .orElse(Long.MAX_VALUE);
        long target = epochHour(hour);
        int n = 0;
        for (int w = 1; w <= WEEKS && target - w * HOURS_PER_WEEK >= first; w++) {
            n++;
        }
        return n;
    }

    private static long rank(List<long[]> weeks, int i, double q) {
        long[] v = weeks.stream().mapToLong(a -> a[i]).sorted().toArray();
        int r = (int) Math.ceil(q * v.length); // nearest rank, 1-based
        return v[Math.max(1, r) - 1];
    }

    @Override
    public String toString() {
        return "DemandHistory" + Arrays.toString(samples.toArray());
    }
}
