package dev.gantry.simulator.observe;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.requirements.WellKnownLabels;
import dev.gantry.simulator.world.aws.SimulatedInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How quickly Gantry acted on a configuration change (GitOps: a NodePool or EC2NodeClass applied or deleted while it
 * runs): for each write, when the first run used it (its services were built over a configuration read after the
 * write), and what Gantry launched in that NodePool afterwards, until a later change of it was used: how many nodes,
 * how many of them outside the pool's requirements as they were then (must be none), and the pool's launched CPU at
 * its highest against its CPU limit.
 */
public final class ConfigReactions {
    /** One write and Gantry's reaction to it; {@code usedAt} null while no run has used it. */
    public static final class Change {
        final Instant at;
        final String object;
        final boolean deleted;
        Instant usedAt;
        /** A later change of the same object was used: what is launched from then on is that change's. */
        boolean superseded;
        int launchedAfter;
        int launchedOutsideRequirements;
        long cpuMillisAtUse = -1;
        long peakCpuMillisAfter;
        String cpuLimit;

        Change(Instant at, String object, boolean deleted) {
            this.at = at;
            this.object = object;
            this.deleted = deleted;
        }

        public Instant at() { return at; }
        public String object() { return object; }
        public boolean deleted() { return deleted; }
        public Optional<Duration> reaction() { return Optional.ofNullable(usedAt).map(u -> Duration.between(at, u)); }
        public int launchedAfter() { return launchedAfter; }
        public int launchedOutsideRequirements() { return launchedOutsideRequirements; }
        /** The pool's launched CPU when the change was first used, and at its highest after; -1 before any use. */
        public long cpuMillisAtUse() { return cpuMillisAtUse; }
        public long peakCpuMillisAfter() { return peakCpuMillisAfter; }
        /** The pool's CPU limit in the configuration that used the change, or null. */
        public String cpuLimit() { return cpuLimit; }
    }

    private final List<Change> changes = new ArrayList<>();
    private final Map<String, Long> poolCpu = new HashMap<>();
    private Map<String, NodePool> inUse = Map.of();

    /** A write to the cluster's configuration, at {@code at}. */
    public void written(Instant at, String object, boolean deleted) {
        changes.add(new Change(at, object, deleted));
    }

    /** A run built its services over {@code c} at {@code now}: every earlier write not yet used is used now. */
    public void used(Instant now, ClusterConfig c) {
        Map<String, NodePool> pools = new HashMap<>();
        c.config().nodePools().forEach(p -> pools.put(p.name(), p));
        inUse = pools;
        for (Change ch : changes) {
            if (ch.usedAt == null && !ch.at.isAfter(now)) {
                changes.stream().filter(earlier -> earlier != ch && earlier.usedAt != null && earlier.object.equals(ch.object))
                        .forEach(earlier -> earlier.superseded = true);
                ch.usedAt = now;
                ch.cpuMillisAtUse = poolCpu.getOrDefault(poolOf(ch), 0L);
                ch.peakCpuMillisAfter = ch.cpuMillisAtUse;
                NodePool p = pools.get(poolOf(ch));
                ch.cpuLimit = p == null || !p.limits().containsKey("cpu") ? null : p.limits().get("cpu").value().toPlainString();
            }
        }
    }

    /** Gantry launched {@code i}. */
    public void launched(SimulatedInstance i) {
        String pool = i.tags().get(CloudInstance.TAG_NODEPOOL);
        long cpu = poolCpu.merge(pool, i.type().capacity().cpuMillis(), Long::sum);
        Map<String, String> labels = new HashMap<>(i.type().labels());
        labels.put(WellKnownLabels.ZONE, i.zone());
        labels.put(WellKnownLabels.CAPACITY_TYPE, i.capacityType());
        NodePool p = inUse.get(pool);
        boolean outside = p != null && p.requirements().asMap().entrySet().stream()
                .anyMatch(e -> labels.containsKey(e.getKey()) && !e.getValue().has(labels.get(e.getKey())));
        for (Change ch : changes) {
            if (ch.usedAt != null && !ch.superseded && pool.equals(poolOf(ch))) {
                ch.launchedAfter++;
                ch.launchedOutsideRequirements += outside ? 1 : 0;
                ch.peakCpuMillisAfter = Math.max(ch.peakCpuMillisAfter, cpu);
            }
        }
    }

    /** Gantry's instance {@code i} ended. */
    public void ended(SimulatedInstance i) {
        poolCpu.merge(i.tags().get(CloudInstance.TAG_NODEPOOL), -i.type().capacity().cpuMillis(), Long::sum);
    }

    public List<Change> changes() {
        return List.copyOf(changes);
    }

    private static String poolOf(Change ch) {
        return ch.object.startsWith("NodePool/") ? ch.object.substring("NodePool/".length()) : "";
    }
}
