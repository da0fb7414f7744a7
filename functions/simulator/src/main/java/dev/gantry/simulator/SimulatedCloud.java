package dev.gantry.simulator;

import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.catalog.Offering;
import dev.gantry.core.catalog.OfferingKey;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.requirements.ValueSet;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * EC2 behind the {@link CloudProvider} port. A launch takes the claim's first option that has capacity, in its
 * cheapest allowed offering (offerings under an injected insufficient-capacity fault are skipped and reported
 * unavailable); it is idempotent by claim name, as CreateFleet is by ClientToken. The instance is running about
 * 10 s later; the {@link Observer} (the simulated kubelet) decides when its node registers. Terminations go through
 * shutting-down to terminated in 5 s. Every call may be throttled while a throttle fault is on.
 */
public final class SimulatedCloud implements CloudProvider {
    static final Duration SHUTDOWN = Duration.ofSeconds(5);

    /** What the rest of the simulation hears from EC2. */
    public interface Observer {
        void launched(SimInstance instance);

        /** {@code cause}: {@code api} (a TerminateInstances call), or what EC2 itself did (spot-reclaim, failure…). */
        void stateChanged(SimInstance instance, String newState, String cause);

        /** A TerminateInstances call named an instance without this cluster's tag. */
        void unmanagedTouched(String instanceId);
    }

    private final String cluster;
    private final String region;
    private final EventLoop loop;
    private final Observer observer;
    private final CloudFaults faults;
    private final SplittableRandom ids;
    private final SplittableRandom jitter;
    private final Map<String, SimInstance> byId = new LinkedHashMap<>();
    private final Map<String, SimInstance> byClaim = new LinkedHashMap<>();
    private final java.util.Set<String> dnsNames = new java.util.HashSet<>();

    public SimulatedCloud(String cluster, String region, EventLoop loop, long seed, Observer observer) {
        this.cluster = cluster;
        this.region = region;
        this.loop = loop;
        this.observer = observer;
        this.faults = new CloudFaults(seed);
        this.ids = new SplittableRandom(seed ^ 0x1d5L);
        this.jitter = new SplittableRandom(seed ^ 0x717e7L);
    }

    CloudFaults faults() {
        return faults;
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        throttle("CreateFleet");
        SimInstance existing = byClaim.get(request.claimName());
        if (existing != null) {
            return new LaunchResult(existing.view(), List.of());
        }
        Instant now = loop.now();
        List<OfferingKey> unavailable = new ArrayList<>();
        for (InstanceType type : request.options()) {
            for (Offering o : allowed(type, request)) {
                if (faults.noCapacity(type.name(), o.zone(), o.capacityType(), now)) {
                    unavailable.add(new OfferingKey(type.name(), o.zone(), o.capacityType()));
                    continue;
                }
                SimInstance i = start(request, type, o, now);
                return new LaunchResult(i.view(), unavailable);
            }
        }
        throw new InsufficientCapacity("InsufficientInstanceCapacity", unavailable);
    }

    private static List<Offering> allowed(InstanceType type, LaunchRequest request) {
        ValueSet zones = request.requirements().get(WellKnownLabels.ZONE);
        ValueSet capacityTypes = request.requirements().get(WellKnownLabels.CAPACITY_TYPE);
        return type.offerings().stream()
                .filter(o -> o.available() && zones.has(o.zone()) && capacityTypes.has(o.capacityType()))
                .sorted(Comparator.comparingDouble(Offering::pricePerHour).thenComparing(Offering::zone))
                .toList();
    }

    private SimInstance start(LaunchRequest request, InstanceType type, Offering o, Instant now) {
        String id = String.format("i-%017x", ids.nextLong() & 0xfffffffffffffffL);
        String dns;
        do {
            // Private DNS names are unique in a VPC: redraw on a collision (about ten in 1,000 instances of a /16).
            int a = ids.nextInt(256);
            int b = ids.nextInt(256);
            dns = "ip-10-0-" + a + "-" + b + "." + region + ".compute.internal";
        } while (!dnsNames.add(dns));
        Map<String, String> tags = Map.of(CloudInstance.TAG_CLUSTER, cluster,
                CloudInstance.TAG_NODEPOOL, request.nodePool().name(), CloudInstance.TAG_NODECLAIM, request.claimName());
        SimInstance i = new SimInstance(id, type, o.zone(), o.capacityType(), o.pricePerHour(), now, dns, tags, request);
        byId.put(id, i);
        byClaim.put(request.claimName(), i);
        loop.after(Duration.ofMillis(8_000 + jitter.nextLong(4_000)), "ec2 running " + id, () -> {
            if (i.state.equals("pending")) {
                setState(i, "running", "boot");
            }
        });
        observer.launched(i);
        return i;
    }

    /** A registration delay for this instance's AMI family: 20–30 s for Bottlerocket, 30–40 s otherwise. */
    Duration registrationDelay(SimInstance i) {
        String family = i.request == null ? "" : i.request.nodeClass().effectiveAmiFamily();
        long base = "bottlerocket".equalsIgnoreCase(family) ? 20_000 : 30_000;
        return Duration.ofMillis(base + jitter.nextLong(10_000));
    }

    @Override
    public void terminate(List<String> instanceIds) {
        throttle("TerminateInstances");
        for (String id : instanceIds) {
            SimInstance i = byId.get(id);
            if (i == null) {
                continue;
            }
            if (!cluster.equals(i.tags.get(CloudInstance.TAG_CLUSTER))) {
                observer.unmanagedTouched(id);
            }
            end(i, "api");
        }
    }

    @Override
    public List<CloudInstance> listInstances() {
        throttle("DescribeInstances");
        return byId.values().stream().filter(i -> cluster.equals(i.tags.get(CloudInstance.TAG_CLUSTER)))
                .filter(i -> !i.state.equals("terminated")).map(SimInstance::view).toList();
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        throttle("DescribeInstances");
        return Optional.ofNullable(byId.get(instanceId)).map(SimInstance::view);
    }

    /** EC2 ends the instance itself (spot reclaim, failure, an outage): shutting-down now, terminated shortly. */
    void end(SimInstance i, String cause) {
        if (!i.isAlive() && !i.state.equals("stopped")) {
            return;
        }
        i.endedAt = loop.now();
        i.endCause = cause;
        setState(i, "shutting-down", cause);
        loop.after(SHUTDOWN, "ec2 terminated " + i.id, () -> setState(i, "terminated", cause));
    }

    /** The instance stops (a hardware failure): it costs nothing more and its node goes away. */
    void stop(SimInstance i, String cause) {
        if (!i.isAlive()) {
            return;
        }
        i.endedAt = loop.now();
        i.endCause = cause;
        setState(i, "stopping", cause);
        loop.after(SHUTDOWN, "ec2 stopped " + i.id, () -> setState(i, "stopped", cause));
    }

    /** An instance this cluster does not own (another node group's), for the "never touch it" invariant. */
    void seedUnmanaged(InstanceType type, String zone) {
        String id = String.format("i-%017x", ids.nextLong() & 0xfffffffffffffffL);
        SimInstance i = new SimInstance(id, type, zone, WellKnownLabels.CAPACITY_ON_DEMAND, 0, loop.now(),
                "ip-10-1-0-1." + region + ".compute.internal", Map.of("eks:nodegroup-name", "system"), null);
        i.state = "running";
        byId.put(id, i);
    }

    private void setState(SimInstance i, String state, String cause) {
        i.state = state;
        observer.stateChanged(i, state, cause);
    }

    private void throttle(String action) {
        if (faults.throttle(loop.now())) {
            throw new CloudException("RequestLimitExceeded", action + ": request limit exceeded", true);
        }
    }

    /** Every instance ever launched or seeded, in launch order. */
    public List<SimInstance> instances() {
        return List.copyOf(byId.values());
    }

    public Optional<SimInstance> instance(String id) {
        return Optional.ofNullable(byId.get(id));
    }
}
