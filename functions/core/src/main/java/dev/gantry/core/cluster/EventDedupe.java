package dev.gantry.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which Events a recorder drops as repeats, as Karpenter's recorder decides (core {@code pkg/events/recorder.go},
 * {@code publishEvent}/{@code shouldCreateEvent}): an event whose dedupe key was written within its timeout is
 * dropped. The timeout is {@link #DEFAULT} unless the reason sets its own ({@link #timeout}); the key is the object,
 * the reason and the message, except for reasons Karpenter dedupes by the object alone ({@code DedupeValues} = its
 * UID, whatever the message says): {@code NodeRepairBlocked}, 15 minutes (core
 * {@code pkg/controllers/node/health/events.go}), whose message carries counts that change while the repair waits.
 *
 * <p>One rule for every recorder: the Kubernetes adapter's and the simulated API server's. Remembers the last
 * {@link #MAX_REMEMBERED} keys (oldest forgotten first), per instance, as Karpenter's in-memory cache is per process.
 * Thread-safe.
 */
public final class EventDedupe {
    /** Karpenter's {@code defaultDedupeTimeout}. */
    public static final Duration DEFAULT = Duration.ofMinutes(2);
    private static final Map<String, Duration> BY_OBJECT = Map.of("NodeRepairBlocked", Duration.ofMinutes(15));
    private static final int MAX_REMEMBERED = 10_000;

    private final Map<String, Instant> written = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };

    /** How long a repeat of {@code reason} is dropped for. */
    public static Duration timeout(String reason) {
        return BY_OBJECT.getOrDefault(reason, DEFAULT);
    }

    /** Whether to write the event at {@code now}; true records it, so a repeat within the timeout is refused. */
    public synchronized boolean admit(String kind, String namespace, String name, String reason, String message, Instant now) {
        String key = kind + "|" + (namespace == null ? "" : namespace) + "/" + name + "|" + reason
                + (BY_OBJECT.containsKey(reason) ? "" : "|" + message);
        Instant last = written.get(key);
        if (last != null && now.isBefore(last.plus(timeout(reason)))) {
            return false;
        }
        written.put(key, now);
        return true;
    }
}
