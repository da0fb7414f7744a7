package dev.gantry.core.disruption.drift.rollout;

import dev.gantry.core.config.ClusterConfig;
import dev.gantry.core.config.ConfigSource;
import dev.gantry.core.model.NodeClass;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/**
 * The configuration every handler runs on, with each EC2NodeClass whose AMI rollout is paused pinned to the images its
 * nodes ran before ({@link AmiRollouts#pins}): so the provisioner, the sweep's drift and the NodeClass status all launch
 * and judge by the held image until an operator resumes, with no second path for "which image". Keeps
 * {@link ConfigSource}'s identity contract: with nothing pinned it returns the cluster's reading itself, and the same
 * pinned reading while neither the reading nor the pins changed. {@link #raw()} is the last reading as written, for
 * the rollout's own decisions.
 */
public final class PausedImages implements ConfigSource {
    private final ConfigSource cluster;
    private final Function<GantryConfig, Map<String, NodeClass>> pins;
    private volatile ClusterConfig lastRaw;
    private volatile Pinned last;

    /** A pinned reading and what it was built from. */
    private record Pinned(ClusterConfig read, Map<String, NodeClass> pins, ClusterConfig pinned) {
    }

    /**
     * @param pins the pinned classes for a configuration as written, by {@link NodeClass#key} (usually
     *             {@code rollouts.pins(cfg, now)})
     */
    public PausedImages(ConfigSource cluster, Function<GantryConfig, Map<String, NodeClass>> pins) {
        this.cluster = cluster;
        this.pins = pins;
    }

    /**
     * Holds no lock while it reads (the reading and the pins call the API server and the store; a handler's run may
     * wait on them while another reads): two concurrent calls may each build an equal pinned reading, the last kept.
     */
    @Override
    public ClusterConfig current(Instant now) {
        ClusterConfig read = cluster.current(now);
        lastRaw = read;
        Map<String, NodeClass> p = pins.apply(read.config());
        if (p.isEmpty()) {
            return read;
        }
        Pinned seen = last;
        if (seen != null && seen.read() == read && seen.pins().equals(p)) {
            return seen.pinned();
        }
        GantryConfig c = read.config();
        GantryConfig pinned = c.withNodeClasses(c.nodeClasses().stream().map(nc -> p.getOrDefault(nc.key(), nc)).toList());
        ClusterConfig out = new ClusterConfig(pinned, read.buffers(), read.invalid(), read.version() + " (AMI held: " + p.keySet() + ")");
        last = new Pinned(read, Map.copyOf(p), out);
        return out;
    }

    /**
     * The configuration as the cluster holds it, as last read (before pinning).
     *
     * @throws IllegalStateException before the first {@link #current} (every run reads its configuration first)
     */
    public GantryConfig raw() {
        ClusterConfig r = lastRaw;
        if (r == null) {
            throw new IllegalStateException("the configuration was not read yet");
        }
        return r.config();
    }
}
