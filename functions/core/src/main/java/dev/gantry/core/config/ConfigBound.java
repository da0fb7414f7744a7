package dev.gantry.core.config;

import dev.gantry.core.headroom.LiveHeadroom;
import dev.gantry.core.provisioning.GantryConfig;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Services built over one configuration, built again when the configuration changes: a handler asks for its service
 * once per run ({@link #get()}), and gets the one built over the cluster's current NodePools and NodeClasses. What the
 * factory captures (clients, queues, the store, caches) is built once by its caller and reused; only the services,
 * which hold the pools, are rebuilt, and only when {@link ClusterConfig#config()} is a different instance (see
 * {@link ConfigSource}'s contract). A run keeps the service it got for its whole length: one run, one configuration.
 *
 * <p>Thread-safe: the read is made outside the lock, the comparison and the build under it (the factory must not
 * call out: it only wires what its caller built).
 *
 * @param <S> the service (or bundle of services) a handler runs
 */
public final class ConfigBound<S> implements Supplier<S> {
    private final ConfigSource source;
    private final Clock clock;
    private final Function<ClusterConfig, S> factory;
    private GantryConfig builtFor;
    private S built;
    private ClusterConfig lastRead;

    public ConfigBound(ConfigSource source, Clock clock, Function<ClusterConfig, S> factory) {
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** A supplier of one fixed service (tests, and callers with a configuration of their own). */
    public static <S> Supplier<S> fixed(S service) {
        Objects.requireNonNull(service, "service");
        return () -> service;
    }

    /**
     * The service for a run starting now.
     *
     * @throws ConfigUnavailable as {@link ConfigSource#current} does; the run must fail
     */
    @Override
    public S get() {
        // Read outside the lock: a read is a network call, and no caller waits on another's.
        ClusterConfig c = source.current(clock.instant());
        synchronized (this) {
            lastRead = c;
            if (built == null || c.config() != builtFor) {
                built = factory.apply(c);
                builtFor = c.config();
            }
            return built;
        }
    }

    /** The configuration the last {@link #get()} read (the current run's), or null before the first. */
    public synchronized ClusterConfig lastRead() {
        return lastRead;
    }

    /**
     * The CapacityBuffers of the current run's configuration, as the headroom reads them: read with the NodePools at
     * the run's start, so a run sees one configuration and the headroom adds no API calls. None before the first run.
     */
    public LiveHeadroom.Source buffers() {
        return () -> {
            ClusterConfig c = lastRead();
            return c == null ? LiveHeadroom.Buffers.NONE : c.buffers();
        };
    }
}
