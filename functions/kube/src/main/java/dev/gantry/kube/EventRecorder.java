package dev.gantry.kube;

import dev.gantry.core.cluster.EventDedupe;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Creates core/v1 Events, best effort: an event that cannot be written is logged and dropped, never failing the work
 * it describes. {@code kubectl describe} finds events by the object's UID, so UIDs seen by the last reads are kept
 * and put on the event's {@code involvedObject}.
 *
 * <p>Without the spam, as Kubernetes' own recorder and Karpenter's: the same event (object, reason, message) again
 * within {@link #DEDUPE} is dropped ({@link EventDedupe}: a {@code NodeRepairBlocked} on the same object within 15
 * minutes, whatever its message); later it bumps the {@code count} and {@code lastTimestamp} of the Event already
 * written (one patch, one object, as the client-go correlator does) while that is remembered. Each reason may write
 * {@link #BURST} events at once, then {@link #BURST} a minute: a 1,000-pod burst writes 100 Nominated events, not
 * 1,000, and the rest are dropped (counted in the log). What was written is remembered per function instance only.
 */
final class EventRecorder {
    static final String COMPONENT = "gantry";
    /** An identical event within this is dropped (Karpenter's recorder dedupes for as long); some reasons longer ({@link EventDedupe}). */
    static final Duration DEDUPE = EventDedupe.DEFAULT;
    /** Events of one reason written at once, and per minute after. */
    static final int BURST = 100;
    private static final Duration REMEMBER = Duration.ofHours(1);
    private static final int MAX_REMEMBERED = 10_000;
    private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());

    /** An Event written: its name and namespace, how many times it happened, and when it was last written. */
    private record Written(String namespace, String name, int count, Instant at) {
    }

    private final KubernetesClient client;
    private final Clock clock;
    /** Kind -> (namespace/name -> uid), replaced whole by each full read so a warm Lambda does not accumulate the dead. */
    private final Map<String, Map<String, String>> uids = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, Written> written = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };
    /** Reason -> tokens left and when they were last refilled. */
    private final Map<String, double[]> buckets = new HashMap<>();
    private long dropped;
    private final EventDedupe dedupe = new EventDedupe();

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
        Instant now = clock.instant();
        String identity = kind + "|" + key(namespace, name) + "|" + type + "|" + reason + "|" + message;
        Written before;
        synchronized (this) {
            before = written.get(identity);
            if (!dedupe.admit(kind, namespace, name, reason, message, now)) {
                return; // the same event just now: nothing new to say
            }
            if (before != null && !now.isBefore(before.at().plus(REMEMBER))) {
                before = null;
            }
            if (before == null && !take(reason, now)) {
                return;
            }
        }
        try {
            Written w = before != null ? bump(before, now) : create(kind, namespace, name, type, reason, message, now);
            synchronized (this) {
                written.put(identity, w);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not record event " + reason + " on " + kind + " " + name + ": " + e.getMessage());
        }
    }

    /** One token of {@code reason}'s bucket, if any is left; a drop is counted and logged now and then. */
    private boolean take(String reason, Instant now) {
        double[] b = buckets.computeIfAbsent(reason, r -> new double[] {BURST, now.toEpochMilli()});
        double refill = (now.toEpochMilli() - b[1]) / 60_000.0 * BURST;
        b[0] = Math.min(BURST, b[0] + refill);
        b[1] = now.toEpochMilli();
        if (b[0] >= 1) {
            b[0] -= 1;
            return true;
        }
        if (dropped++ % BURST == 0) {
            LOG.log(Level.INFO, dropped + " events dropped so far (at most " + BURST + " per reason a minute); latest: " + reason);
        }
        return false;
    }

    private Written bump(Written before, Instant now) {
        int count = before.count() + 1;
        String patch = client.getKubernetesSerialization().asJson(Map.of("count", count, "lastTimestamp", now.toString()));
        client.v1().events().inNamespace(before.namespace()).withName(before.name())
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        return new Written(before.namespace(), before.name(), count, now);
    }

    private Written create(String kind, String namespace, String name, String type, String reason, String message, Instant now) {
        // Cluster-scoped objects (nodes, nodeclaims) have their events in "default", as the kubelet records them.
        String ns = namespace == null || namespace.isEmpty() ? "default" : namespace;
        // Unique per event like client-go's "<object>.<hex nanos>": the sequence breaks ties within one clock tick.
        String eventName = name + "." + Long.toHexString(now.toEpochMilli() * 1_000_000L + sequence.incrementAndGet() % 1_000_000L);
        Event event = new EventBuilder()
                .withNewMetadata().withNamespace(ns).withName(eventName).endMetadata()
                .withNewInvolvedObject().withKind(kind).withApiVersion(apiVersion(kind)).withName(name)
                .withNamespace(namespace == null || namespace.isEmpty() ? null : namespace)
                .withUid(uids.getOrDefault(kind, Map.of()).get(key(namespace, name))).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message)
                .withFirstTimestamp(now.toString()).withLastTimestamp(now.toString()).withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(COMPONENT)
                .build();
        client.v1().events().inNamespace(ns).resource(event).create();
        return new Written(ns, eventName, 1, now);
    }

    /** The involved object's API version: Karpenter's kinds are {@code karpenter.sh/v1}, the EC2NodeClass {@code karpenter.k8s.aws/v1}. */
    static String apiVersion(String kind) {
        return kind.equals("EC2NodeClass") ? "karpenter.k8s.aws/v1"
                : kind.equals("NodeClaim") || kind.equals("NodePool") ? "karpenter.sh/v1" : "v1";
    }

    static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }
}
