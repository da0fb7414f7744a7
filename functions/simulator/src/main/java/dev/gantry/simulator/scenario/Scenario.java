package dev.gantry.simulator.scenario;

import dev.gantry.simulator.deployed.EventSources;
import dev.gantry.simulator.faults.FaultPlan;
import dev.gantry.simulator.runtime.CallKind;
import dev.gantry.simulator.runtime.Latency;
import dev.gantry.core.disruption.consolidation.ConsolidationSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A scenario file, read, in the sections of its YAML. Paths are already resolved against the scenario file's
 * directory. The YAML fields are a public format: keep them stable.
 *
 * @param file    the scenario file
 * @param name    {@code name}
 * @param cluster where the cluster is and what runs in it at the start ({@code region}, {@code zones},
 *                {@code cluster: {manifests}})
 * @param run     how long the run lasts, its seed and start, the window it reports on its own, and the history it
 *                learns first ({@code duration}, {@code seed}, {@code start}, {@code ramp}, {@code learnWeeks})
 * @param gantry  how Gantry is configured and deployed ({@code config}, {@code webhook}, {@code consolidation})
 * @param events  what happens when ({@code events})
 * @param faults  the {@code faults:} section: rates, targeted faults and the chaos mix
 * @param latency the {@code latency:} section: what port calls cost
 */
public record Scenario(Path file, String name, Cluster cluster, Run run, Gantry gantry, List<Event> events,
                       FaultSpec faults, LatencySpec latency) {
    public Scenario {
        events = List.copyOf(events);
        faults = faults == null ? FaultSpec.NONE : faults;
        latency = latency == null ? LatencySpec.AWS : latency;
    }

    public Scenario withCluster(Cluster c) {
        return new Scenario(file, name, c, run, gantry, events, faults, latency);
    }

    public Scenario withRun(Run r) {
        return new Scenario(file, name, cluster, r, gantry, events, faults, latency);
    }

    public Scenario withGantry(Gantry g) {
        return new Scenario(file, name, cluster, run, g, events, faults, latency);
    }

    public Scenario withEvents(List<Event> e) {
        return new Scenario(file, name, cluster, run, gantry, e, faults, latency);
    }

    public Scenario withFaults(FaultSpec f) {
        return new Scenario(file, name, cluster, run, gantry, events, f, latency);
    }

    public Scenario withLatency(LatencySpec l) {
        return new Scenario(file, name, cluster, run, gantry, events, faults, l);
    }

    /** The same run under another seed: what seed sweeps vary. */
    public Scenario withSeed(long seed) {
        return withRun(run.withSeed(seed));
    }

    /** The same scenario with its CapacityBuffers ignored: the baseline a buffer is measured against. */
    public Scenario withoutBuffers() {
        return withGantry(gantry.withoutBuffers());
    }

    /** The faults this run injects: the file's, plus the chaos mix for this run's seed when it is on. */
    public FaultPlan effectiveFaults() {
        return faults.effective(run.seed());
    }

    /**
     * Where the cluster is and what runs in it when the run starts.
     *
     * @param region    {@code region} (default us-east-1)
     * @param zones     {@code zones} (default the region's a, b and c)
     * @param manifests {@code cluster: {manifests}}: applied before the run starts
     * @param karpenter {@code cluster: {karpenter}}: nodes a Karpenter launched before the run, for Gantry to adopt
     * @param reservations {@code cluster: {reservations}}: the account's capacity reservations ({@link ReservationsReader})
     */
    public record Cluster(String region, List<String> zones, List<Path> manifests, List<KarpenterNodes> karpenter,
                          List<dev.gantry.simulator.world.aws.SimulatedReservations.Spec> reservations) {
        public Cluster {
            zones = List.copyOf(zones);
            manifests = List.copyOf(manifests);
            karpenter = List.copyOf(karpenter);
            reservations = List.copyOf(reservations == null ? List.of() : reservations);
        }

        public Cluster(String region, List<String> zones, List<Path> manifests, List<KarpenterNodes> karpenter) {
            this(region, zones, manifests, karpenter, List.of());
        }

        public Cluster(String region, List<String> zones, List<Path> manifests) {
            this(region, zones, manifests, List.of());
        }
    }

    /**
     * The run itself.
     *
     * @param duration   how long it lasts in virtual time
     * @param seed       the seed of every random draw (spot prices, latencies, faults)
     * @param start      the virtual instant it starts at (UTC); buffer schedules and hours of the week follow it
     * @param ramp       the window whose pods' time-to-schedule is reported on its own (the morning ramp), or null
     * @param learnWeeks weeks of pending-demand history recorded first, by running the same scenario without buffers
     *                   that many weeks earlier (what a predicted buffer learns from)
     */
    public record Run(Duration duration, long seed, Instant start, Window ramp, int learnWeeks) {
        /** Where virtual time starts unless a scenario says otherwise (a Sunday). */
        public static final Instant DEFAULT_START = Instant.parse("2025-06-01T00:00:00Z");

        public Run {
            start = start == null ? DEFAULT_START : start;
        }

        public Run withSeed(long s) {
            return new Run(duration, s, start, ramp, learnWeeks);
        }

        public Run withLearnWeeks(int weeks) {
            return new Run(duration, seed, start, ramp, weeks);
        }

        /** This run {@code weeks} weeks earlier, reporting no ramp and learning nothing itself. */
        public Run weeksEarlier(int weeks) {
            return new Run(duration, seed, start.minus(Duration.ofDays(7L * weeks)), null, 0);
        }
    }

    /** {@code [from, until)} after the start. */
    public record Window(Duration from, Duration until) {
        public boolean contains(Duration t) {
            return t.compareTo(from) >= 0 && t.compareTo(until) < 0;
        }
    }

    /**
     * How Gantry runs.
     *
     * @param config        {@code config}: NodePools, EC2NodeClasses, CapacityBuffers
     * @param webhook       {@code webhook}: false for sweep-only detection (the backstop path)
     * @param consolidation the operator's consolidation settings ({@code consolidation: {spotToSpot, strategy}}; null:
     *                      the deployed ones)
     * @param buffers       whether the config's CapacityBuffers are kept (false: the baseline they are measured against)
     */
    public record Gantry(List<Path> config, boolean webhook, ConsolidationSettings consolidation, boolean buffers) {
        public Gantry {
            config = List.copyOf(config);
            consolidation = consolidation == null ? EventSources.DEPLOYED.consolidation() : consolidation;
        }

        public Gantry withoutBuffers() {
            return new Gantry(config, webhook, consolidation, false);
        }
    }

    /**
     * The {@code faults:} section.
     *
     * @param plan           the rates and targeted faults it names
     * @param chaos          {@code chaos: true}: add {@link FaultPlan#chaos(long)} for the run's seed
     * @param chaosIntensity what every rate of the chaos mix is multiplied by
     */
    public record FaultSpec(FaultPlan plan, boolean chaos, double chaosIntensity) {
        public static final FaultSpec NONE = new FaultSpec(FaultPlan.NONE, false, 1);

        /** Just {@code plan}, with no chaos mix. */
        public static FaultSpec of(FaultPlan plan) {
            return new FaultSpec(plan, false, 1);
        }

        /** The chaos mix switched on, every rate times {@code intensity}. */
        public FaultSpec withChaos(double intensity) {
            return new FaultSpec(plan, true, intensity);
        }

        /** The faults a run with {@code seed} injects. */
        public FaultPlan effective(long seed) {
            return chaos ? plan.plus(FaultPlan.chaos(seed).times(chaosIntensity)) : plan;
        }
    }

    /** What port calls cost: AWS-like defaults, per-kind overrides, all scaled ({@code scale: 0}: instant). */
    public record LatencySpec(Map<CallKind, Latency.Range> overrides, double scale) {
        public static final LatencySpec AWS = new LatencySpec(Map.of(), 1);
        public static final LatencySpec NONE = new LatencySpec(Map.of(), 0);

        public LatencySpec {
            overrides = Map.copyOf(overrides);
        }

        public Latency build(long seed) {
            return scale == 0 ? Latency.none() : Latency.of(overrides, scale, seed);
        }
    }

    /** Something that happens at {@code at} after the start; {@code line} is where the scenario says so. */
    public record Event(Duration at, Action action, int line) {
    }

    /** What an event does. */
    public sealed interface Action {
    }

    /** {@code kubectl scale nodepool}: a static NodePool's {@code spec.replicas} changed ({@link NodePoolScale}). */
    public record ScaleNodePool(String nodePool, int replicas) implements Action {
    }

    /** A node-health event ({@link HealthEventsReader}). */
    public record Health(HealthEvent event) implements Action {
    }

    /** Apply manifests (Deployments, Pods, Jobs, DaemonSets, PDBs). */
    public record Apply(Path file) implements Action {
    }

    /** Apply one NodePool or EC2NodeClass to the cluster, as {@code kubectl apply} or Argo CD does (GitOps). */
    public record ApplyConfig(String kind, String name, java.util.Map<String, Object> object) implements Action {
    }

    /** Delete one NodePool or EC2NodeClass from the cluster. */
    public record DeleteConfig(String kind, String name) implements Action {
    }

    public record Scale(String deployment, int replicas) implements Action {
    }

    public record Delete(String deployment) implements Action {
    }

    /**
     * Warnings for {@code count} Gantry nodes matching the filters (null = any), oldest first. {@code kind}: spot (a
     * spot interruption warning, then EC2 reclaims the instance two minutes later), rebalance, health (an AWS Health
     * retirement) or failure (the instance stops). {@code warnAfter} (rebalance only, nullable): EC2 follows the
     * recommendation with the spot interruption warning for the same instance that much later, if it still runs.
     */
    public record Interrupt(String kind, String capacityType, String zone, String nodePool, int count,
                            java.time.Duration warnAfter) implements Action {
        public Interrupt(String kind, String capacityType, String zone, String nodePool, int count) {
            this(kind, capacityType, zone, nodePool, count, null);
        }
    }

    /** A raw EventBridge event from a file, for the {@code index}-th live Gantry node of {@code nodePool} (null = any). */
    public record AwsEvent(Path file, String nodePool, int index) implements Action {
    }

    /** {@code kubectl delete node} on the {@code index}-th live Gantry node. */
    public record DeleteNode(String nodePool, int index) implements Action {
    }

    /** Every Gantry instance dies at once (an outage): EC2 terminates them all. */
    public record TerminateAllNodes() implements Action {
    }

    /** Insufficient capacity for matching offerings (empty lists match everything) for a while. */
    public record Ice(List<String> instanceTypes, List<String> zones, List<String> capacityTypes, Duration lasting)
            implements Action {
    }

    /** EC2 refuses a share of call attempts with RequestLimitExceeded (a per-attempt draw). */
    public record Throttle(double probability, Duration lasting) implements Action {
    }

    /**
     * A noisy neighbour in the account sends {@code demand} times each EC2 API's refill rate for a while: it drains the
     * request token buckets, and a call of ours succeeds when it finds a token ({@code fault: {throttle: {neighbour:}}}).
     */
    public record NoisyNeighbour(double demand, Duration lasting) implements Action {
    }

    /** EC2 answers every call Unavailable for a while ({@code fault: {outage:}}). */
    public record Ec2Outage(Duration lasting) implements Action {
    }

    public record ApiServerDown(Duration lasting) implements Action {
    }

    /**
     * AWS publishes {@code version} of an AMI family's image (SSM's {@code @latest} for {@code family}, e.g.
     * {@code al2023}): launches from now on use it, and the running nodes drift. A faulty release ({@code fault}):
     * {@code bad: true} boots nodes that register but never report Ready; {@code crashLoop: true} nodes that become
     * Ready but whose pods crash-loop; {@code deregistered: true} an image EC2 refuses to launch.
     */
    public record AmiRelease(String family, String version, dev.gantry.simulator.world.aws.SimulatedImages.Fault fault)
            implements Action {
        public boolean bad() {
            return fault != dev.gantry.simulator.world.aws.SimulatedImages.Fault.NONE;
        }
    }

    /**
     * The owner of interruptible reservation {@code reservation} reclaims {@code count} of its instances: EC2 sends the
     * "EC2 Capacity Reservation Instance Interruption Warning" for each, and ends them two minutes later.
     */
    public record ReservationInterruption(String reservation, int count) implements Action {
    }

    /** The next {@code count} launches succeed at EC2, then the provisioner dies before recording them. */
    public record CrashAfterLaunch(int count) implements Action {
    }
}
