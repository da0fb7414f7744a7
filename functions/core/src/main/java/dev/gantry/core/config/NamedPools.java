package dev.gantry.core.config;

import dev.gantry.core.provisioning.GantryConfig;
import dev.gantry.core.provisioning.ManagedPools;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The configuration of the NodePools Gantry was told are its own ({@code -c nodePools=a,b} at deploy, beside another
 * autoscaler), read from the cluster: {@link ManagedPools} applied to each reading, and the other NodePools' messages
 * left out too (they are another autoscaler's, as if absent). NodeClasses
 * and buffers pass through. Keeps {@link ConfigSource}'s identity contract: the same reading gives the same instance.
 */
public final class NamedPools implements ConfigSource {
    private final ConfigSource source;
    private final Set<String> names;
    private ClusterConfig lastIn;
    private ClusterConfig lastOut;
    private GantryConfig lastInConfig;
    private GantryConfig lastOutConfig;

    private NamedPools(ConfigSource source, Set<String> names) {
        this.source = source;
        this.names = Set.copyOf(names);
    }

    /** {@code source} itself when {@code names} is empty (Gantry manages every NodePool). */
    public static ConfigSource of(ConfigSource source, Set<String> names) {
        Objects.requireNonNull(source, "source");
        return names.isEmpty() ? source : new NamedPools(source, names);
    }

    @Override
    public synchronized ClusterConfig current(Instant now) {
        ClusterConfig in = source.current(now);
        if (in == lastIn) {
            return lastOut;
        }
        GantryConfig config = in.config() == lastInConfig ? lastOutConfig : ManagedPools.of(in.config(), names);
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        in.invalid().forEach((key, messages) -> {
            if (!key.startsWith("NodePool/") || names.contains(key.substring("NodePool/".length()))) {
                invalid.put(key, messages);
            }
        });
        lastIn = in;
        lastInConfig = in.config();
        lastOutConfig = config;
        lastOut = new ClusterConfig(config, in.buffers(), invalid, in.version());
        return lastOut;
    }
}
