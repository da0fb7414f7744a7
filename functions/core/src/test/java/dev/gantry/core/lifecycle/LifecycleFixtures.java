package dev.gantry.core.lifecycle;

import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.model.Node;
import dev.gantry.core.model.NodePool;
import dev.gantry.core.model.Pod;
import dev.gantry.core.model.Resources;
import dev.gantry.core.work.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Defaults-plus-overrides fixtures and tiny recording doubles for the lifecycle tests. */
public final class LifecycleFixtures {
    public static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
    public static final String CLUSTER = "demo";

    private LifecycleFixtures() {
    }

    /** A claim launched at T0-1h for instance {@code i-<name>} in us-east-1a (m5.large spot). */
    public static NodeClaim launched(String name, String pool) {
        return NodeClaim.launching(name, pool, "h", List.of(), List.of("m5.large"), List.of(), "m5.large", "us-east-1a",
                "spot", 0.04, T0.minus(Duration.ofHours(1))).launched("i-" + name, "m5.large", "us-east-1a", "spot", 0.04,
                T0.minus(Duration.ofHours(1)));
    }

    public static NodeClaim initialized(String name, String pool) {
        Instant at = T0.minus(Duration.ofMinutes(55));
        return launched(name, pool).registered("node-" + name, at).initialized(at);
    }

    /** The Ready node of {@link #initialized}, with Gantry's finalizer. */
    public static Node node(String claim, String pool) {
        return new Node("node-" + claim, "aws:///us-east-1a/i-" + claim, Map.of("karpenter.sh/nodepool", pool), Map.of(),
                List.of(), Resources.of(2000, 8L << 30), true, false, false, T0.minus(Duration.ofMinutes(55)),
                List.of(Node.FINALIZER), null);
    }

    public static Pod pod(String name, String node) {
        return Pod.builder("default", name).nodeName(node).owner("ReplicaSet", "web")
                .labels(Map.of("app", "web")).status(new Pod.Status("Running", false, T0, null, null)).build();
    }

    public static Pod daemon(String name, String node) {
        return pod(name, node).toBuilder().owner("DaemonSet", "ds").build();
    }

    public static NodePool pool(String name) {
        return new NodePool(name, Map.of(), new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), Optional.empty(), Optional.empty()), null, Map.of(), null, null);
    }

    public static NodePool poolWith(String name, NodePool.Disruption disruption, Optional<Duration> expireAfter,
                                    Optional<Duration> grace, Map<String, String> annotations) {
        return new NodePool(name, annotations, new NodePool.Template(Map.of(), Map.of(), List.of(), List.of(), List.of(),
                new NodePool.NodeClassRef(null, null, "default"), expireAfter, grace), disruption, Map.of(), null, null);
    }

    /** A clock the test moves by hand. */
    public static final class MutableClock extends Clock {
        private Instant now;

        public MutableClock(Instant start) {
            now = start;
        }

        public void advance(Duration d) {
            now = now.plus(d);
        }

        public void set(Instant t) {
            now = t;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Instances in memory; records terminations. Launch is not used by the lifecycle. */
    public static final class RecordingCloud implements CloudProvider {
        public final Map<String, CloudInstance> instances = new LinkedHashMap<>();
        public final List<String> terminated = new ArrayList<>();
        /** How many of the next terminate calls fail (as a throttled or unreachable EC2 would). */
        public int failTerminations;
        /** How many of the next DescribeInstances lists fail. */
        public int failLists;

        public void add(String id, Instant launchTime, Map<String, String> tags) {
            instances.put(id, new CloudInstance(id, "m5.large", "us-east-1a", "spot", "running", launchTime, null, tags));
        }

        public void addOwned(String id, String claim) {
            add(id, T0.minus(Duration.ofHours(1)), Map.of(CloudInstance.TAG_CLUSTER, CLUSTER, CloudInstance.TAG_NODECLAIM, claim));
        }

        @Override
        public LaunchResult launch(LaunchRequest request) {
            throw new UnsupportedOperationException("the lifecycle never launches");
        }

        @Override
        public synchronized void terminate(List<String> ids) {
            if (failTerminations > 0) {
                failTerminations--;
                throw new dev.gantry.core.cloud.CloudException("RequestLimitExceeded", "throttled", true);
            }
            for (String id : ids) {
                terminated.add(id);
                instances.remove(id);
            }
        }

        @Override
        public synchronized List<CloudInstance> listInstances() {
            if (failLists > 0) {
                failLists--;
                throw new dev.gantry.core.cloud.CloudException("RequestLimitExceeded", "throttled", true);
            }
            return List.copyOf(instances.values());
        }

        @Override
        public synchronized Optional<CloudInstance> describe(String id) {
            return Optional.ofNullable(instances.get(id));
        }

        /** How many of the next tag calls fail (as a throttled EC2, or a crash right after the claim was recorded). */
        public int failTags;
        /** Every tag call, as {@code instance-id key=value...}. */
        public final List<String> tagged = new ArrayList<>();

        /** As EC2 lists them: this cluster's Karpenter's (cluster tag owned, a nodepool tag), not terminated. */
        @Override
        public synchronized List<CloudInstance> listKarpenterInstances() {
            return instances.values().stream()
                    .filter(i -> dev.gantry.core.cloud.KarpenterTags.launchedFor(CLUSTER, i.tags())).toList();
        }

        @Override
        public synchronized void tag(String id, Map<String, String> tags) {
            if (failTags > 0) {
                failTags--;
                throw new dev.gantry.core.cloud.CloudException("RequestLimitExceeded", "throttled", true);
            }
            CloudInstance i = instances.get(id);
            if (i == null) {
                throw new dev.gantry.core.cloud.CloudException("InvalidInstanceID.NotFound", id, false);
            }
            Map<String, String> merged = new java.util.TreeMap<>(i.tags());
            merged.putAll(tags);
            instances.put(id, new CloudInstance(id, i.instanceType(), i.zone(), i.capacityType(), i.state(), i.launchTime(),
                    i.privateDnsName(), merged));
            tagged.add(id + " " + new java.util.TreeMap<>(tags));
        }
    }

    /** A queue that records what was sent. */
    public static final class RecordingQueue implements WorkQueue {
        public record Sent(String body, String group, String dedup, Duration delay) {
        }

        public final List<Sent> sent = new ArrayList<>();

        @Override
        public synchronized void send(String body, String groupId, String deduplicationId, Duration delay) {
            sent.add(new Sent(body, groupId, deduplicationId, delay));
        }
    }

    /** Hints as {@code reason pod-or-node}. */
    public static final class RecordingHints implements ProvisioningHints {
        public final List<String> sent = new ArrayList<>();

        @Override
        public synchronized void send(String reason, Pod pod, String nodeName, Instant at) {
            sent.add(reason + " " + (pod != null ? pod.key() : nodeName));
        }
    }
}
