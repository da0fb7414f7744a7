package dev.gantry.simulator.observe;

import dev.gantry.core.capacity.SpotSplit;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * How far each split pool's spot share ({@code gantry.dev/spot-percentage}) drifts from its target over the run: at
 * every step, the spot share of the vCPU of the pool's live instances (launching or running, as billed) against the
 * target, held until the next step. Per pool: the largest deviation (percentage points, signed as the share minus the
 * target), the time-weighted mean absolute deviation, the time outside one node's worth (the pool's largest instance's
 * vCPU over its total: the tolerance consolidation keeps, {@code SpotSplitGuard}), and the share at the end. Time with no
 * live instance in the pool has no share and counts in neither.
 */
public final class SpotSplitDrift {
    /** One pool's figures so far. */
    public static final class Pool {
        private int target;
        private double maxDeviation;
        private double absDeviationSeconds;
        private double secondsMeasured;
        private double secondsOutside;
        private double share = Double.NaN;
        private boolean outside;

        Pool(int target) {
            this.target = target;
        }

        public int target() { return target; }
        /** The largest deviation, in points, signed (negative: too little spot). */
        public double maxDeviationPoints() { return maxDeviation; }
        public double meanAbsDeviationPoints() { return secondsMeasured == 0 ? 0 : absDeviationSeconds / secondsMeasured; }
        public double secondsOutsideOneNode() { return secondsOutside; }
        public double secondsMeasured() { return secondsMeasured; }
        /** The spot share at the last step, in percent (NaN when the pool had no instance). */
        public double shareAtEnd() { return share; }
    }

    private final Map<String, Pool> pools = new TreeMap<>();
    private Instant last;

    /** One live instance as the split counts it. */
    record Running(String pool, boolean spot, long vcpuMillis) {
    }

    /** Holds the previous step's shares until {@code now}, then measures the shares of {@code live}. */
    void step(Instant now, List<SimulatedInstance> live, Map<String, NodePool> configured) {
        Map<String, Integer> targets = new HashMap<>();
        configured.forEach((name, p) -> {
            OptionalInt t = SpotSplit.target(p);
            if (t.isPresent()) {
                targets.put(name, t.getAsInt());
            }
        });
        List<Running> running = new java.util.ArrayList<>();
        for (SimulatedInstance i : live) {
            String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
            if (pool != null && targets.containsKey(pool)) {
                running.add(new Running(pool, WellKnownLabels.CAPACITY_SPOT.equals(i.capacityType()),
                        i.type().capacity().cpuMillis()));
            }
        }
        measure(now, running, targets);
    }

    /** {@link #step} over plain values: {@code targets} are the split pools' percentages by name. */
    void measure(Instant now, List<Running> running, Map<String, Integer> targets) {
        if (last != null) {
            double seconds = Duration.between(last, now).toMillis() / 1000.0;
            pools.values().forEach(p -> {
                if (!Double.isNaN(p.share)) {
                    p.secondsMeasured += seconds;
                    p.absDeviationSeconds += Math.abs(p.share - p.target) * seconds;
                    p.secondsOutside += p.outside ? seconds : 0;
                }
            });
        }
        last = now;
        Map<String, long[]> vcpu = new HashMap<>(); // {spot, total, largest}
        for (Running r : running) {
            long[] t = vcpu.computeIfAbsent(r.pool(), k -> new long[3]);
            t[0] += r.spot() ? r.vcpuMillis() : 0;
            t[1] += r.vcpuMillis();
            t[2] = Math.max(t[2], r.vcpuMillis());
        }
        pools.forEach((name, f) -> {
            if (!targets.containsKey(name)) {
                f.share = Double.NaN; // the split was removed: nothing to measure
            }
        });
        targets.forEach((name, target) -> {
            Pool f = pools.computeIfAbsent(name, k -> new Pool(target));
            f.target = target;
            long[] t = vcpu.get(name);
            if (t == null || t[1] == 0) {
                f.share = Double.NaN;
                return;
            }
            f.share = 100.0 * t[0] / t[1];
            double dev = f.share - f.target;
            if (Math.abs(dev) > Math.abs(f.maxDeviation)) {
                f.maxDeviation = dev;
            }
            f.outside = Math.abs(dev) > 100.0 * t[2] / t[1] + 1e-9;
        });
    }

    /** By pool name, the pools with a split that were configured at some step. */
    public Map<String, Pool> pools() {
        return Collections.unmodifiableMap(pools);
    }
}
