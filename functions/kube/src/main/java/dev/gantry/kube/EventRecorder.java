package dev.gantry.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Creates core/v1 Events, best effort: an event that cannot be written is logged and dropped, never failing the work
 * it describes. {@code kubectl describe} finds events by the object's UID, so UIDs seen by the last reads are kept
 * and put on the event's {@code involvedObject}.
 */
final class EventRecorder {
    static final String COMPONENT = "gantry";
    private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());

    private final KubernetesClient client;
    private final Clock clock;
    /** Kind -> (namespace/name -> uid), replaced whole by each full read so a warm Lambda does not accumulate the dead. */
    private final Map<String, Map<String, String>> uids = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    EventRecorder(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** Replaces the UIDs known for {@code kind} with those of a full read, keyed by {@link #key}. */
    void rememberAll(String kind, Map<String, String> byKey) {
        uids.put(kind, Map.copyOf(byKey));
    }

    /** Adds the UIDs of a partial read (one node, one node's pods) to those known for {@code kind}. */
    void rememberSome(String kind, Map<String, String> byKey) {
        if (!byKey.isEmpty()) {
            uids.merge(kind, Map.copyOf(byKey), (known, more) -> {
                Map<String, String> merged = new java.util.HashMap<>(known);
                merged.putAll(more);
                return Map.copyOf(merged);
            });
        }
    }

    void record(String kind, String namespace, String name, String type, String reason, String message) {
        // Cluster-scoped objects (nodes) have their events in "default", as the kubelet records them.
        String ns = namespace == null || namespace.isEmpty() ? "default" : namespace;
        Instant now = clock.instant();
        // Unique per event like client-go's "<object>.<hex nanos>": the sequence breaks ties within one clock tick.
        String eventName = name + "." + Long.toHexString(now.toEpochMilli() * 1_000_000L + sequence.incrementAndGet() % 1_000_000L);
        Event event = new EventBuilder()
                .withNewMetadata().withNamespace(ns).withName(eventName).endMetadata()
                .withNewInvolvedObject().withKind(kind).withApiVersion("v1").withName(name)
                .withNamespace(namespace == null || namespace.isEmpty() ? null : namespace)
                .withUid(uids.getOrDefault(kind, Map.of()).get(key(namespace, name))).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message)
                .withFirstTimestamp(now.toString()).withLastTimestamp(now.toString()).withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(COMPONENT)
                .build();
        try {
            client.v1().events().inNamespace(ns).resource(event).create();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not record event " + reason + " on " + kind + " " + name + ": " + e.getMessage());
        }
    }

    static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }
}
