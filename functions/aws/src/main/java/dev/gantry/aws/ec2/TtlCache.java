package dev.gantry.aws.ec2;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A small in-memory cache whose entries expire {@code ttl} after they were loaded, by an injected clock. A Lambda
 * lives minutes to hours, so there is no eviction beyond expiry: the key spaces (selector terms, AMI terms, price
 * tables) are tiny. A failed load is not cached, so the next call tries again.
 */
public final class TtlCache<K, V> {
    private final Clock clock;
    private final Duration ttl;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

    private record Entry<V>(V value, Instant expires) {}

    public TtlCache(Clock clock, Duration ttl) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
    }

    /** The cached value for {@code key}, loading it when absent or expired. Exceptions from the loader propagate. */
    public V get(K key, Function<? super K, ? extends V> loader) {
        Instant now = clock.instant();
        Entry<V> e = entries.get(key);
        if (e != null && now.isBefore(e.expires())) {
            return e.value();
        }
        V value = loader.apply(key);
        entries.put(key, new Entry<>(value, now.plus(ttl)));
        return value;
    }

    /** Stores a value directly (e.g. a resource just created). */
    public void put(K key, V value) {
        entries.put(key, new Entry<>(value, clock.instant().plus(ttl)));
    }

    /** Whether a live entry exists for {@code key}. */
    public boolean contains(K key) {
        Entry<V> e = entries.get(key);
        return e != null && clock.instant().isBefore(e.expires());
    }

    public void invalidate(K key) {
        entries.remove(key);
    }
}
