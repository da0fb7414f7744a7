package dev.gantry.simulator.world.aws;

import dev.gantry.simulator.faults.CloudFaults;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.faults.Faults;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.EventLoop;
import dev.gantry.simulator.runtime.LambdaRuntime;
import dev.gantry.core.catalog.InstanceType;
import dev.gantry.core.cloud.CloudException;
import dev.gantry.core.cloud.CloudInstance;
import dev.gantry.core.cloud.CloudProvider;
import dev.gantry.core.cloud.NodeClassResolution;
import dev.gantry.core.cloud.InsufficientCapacity;
import dev.gantry.core.cloud.KarpenterTags;
import dev.gantry.core.cloud.LaunchParameters;
import dev.gantry.core.cloud.LaunchRequest;
import dev.gantry.core.cloud.LaunchResult;
import dev.gantry.core.requirements.WellKnownLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;

/**
 * EC2 behind the {@link CloudProvider} port. A launch takes the claim's first option that has capacity, in its
 * cheapest allowed offering (offerings under an injected insufficient-capacity fault are skipped and reported
 * unavailable); it is idempotent by claim name, as CreateFleet is by ClientToken. The instance is running about
 * 10 s later; the {@link Observer} (the simulated kubelet) decides when its node registers. Terminations go through
 * shutting-down to terminated in 5 s.
 *
 * <p>What the real adapter ({@code Ec2CloudProvider}) and the SDK under it add, modelled here so that the core sees
 * the same errors: every call costs its latency ({@link CallKind}) when made from an invocation, a CreateFleet more
 * for a larger fleet; every attempt takes a token from its API's request-rate bucket ({@link CloudFaults}, EC2's
 * published sizes, always on) and is refused RequestLimitExceeded when it finds none; the SDK's standard retry mode
 * makes up to {@value Ec2Sdk#SDK_ATTEMPTS} attempts of a throttled or 5xx call, with jittered exponential backoff, before the
 * error surfaces as a retryable {@link CloudException} (RequestLimitExceeded, InternalError, Unavailable); a launch is
 * prepared ({@link PreparedLaunch}: one capacity type, at most {@value PreparedLaunch#MAX_INSTANCE_TYPES} types, spot when allowed and
 * offered, else on-demand, as the adapter's {@code FleetPlan} builds it) and then sent as prepared, and an ICE fault
 * fails every offering it asked for as {@link InsufficientCapacity} (never an offering of the other capacity type,
 * which it did not ask for). A CreateFleet launches the request's count of instances (TotalTargetCapacity), tagged
 * with the claim name when it is one and with the launch token ({@code gantry.dev/launch}) when several. A ClientToken
 * longer than {@value #MAX_CLIENT_TOKEN} characters is refused (InvalidParameterValue). A ClientToken reused with the
 * same parameters (capacity type, launch template, every override with its subnet, tags and count) returns the first
 * fleet's instances, as EC2 does; reused with any other parameter EC2 answers IdempotentParameterMismatch, and the
 * adapter looks the token's instances up by tag with a DescribeInstances of its own (its latency, throttling and lag),
 * returning those it lists and otherwise failing with a non-retryable IdempotentParameterMismatch, as
 * {@code Ec2CloudProvider} does (the claim is closed, and the instance, once listed, is drained or collected by the
 * sweep as an orphan). Capacity reservations, their counts and ends: {@link SimulatedReservations}. Describe lag: an instance launched in the last {@link FaultPlan.Ec2#describeLag()} is missing from
 * DescribeInstances (list, by id, by tag), as EC2's eventual consistency allows.
 *
 * <p>Not modelled: how long EC2 remembers a ClientToken (EC2 documents no expiry for fleets; here, forever); the
 * adapter's cached lookups behind {@link #prepare} (DescribeSubnets, DescribeSecurityGroups, SSM, CreateLaunchTemplate:
 * here free, and one launch template and one subnet per zone); EC2's resource-rate buckets (RunInstances 1,000
 * instances refilled at 2 a second, TerminateInstances 1,000 at 20), which no scenario comes near; partial fleet
 * answers while capacity remains (a fleet takes its cheapest offerings with capacity, as many instances from each as
 * it needs; it comes back short only when every allowed offering is out of capacity); Describe lag on state changes
 * (only on launch); the SDK's client-side retry quota.
 */
public final class SimulatedCloud implements CloudProvider, NodeClassResolution {
    /** The one security group every NodeClass selects here. */
    static final String SECURITY_GROUP = "sg-sim";
    static final Duration SHUTDOWN = Duration.ofSeconds(5);
    /** EC2's longest ClientToken: "a unique, case-sensitive string of up to 64 ASCII characters". */
    static final int MAX_CLIENT_TOKEN = 64;

    /** What the rest of the simulation hears from EC2. */
    public interface Observer {
        void launched(SimulatedInstance instance);

        /** {@code cause}: {@code api} (a TerminateInstances call), or what EC2 itself did (spot-reclaim, failure…). */
        void stateChanged(SimulatedInstance instance, String newState, String cause);

        /** A TerminateInstances call named an instance without this cluster's tag. */
        void unmanagedTouched(String instanceId);
    }

    final String cluster;
    final String region;
    final EventLoop loop;
    final Observer observer;
    final CloudFaults faults;
    private final Ec2Sdk sdk;
    final SplittableRandom ids;
    final SplittableRandom jitter;
    /** CreateFleet's answers: what each ClientToken launched, and when each offering last ran out of capacity. */
    private final SimulatedFleets fleets;
    final Map<String, SimulatedInstance> byId = new LinkedHashMap<>();
    final java.util.Set<String> dnsNames = new java.util.HashSet<>();
    /** Every instance type a launch was prepared with, by name (a replay may name one its request no longer has). */
    final Map<String, InstanceType> known = new java.util.HashMap<>();
    Faults injected = new Faults(FaultPlan.NONE, 0);
    final SimulatedImages images = new SimulatedImages();
    /** The account's capacity reservations: their counts, Capacity Block ends, interruptible ones. */
    final SimulatedReservations reservations = new SimulatedReservations(this);
    /** Running pods (not daemons, not finished) on an instance's node: a TerminateInstances call kills them. */
    private java.util.function.ToIntFunction<SimulatedInstance> podsOn = i -> 0;

    /** How many running pods (not daemons, not finished) an instance's node has: a TerminateInstances call kills them. */
    public void podsOn(java.util.function.ToIntFunction<SimulatedInstance> count) {
        this.podsOn = count;
    }
    /** TerminateInstances calls that ended an instance whose node still ran pods, and the first few of them. */
    long terminatedWithPods;
    final List<String> terminatedWithPodsExamples = new ArrayList<>();

    public SimulatedCloud(String cluster, String region, EventLoop loop, long seed, Observer observer) {
        this.cluster = cluster;
        this.region = region;
        this.loop = loop;
        this.observer = observer;
        this.faults = new CloudFaults(seed);
        this.sdk = new Ec2Sdk(loop, faults);
        this.ids = new SplittableRandom(seed ^ 0x1d5L);
        this.jitter = new SplittableRandom(seed ^ 0x717e7L);
        this.fleets = new SimulatedFleets(this);
    }

    public CloudFaults faults() {
        return faults;
    }

    /** Calls from invocations cost time on {@code r}; {@code f} injects the fault plan's EC2 faults. */
    public void runtime(LambdaRuntime r, Faults f) {
        this.injected = f;
        sdk.runtime(r, f);
    }


    @Override
    public LaunchResult launch(LaunchRequest request) {
        return launch(request, prepare(request));
    }

    /** What the adapter's {@code prepare} resolves ({@link PreparedLaunch}), without a call. */
    @Override
    public LaunchParameters prepare(LaunchRequest request) {
        List<InstanceType> options = request.options().stream().limit(PreparedLaunch.MAX_INSTANCE_TYPES).toList();
        options.forEach(t -> known.put(t.name(), t));
        return PreparedLaunch.of(request, options, cluster, images, reservations);
    }


    /**
     * One CreateFleet sending {@code parameters}. A ClientToken reused with other parameters is EC2's
     * IdempotentParameterMismatch, after which the adapter looks the token's instances up with a DescribeInstances of
     * its own (its latency, its throttling, its lag).
     */
    @Override
    public LaunchResult launch(LaunchRequest request, LaunchParameters parameters) {
        if (parameters == null) {
            return launch(request);
        }
        try {
            return sdk.call(CallKind.CREATE_FLEET, "CreateFleet", () -> fleets.create(request, parameters),
                    r -> r.instances().size());
        } catch (TokenReused reused) {
            String token = request.clientToken();
            List<CloudInstance> found = sdk.call(CallKind.DESCRIBE_INSTANCES, "DescribeInstances", () -> byToken(token),
                    List::size);
            if (found.isEmpty()) {
                throw reused;
            }
            return new LaunchResult(found, List.of());
        }
    }

    /** EC2 answered IdempotentParameterMismatch (not retried by the SDK: the same call fails the same way). */
    static final class TokenReused extends CloudException {
        TokenReused(String token) {
            super("IdempotentParameterMismatch", "CreateFleet: client token " + token
                    + " was used before with other parameters", false);
        }
    }

    /** The adapter's lookup by tag: the token's live instances that DescribeInstances lists now. */
    private List<CloudInstance> byToken(String token) {
        Instant now = loop.now();
        return byId.values().stream().filter(i -> token.equals(i.tags.get(CloudInstance.TAG_LAUNCH))
                        || token.equals(i.tags.get(CloudInstance.TAG_NODECLAIM)))
                .filter(i -> cluster.equals(i.tags.get(CloudInstance.TAG_CLUSTER)) && !i.state.equals("terminated"))
                .filter(i -> describable(i, now)).map(SimulatedInstance::view).toList();
    }

    /** A registration delay for this instance's AMI family: 20–30 s for Bottlerocket, 30–40 s otherwise. */
    public Duration registrationDelay(SimulatedInstance i) {
        String family = i.request == null ? "" : i.request.nodeClass().effectiveAmiFamily();
        long base = "bottlerocket".equalsIgnoreCase(family) ? 20_000 : 30_000;
        return Duration.ofMillis(base + jitter.nextLong(10_000));
    }

    /**
     * Whether EC2 answered insufficient capacity for this offering within {@code ttl} before {@code now} (an injected
     * ICE or one inside a fault window): what a Karpenter-compatible autoscaler keeps in its unavailable-offerings cache.
     */
    public boolean answeredIceWithin(String type, String zone, String capacityType, Duration ttl, Instant now) {
        return fleets.answeredIceWithin(type, zone, capacityType, ttl, now);
    }

    /** Whether DescribeInstances shows the instance yet (Describe lag after launch). */
    private boolean describable(SimulatedInstance i, Instant now) {
        Duration lag = injected.plan().ec2().describeLag();
        return lag.isZero() || i.launchTime == null || !now.isBefore(i.launchTime.plus(lag));
    }

    @Override
    public void terminate(List<String> instanceIds) {
        sdk.call(CallKind.TERMINATE_INSTANCES, "TerminateInstances", () -> {
            terminateNow(instanceIds);
            return Boolean.TRUE;
        }, x -> 0);
    }

    private void terminateNow(List<String> instanceIds) {
        for (String id : instanceIds) {
            SimulatedInstance i = byId.get(id);
            if (i == null) {
                continue;
            }
            if (!cluster.equals(i.tags.get(CloudInstance.TAG_CLUSTER))) {
                observer.unmanagedTouched(id);
            }
            int pods = i.isAlive() ? podsOn.applyAsInt(i) : 0;
            if (pods > 0) {
                terminatedWithPods++;
                if (terminatedWithPodsExamples.size() < 10) {
                    terminatedWithPodsExamples.add(loop.now() + " " + id + " (" + i.tags.get(CloudInstance.TAG_NODECLAIM)
                            + ") with " + pods + " pods running");
                }
            }
            end(i, "api");
        }
    }

    @Override
    public List<CloudInstance> listInstances() {
        return sdk.call(CallKind.DESCRIBE_INSTANCES, "DescribeInstances", () -> {
            Instant now = loop.now();
            return byId.values().stream().filter(i -> cluster.equals(i.tags.get(CloudInstance.TAG_CLUSTER)))
                    .filter(i -> !i.state.equals("terminated")).filter(i -> describable(i, now)).map(SimulatedInstance::view).toList();
        }, List::size);
    }

    @Override
    public Optional<CloudInstance> describe(String instanceId) {
        return sdk.call(CallKind.DESCRIBE_INSTANCES, "DescribeInstances", () -> Optional.ofNullable(byId.get(instanceId))
                .filter(i -> describable(i, loop.now())).map(SimulatedInstance::view), o -> o.isPresent() ? 1 : 0);
    }

    /** EC2 ends the instance itself (spot reclaim, failure, an outage): shutting-down now, terminated shortly. */
    public void end(SimulatedInstance i, String cause) {
        if (!i.isAlive() && !i.state.equals("stopped")) {
            return;
        }
        i.endedAt = loop.now();
        i.endCause = cause;
        setState(i, "shutting-down", cause);
        loop.after(SHUTDOWN, "ec2 terminated " + i.id, () -> setState(i, "terminated", cause));
    }

    /** The instance stops (a hardware failure): it costs nothing more and its node goes away. */
    public void stop(SimulatedInstance i, String cause) {
        if (!i.isAlive()) {
            return;
        }
        i.endedAt = loop.now();
        i.endCause = cause;
        setState(i, "stopping", cause);
        loop.after(SHUTDOWN, "ec2 stopped " + i.id, () -> setState(i, "stopped", cause));
    }

    /** Karpenter's instances of this cluster ({@code KarpenterTags}), as EC2 lists them by tag; adopted or not. */
    @Override
    public List<CloudInstance> listKarpenterInstances() {
        return sdk.call(CallKind.DESCRIBE_INSTANCES, "DescribeInstances", () -> byId.values().stream()
                .filter(i -> KarpenterTags.launchedFor(cluster, i.tags) && !i.state.equals("terminated"))
                .filter(i -> describable(i, loop.now())).map(SimulatedInstance::view).toList(), List::size);
    }

    /** CreateTags (its own request bucket, a mutating call's latency): an unknown instance is InvalidInstanceID.NotFound. */
    @Override
    public void tag(String instanceId, Map<String, String> tags) {
        sdk.call(CallKind.TERMINATE_INSTANCES, "CreateTags", () -> {
            SimulatedInstance i = byId.get(instanceId);
            if (i == null) {
                throw new CloudException("InvalidInstanceID.NotFound", "CreateTags: " + instanceId, false);
            }
            Map<String, String> merged = new java.util.TreeMap<>(i.tags);
            merged.putAll(tags);
            i.tags = Map.copyOf(merged);
            return Boolean.TRUE;
        }, x -> 0);
    }

    /** Adds an instance launched outside Gantry (a Karpenter's, {@link KarpenterLaunched}), already running. */
    void seed(SimulatedInstance i) {
        i.state = "running";
        byId.put(i.id, i);
        dnsNames.add(i.dnsName);
    }

    /** An instance this cluster does not own (another node group's), for the "never touch it" invariant. */
    public void seedUnmanaged(InstanceType type, String zone) {
        String id = String.format("i-%017x", ids.nextLong() & 0xfffffffffffffffL);
        SimulatedInstance i = new SimulatedInstance(id, type, zone, WellKnownLabels.CAPACITY_ON_DEMAND, 0, loop.now(),
                "ip-10-1-0-1." + region + ".compute.internal", Map.of("eks:nodegroup-name", "system"), null, Map.of());
        i.state = "running";
        byId.put(id, i);
    }

    void setState(SimulatedInstance i, String state, String cause) {
        i.state = state;
        if (state.equals("terminated") || state.equals("stopped")) {
            reservations.left(i.id); // its reservation slot is free again
        }
        observer.stateChanged(i, state, cause);
    }


    /** Every instance ever launched or seeded, in launch order. */
    public List<SimulatedInstance> instances() {
        return List.copyOf(byId.values());
    }

    public Optional<SimulatedInstance> instance(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public long tokenMismatches() {
        return fleets.tokenMismatches;
    }

    public long terminatedWithPods() {
        return terminatedWithPods;
    }

    public List<String> terminatedWithPodsExamples() {
        return terminatedWithPodsExamples;
    }

    /** The account's capacity reservations ({@link SimulatedReservations}): the port the provisioner and sweep read. */
    public SimulatedReservations reservations() {
        return reservations;
    }

    Ec2Sdk sdk() {
        return sdk;
    }

    /** The AMIs {@code @latest} resolves to ({@link SimulatedImages}): a scenario's AMI release changes them. */
    public SimulatedImages images() {
        return images;
    }

    /**
     * What a NodeClass selects now: its family's current image for every architecture ({@link SimulatedImages}), the
     * subnets its terms select in every zone offered or launched into ({@link SimulatedSubnets}), and
     * {@link #SECURITY_GROUP}. Free and immediate, as the adapter's cached lookups behind {@link #prepare} are here;
     * security group selection never changes.
     */
    @Override
    public java.util.Optional<Selected> resolve(dev.gantry.core.model.NodeClass nodeClass) {
        String image = images.of(nodeClass);
        java.util.Set<String> zones = new java.util.TreeSet<>();
        byId.values().forEach(i -> zones.add(i.zone));
        known.values().forEach(t -> t.offerings().forEach(o -> zones.add(o.zone())));
        java.util.Set<String> subnets = new java.util.TreeSet<>();
        SimulatedSubnets.selected(nodeClass, zones).forEach(s -> subnets.add(s.id()));
        return java.util.Optional.of(new Selected(Map.of("amd64", image, "arm64", image), subnets, java.util.Set.of(SECURITY_GROUP)));
    }
}
