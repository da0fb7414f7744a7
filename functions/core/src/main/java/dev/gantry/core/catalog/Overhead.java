package dev.gantry.core.catalog;

import dev.gantry.core.model.Quantity;
import dev.gantry.core.model.Resources;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * What a node keeps back from pods: the kubelet's kube-reserved and system-reserved amounts and the hard eviction
 * threshold. Allocatable is capacity minus {@link #total()}.
 *
 * <p>The defaults are Karpenter's (the EKS-optimised AMIs' bootstrap values): kube-reserved CPU in tiers of the core
 * count, kube-reserved memory {@code 11Mi × pods + 255Mi}, kube-reserved ephemeral storage {@code 1Gi}, no
 * system-reserved, and hard eviction at {@code memory.available < 100Mi} and {@code nodefs.available < 10%}.
 * The NodeClass kubelet's {@code kubeReserved}, {@code systemReserved} and {@code evictionHard} replace them key by key.
 * {@code evictionSoft} does not change allocatable: it only warns before the hard threshold, and Karpenter leaves it
 * out of the calculation.
 */
public record Overhead(Resources kubeReserved, Resources systemReserved, Resources evictionThreshold) {
    public static final String MEMORY_AVAILABLE = "memory.available";
    public static final String NODEFS_AVAILABLE = "nodefs.available";
    private static final long MI = 1L << 20;
    private static final long GI = 1L << 30;

    /** Karpenter's CPU tiers, from Bottlerocket: {start, end, fraction} in millicores. */
    private static final double[][] CPU_TIERS = {
            {0, 1000, 0.06}, {1000, 2000, 0.01}, {2000, 4000, 0.005}, {4000, 1L << 31, 0.0025}};

    public Overhead {
        Objects.requireNonNull(kubeReserved, "kubeReserved");
        Objects.requireNonNull(systemReserved, "systemReserved");
        Objects.requireNonNull(evictionThreshold, "evictionThreshold");
    }

    public Resources total() {
        return kubeReserved.plus(systemReserved).plus(evictionThreshold);
    }

    /**
     * Default kube-reserved CPU for a node of {@code cpuMillis}: 6% of the first core, 1% of the second, 0.5% of the
     * third and fourth, 0.25% of the rest. Each tier is truncated to whole millicores before summing, as Karpenter does.
     */
    public static long kubeReservedCpuMillis(long cpuMillis) {
        long total = 0;
        for (double[] tier : CPU_TIERS) {
            long start = (long) tier[0];
            long end = (long) tier[1];
            if (cpuMillis >= start) {
                double span = cpuMillis < end ? cpuMillis - start : end - start;
                total += (long) (span * tier[2]);
            }
        }
        return total;
    }

    /** Default kube-reserved memory in bytes: {@code 11Mi} per pod plus {@code 255Mi}. */
    public static long kubeReservedMemoryBytes(long pods) {
        return (11 * pods + 255) * MI;
    }

    /** Kube-reserved: the defaults with any {@code kubelet.kubeReserved} entries in their place. */
    public static Resources kubeReserved(long cpuMillis, long podsForMemory, Map<String, Quantity> overrides) {
        Resources defaults = new Resources(kubeReservedCpuMillis(cpuMillis), kubeReservedMemoryBytes(podsForMemory),
                GI, 0, Map.of());
        return override(defaults, overrides);
    }

    /** System-reserved: exactly the {@code kubelet.systemReserved} entries (none by default). */
    public static Resources systemReserved(Map<String, Quantity> reserved) {
        return override(Resources.ZERO, reserved);
    }

    /**
     * The hard eviction threshold for a node with {@code memoryBytes} memory capacity and {@code storageBytes}
     * ephemeral storage. A percentage is of that capacity, rounded up to a whole byte; {@code 100%} disables the
     * signal (threshold 0), as the kubelet reads it.
     */
    public static Resources evictionThreshold(long memoryBytes, long storageBytes, Map<String, String> evictionHard) {
        long mem = 100 * MI;
        long fs = (long) Math.ceil((double) storageBytes / 100 * 10);
        String m = evictionHard.get(MEMORY_AVAILABLE);
        if (m != null) {
            mem = signal(memoryBytes, m);
        }
        String f = evictionHard.get(NODEFS_AVAILABLE);
        if (f != null) {
            fs = signal(storageBytes, f);
        }
        return new Resources(0, mem, fs, 0, Map.of());
    }

    /** One eviction signal's threshold: a percentage of {@code capacity}, or a quantity. */
    static long signal(long capacity, String value) {
        String v = value.trim();
        if (v.endsWith("%")) {
            double pct = new BigDecimal(v.substring(0, v.length() - 1).trim()).doubleValue();
            if (pct == 100) {
                pct = 0;
            }
            return (long) Math.ceil((double) capacity / 100 * pct);
        }
        return Quantity.parse(v).toUnits();
    }

    /**
     * Replaces the cpu, memory and ephemeral-storage entries named in {@code overrides}. Other keys (such as
     * {@code pid}) reserve nothing the scheduler counts, so they are ignored here.
     */
    private static Resources override(Resources base, Map<String, Quantity> overrides) {
        Resources r = base;
        for (var e : overrides.entrySet()) {
            switch (e.getKey()) {
                case Resources.CPU -> r = r.with(Resources.CPU, e.getValue().toMillis());
                case Resources.MEMORY, Resources.EPHEMERAL_STORAGE -> r = r.with(e.getKey(), e.getValue().toUnits());
                default -> { }
            }
        }
        return r;
    }
}
