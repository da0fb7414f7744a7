package dev.gantry.core.model;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An immutable vector of resource amounts. CPU is held in millicores; memory and ephemeral storage in bytes;
 * pods and extended resources ({@code nvidia.com/gpu}, {@code aws.amazon.com/neuron}, …) in whole units.
 *
 * <p>The four core resources are fields rather than map entries because the scheduler adds and compares
 * them for every pod and candidate node; extended resources are rare and live in a small sorted map.
 */
public record Resources(long cpuMillis, long memoryBytes, long ephemeralBytes, long pods, Map<String, Long> extended) {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";
    public static final String NVIDIA_GPU = "nvidia.com/gpu";
    public static final String AMD_GPU = "amd.com/gpu";
    public static final String NEURON = "aws.amazon.com/neuron";
    public static final String NEURON_CORE = "aws.amazon.com/neuroncore";

    public static final Resources ZERO = new Resources(0, 0, 0, 0, Map.of());

    public Resources {
        Objects.requireNonNull(extended, "extended");
        extended = extended.isEmpty() ? Map.of() : withoutZeros(extended);
    }

    /** Sorted (so that anything printed or iterated is the same in every run) and without zero amounts. */
    private static Map<String, Long> withoutZeros(Map<String, Long> m) {
        if (m instanceof SortedExtended s) {
            return s; // already canonical: the common case when arithmetic produced it
        }
        TreeMap<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> {
            if (v != 0) {
                out.put(k, v);
            }
        });
        return out.isEmpty() ? Map.of() : new SortedExtended(out);
    }

    /** An unmodifiable sorted map of extended resources with no zero amounts. */
    private static final class SortedExtended extends java.util.AbstractMap<String, Long> {
        private final java.util.SortedMap<String, Long> m;

        SortedExtended(TreeMap<String, Long> m) {
            this.m = java.util.Collections.unmodifiableSortedMap(m);
        }

        @Override
        public java.util.Set<Entry<String, Long>> entrySet() {
            return m.entrySet();
        }

        @Override
        public Long get(Object key) {
            return m.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return m.containsKey(key);
        }

        @Override
        public int size() {
            return m.size();
        }
    }

    public static Resources of(long cpuMillis, long memoryBytes) {
        return new Resources(cpuMillis, memoryBytes, 0, 0, Map.of());
    }

    /** Builds a vector from named quantities, as a pod spec or a NodePool limit writes them. */
    public static Resources fromQuantities(Map<String, Quantity> named) {
        long cpu = 0, mem = 0, eph = 0, pods = 0;
        Map<String, Long> ext = new TreeMap<>();
        for (var e : named.entrySet()) {
            switch (e.getKey()) {
                case CPU -> cpu = e.getValue().toMillis();
                case MEMORY -> mem = e.getValue().toUnits();
                case EPHEMERAL_STORAGE -> eph = e.getValue().toUnits();
                case PODS -> pods = e.getValue().toUnits();
                default -> ext.put(e.getKey(), e.getValue().toUnits());
            }
        }
        return new Resources(cpu, mem, eph, pods, ext);
    }

    /** The amount of a named resource, in this record's units (millicores for cpu). Absent means zero. */
    public long get(String name) {
        return switch (name) {
            case CPU -> cpuMillis;
            case MEMORY -> memoryBytes;
            case EPHEMERAL_STORAGE -> ephemeralBytes;
            case PODS -> pods;
            default -> extended.getOrDefault(name, 0L);
        };
    }

    public Resources with(String name, long amount) {
        return switch (name) {
            case CPU -> new Resources(amount, memoryBytes, ephemeralBytes, pods, extended);
            case MEMORY -> new Resources(cpuMillis, amount, ephemeralBytes, pods, extended);
            case EPHEMERAL_STORAGE -> new Resources(cpuMillis, memoryBytes, amount, pods, extended);
            case PODS -> new Resources(cpuMillis, memoryBytes, ephemeralBytes, amount, extended);
            default -> {
                Map<String, Long> ext = new TreeMap<>(extended);
                ext.put(name, amount);
                yield new Resources(cpuMillis, memoryBytes, ephemeralBytes, pods, ext);
            }
        };
    }

    public Resources plus(Resources o) {
        return new Resources(cpuMillis + o.cpuMillis, memoryBytes + o.memoryBytes, ephemeralBytes + o.ephemeralBytes,
                pods + o.pods, combine(extended, o.extended, 1));
    }

    public Resources minus(Resources o) {
        return new Resources(cpuMillis - o.cpuMillis, memoryBytes - o.memoryBytes, ephemeralBytes - o.ephemeralBytes,
                pods - o.pods, combine(extended, o.extended, -1));
    }

    /** Component-wise maximum. */
    public Resources max(Resources o) {
        if (o == this || within(o)) {
            return this; // no copy when o adds nothing: the packer widens a claim's room once per kept type
        }
        Map<String, Long> ext = extended;
        if (!o.extended.isEmpty()) {
            Map<String, Long> m = new TreeMap<>(extended);
            o.extended.forEach((k, v) -> m.merge(k, v, Math::max));
            ext = m;
        }
        return new Resources(Math.max(cpuMillis, o.cpuMillis), Math.max(memoryBytes, o.memoryBytes),
                Math.max(ephemeralBytes, o.ephemeralBytes), Math.max(pods, o.pods), ext);
    }

    /** Whether every component of {@code o} is at most this one's. */
    private boolean within(Resources o) {
        if (o.cpuMillis > cpuMillis || o.memoryBytes > memoryBytes || o.ephemeralBytes > ephemeralBytes || o.pods > pods) {
            return false;
        }
        for (var e : o.extended.entrySet()) {
            Long have = extended.get(e.getKey());
            if (have == null || have < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Multiplies every amount by {@code n}. */
    public Resources times(long n) {
        Map<String, Long> ext = extended;
        if (!ext.isEmpty()) {
            Map<String, Long> m = new TreeMap<>();
            extended.forEach((k, v) -> m.put(k, v * n));
            ext = m;
        }
        return new Resources(cpuMillis * n, memoryBytes * n, ephemeralBytes * n, pods * n, ext);
    }

    private static Map<String, Long> combine(Map<String, Long> a, Map<String, Long> b, int sign) {
        if (b.isEmpty()) {
            return a;
        }
        Map<String, Long> m = new TreeMap<>(a);
        b.forEach((k, v) -> m.merge(k, sign * v, Long::sum));
        return m;
    }

    /** True when every amount requested here is at most what {@code capacity} has. */
    public boolean fitsIn(Resources capacity) {
        if (cpuMillis > capacity.cpuMillis || memoryBytes > capacity.memoryBytes
                || ephemeralBytes > capacity.ephemeralBytes || pods > capacity.pods) {
            return false;
        }
        for (var e : extended.entrySet()) {
            if (e.getValue() > capacity.extended.getOrDefault(e.getKey(), 0L)) {
                return false;
            }
        }
        return true;
    }

    /** The first resource named in this vector that exceeds {@code capacity}, or null when it fits. */
    public String firstExceeding(Resources capacity) {
        if (cpuMillis > capacity.cpuMillis) {
            return CPU;
        }
        if (memoryBytes > capacity.memoryBytes) {
            return MEMORY;
        }
        if (ephemeralBytes > capacity.ephemeralBytes) {
            return EPHEMERAL_STORAGE;
        }
        if (pods > capacity.pods) {
            return PODS;
        }
        for (var e : extended.entrySet()) {
            if (e.getValue() > capacity.extended.getOrDefault(e.getKey(), 0L)) {
                return e.getKey();
            }
        }
        return null;
    }

    public boolean isZero() {
        return cpuMillis == 0 && memoryBytes == 0 && ephemeralBytes == 0 && pods == 0 && extended.isEmpty();
    }

    /** No negative component (a subtraction that went below zero means something does not fit). */
    public boolean isNonNegative() {
        if (cpuMillis < 0 || memoryBytes < 0 || ephemeralBytes < 0 || pods < 0) {
            return false;
        }
        for (long v : extended.values()) {
            if (v < 0) {
                return false;
            }
        }
        return true;
    }

    /** Every resource name with a non-zero amount, core resources first. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        if (cpuMillis != 0) m.put(CPU, cpuMillis);
        if (memoryBytes != 0) m.put(MEMORY, memoryBytes);
        if (ephemeralBytes != 0) m.put(EPHEMERAL_STORAGE, ephemeralBytes);
        if (pods != 0) m.put(PODS, pods);
        m.putAll(extended);
        return m;
    }

    /** Human form: {@code cpu=1500m memory=2Gi pods=3}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        asMap().forEach((k, v) -> {
            if (!b.isEmpty()) b.append(' ');
            b.append(k).append('=').append(format(k, v));
        });
        return b.isEmpty() ? "{}" : b.toString();
    }

    /** Formats one amount in the unit people write it in: millicores, binary bytes, or a count. */
    public static String format(String name, long v) {
        if (name.equals(CPU)) {
            return v % 1000 == 0 ? Long.toString(v / 1000) : v + "m";
        }
        if (name.equals(MEMORY) || name.equals(EPHEMERAL_STORAGE)) {
            String[] units = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
            int i = 0;
            while (i < units.length - 1 && v != 0 && v % 1024 == 0) {
                v /= 1024;
                i++;
            }
            return v + units[i];
        }
        return Long.toString(v);
    }
}
